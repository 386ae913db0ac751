/**
 * "Open in Editor": a run's transcript in an editor tab beside the code (TranscriptPanels); "Find in Transcript":
 * the transcript's own find bar (it searches the whole run on the host), in the active tab or the sidebar view.
 */
import * as vscode from 'vscode';
import type { TranscriptPanels } from '../transcript/transcriptPanels';
import type { CommandContext } from './commandContext';
import { runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

export function registerTranscriptTabCommands(ctx: CommandContext, panels: TranscriptPanels): vscode.Disposable[] {
  const open = (runKey: string): string => {
    panels.open(runKey);
    return runKey;
  };
  return [
    // A run row (tree), a run key (automation) or nothing (palette: ask which run). Returns the run key it opened.
    vscode.commands.registerCommand('agentSwitchboard.openInEditor', async (target?: unknown) => {
      const key = runKeyOfTarget(target);
      if (key && ctx.store.state.runs.has(key)) {
        return open(key);
      }
      const run = await pickRun(ctx.store.state, 'Open which transcript in an editor tab?', () => true);
      return run ? open(run.key) : undefined;
    }),
    // Ctrl/Cmd+F in a transcript (the webview handles the key itself too when it gets it) and the palette.
    vscode.commands.registerCommand('agentSwitchboard.findInTranscript', async () => {
      if (ctx.transcriptTabs.postToActive({ type: 'openFind' })) {
        return;
      }
      await ctx.transcript.reveal(true);
      ctx.transcript.post({ type: 'openFind' });
    }),
    // The Transcript view's title bar: the run it shows.
    vscode.commands.registerCommand('agentSwitchboard.openSelectedRunInEditor', async () => {
      const key = ctx.selection.runKey;
      if (key && ctx.store.state.runs.has(key)) {
        return open(key);
      }
      return vscode.commands.executeCommand<string | undefined>('agentSwitchboard.openInEditor');
    }),
  ];
}

/**
 * What marks a run seen (issue #26): the run the Transcript view shows, when the view shows it — selected on the
 * board, in the tree, from a notification — and again when the user moves on from it (what changed while they looked
 * was seen as it happened), and *Mark All Runs Seen* / *Mark Run Seen* from the palette and the board's menus.
 */
import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import { currentSignatures } from './boardAway';
import type { BoardTreeProvider } from './boardTreeProvider';
import type { SeenRuns } from './seenRuns';

/** Marks runs seen as the user looks at them; registers the commands. */
export function registerSeenTracking(ctx: CommandContext, seen: SeenRuns, looking: () => string | undefined, provider: Pick<BoardTreeProvider, 'flush'>): vscode.Disposable[] {
  const mark = (runKey: string | undefined): boolean => {
    const run = runKey !== undefined ? ctx.store.state.runs.get(runKey) : undefined;
    return run !== undefined && seen.mark(run.key, currentSignatures(run, ctx.store.state.changeSets.get(run.key)), Date.now());
  };
  let shown = looking();
  let watched: readonly unknown[] = [];
  mark(shown);
  // The run looked at changes (another selection, the view hidden or shown): the one left was seen up to now, the one
  // shown is seen from now.
  const update = (): void => {
    const now = looking();
    if (now !== shown) {
      mark(shown);
      shown = now;
    }
    mark(now);
  };
  const runKeyOf = (target: unknown): string | undefined => {
    if (typeof target === 'string') {
      return target;
    }
    const node = target as { readonly type?: unknown; readonly key?: unknown } | null;
    return node && typeof node === 'object' && node.type === 'run' && typeof node.key === 'string' ? node.key : ctx.selection.runKey;
  };
  return [
    ctx.selection.onDidChange(update),
    ctx.transcript.onDidChangeVisibility(update),
    // While the user looks at a run, its new changes are seen as they come: the record follows its change set and
    // its reported edits (checked by identity: a streamed chunk writes nothing).
    ctx.store.onDidChange(() => {
      const run = shown !== undefined ? ctx.store.state.runs.get(shown) : undefined;
      const inputs = run ? [run.key, ctx.store.state.changeSets.get(run.key), run.reportedEdits] : [];
      if (run && inputs.some((v, i) => v !== watched[i])) {
        watched = inputs;
        mark(run.key);
      }
    }),
    { dispose: () => mark(shown) },
    vscode.commands.registerCommand('agentSwitchboard.board.markAllSeen', () => {
      let marked = 0;
      for (const key of ctx.store.state.runs.keys()) {
        marked += mark(key) ? 1 : 0;
      }
      provider.flush();
      return marked;
    }),
    vscode.commands.registerCommand('agentSwitchboard.board.markSeen', (target?: unknown) => {
      const marked = mark(runKeyOf(target));
      provider.flush();
      return marked;
    }),
  ];
}

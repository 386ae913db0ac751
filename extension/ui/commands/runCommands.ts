/** New run, send message, cancel, show transcript, copy run id, composer focus. */
import * as vscode from 'vscode';
import type { StartRunOptions } from '../../drivers/driver';
import type { RunInfo } from '../../model/modelTypes';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText, runKeyOfTarget } from './commandContext';
import { isActiveRun, pickConnection, pickRun } from './pickers';

/** Arguments tests and automation may pass to skip the prompts of "New Run…". */
export interface NewRunArgs extends Partial<StartRunOptions> {
  readonly connectionId?: string;
}

const PERMISSIONS = [
  { label: 'edit', description: 'Edit files; ask before risky tools' },
  { label: 'read_only', description: 'Read, never write' },
  { label: 'plan', description: 'Plan only' },
  { label: 'auto', description: 'Act without asking for most tools' },
  { label: 'bypass', description: 'Never ask (dangerous)' },
];

async function askNewRun(ctx: CommandContext, connectionId: string, args: NewRunArgs): Promise<StartRunOptions | undefined> {
  const driver = ctx.connections.ensureDriver(connectionId);
  let provider = args.provider;
  if (provider === undefined && driver.listProviders) {
    const providers = await driver.listProviders();
    const items = providers.map((p) => ({
      label: p.provider,
      description: p.installed ? [p.version, p.authState.replace('_', ' ')].filter(Boolean).join(' · ') : 'not installed',
      detail: p.installed && p.authState !== 'logged_in' && p.loginHint ? `Log in first: ${p.loginHint}` : p.detail || undefined,
      provider: p.provider,
    }));
    const installed = items.filter((i) => !i.description.startsWith('not installed'));
    const pick = await vscode.window.showQuickPick(installed.length > 0 ? installed : items, { placeHolder: 'Which agent provider?', title: 'New Run (1/4)' });
    if (!pick) {
      return undefined;
    }
    provider = pick.provider;
  }
  const model = args.model ?? (await vscode.window.showInputBox({ title: 'New Run (2/4)', prompt: 'Model (empty = the provider default)', value: '' }));
  if (model === undefined) {
    return undefined;
  }
  const permission =
    args.permission ?? (await vscode.window.showQuickPick(PERMISSIONS, { title: 'New Run (3/4)', placeHolder: 'Permission mode' }))?.label;
  if (!permission) {
    return undefined;
  }
  const prompt =
    args.prompt ??
    (await vscode.window.showInputBox({
      title: 'New Run (4/4)',
      prompt: 'What should the agent do?',
      validateInput: (v) => (v.trim() === '' ? 'Enter a prompt' : undefined),
    }));
  if (!prompt) {
    return undefined;
  }
  const workspaceRoots = args.workspaceRoots ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  return {
    prompt,
    ...(provider !== undefined ? { provider } : {}),
    model,
    permission,
    workspaceRoots,
    approvals: args.approvals ?? true,
    interactive: args.interactive ?? true,
  };
}

export function registerRunCommands(ctx: CommandContext): vscode.Disposable[] {
  const runOf = (target: unknown): RunInfo | undefined => {
    const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
    return key ? ctx.store.state.runs.get(key) : undefined;
  };
  const showRun = async (runKey: string): Promise<void> => {
    ctx.selection.select(runKey);
    await ctx.transcript.reveal();
  };
  return [
    vscode.commands.registerCommand('agentSwitchboard.newRun', async (target?: unknown) => {
      const args: NewRunArgs = target !== null && typeof target === 'object' && !('type' in target) ? (target as NewRunArgs) : {};
      const connectionId =
        args.connectionId ??
        connectionIdOfTarget(target) ??
        (await pickConnection(ctx.store.state, 'Start the run on which daemon?', (c) => c.capabilities.includes('run.start') && c.state.kind === 'connected'));
      if (!connectionId) {
        return undefined;
      }
      try {
        const driver = ctx.connections.ensureDriver(connectionId);
        if (!driver.startRun) {
          throw new Error('This daemon does not start runs from the editor.');
        }
        const options = await askNewRun(ctx, connectionId, args);
        if (!options) {
          return undefined;
        }
        const runId = await driver.startRun(options);
        const runKey = `${connectionId}::${runId}`;
        await showRun(runKey);
        return runKey;
      } catch (error) {
        ctx.log.error(`New run: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`The run did not start: ${errorText(error)}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.sendMessage', async (target?: unknown, text?: unknown) => {
      const run = runOf(target) ?? (await pickRun(ctx.store.state, 'Send a message to which run?', isActiveRun));
      if (!run) {
        return;
      }
      const driver = ctx.connections.driver(run.connectionId);
      if (!driver?.sendMessage) {
        void vscode.window.showWarningMessage('This run does not take messages (its daemon is not connected or does not support it).');
        return;
      }
      const body = typeof text === 'string' ? text : await vscode.window.showInputBox({ prompt: `Message to "${run.title}"`, validateInput: (v) => (v.trim() ? undefined : 'Enter a message') });
      if (!body) {
        return;
      }
      try {
        await driver.sendMessage(run.runId, body);
      } catch (error) {
        void vscode.window.showErrorMessage(`The message was not sent: ${errorText(error)}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.cancelRun', async (target?: unknown) => {
      const run = runOf(target) ?? (await pickRun(ctx.store.state, 'Cancel which run?', isActiveRun));
      if (!run) {
        return;
      }
      const driver = ctx.connections.driver(run.connectionId);
      if (!driver?.cancelRun) {
        void vscode.window.showWarningMessage('This run cannot be cancelled from here (its daemon is not connected).');
        return;
      }
      try {
        await driver.cancelRun(run.runId);
      } catch (error) {
        void vscode.window.showErrorMessage(`Cancel failed: ${errorText(error)}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.stopSelectedRun', () => vscode.commands.executeCommand('agentSwitchboard.cancelRun', ctx.selection.runKey)),
    vscode.commands.registerCommand('agentSwitchboard.showTranscript', async (target?: unknown) => {
      const run = runOf(target) ?? (await pickRun(ctx.store.state, 'Show which transcript?', () => true));
      if (run) {
        await showRun(run.key);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.copyRunId', async (target?: unknown) => {
      const run = runOf(target);
      if (run) {
        await vscode.env.clipboard.writeText(run.runId);
        void vscode.window.setStatusBarMessage(`Copied run id ${run.runId}`, 3000);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.focusComposer', async () => {
      await ctx.transcript.reveal(true);
      ctx.transcript.post({ type: 'focusComposer' });
    }),
  ];
}

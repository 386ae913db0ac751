/** AgencyProxy daemon commands: account usage and lifecycle (shutdown drain / terminate / if idle). */
import * as vscode from 'vscode';
import { AgencyProxyDriver } from '../../drivers/agencyProxy/agencyProxyDriver';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText } from './commandContext';
import { pickConnection } from './pickers';

async function agencyProxyDriver(ctx: CommandContext, target: unknown, placeHolder: string): Promise<AgencyProxyDriver | undefined> {
  const id =
    connectionIdOfTarget(target) ??
    (await pickConnection(ctx.store.state, placeHolder, (c) => c.id.startsWith('agency-proxy:') && c.state.kind === 'connected'));
  if (!id) {
    return undefined;
  }
  const driver = ctx.connections.driver(id);
  if (!(driver instanceof AgencyProxyDriver)) {
    void vscode.window.showWarningMessage('That connection is not a connected AgencyProxy daemon.');
    return undefined;
  }
  return driver;
}

export function registerAgencyProxyCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentSwitchboard.agencyProxy.accountUsage', async (target?: unknown) => {
      const driver = await agencyProxyDriver(ctx, target, 'Account usage of which AgencyProxy?');
      if (!driver) {
        return;
      }
      try {
        const usage = await driver.readAccountUsage();
        // Provider-specific shapes: shown as JSON in a read-only-by-convention untitled editor.
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(usage, null, 2) });
        await vscode.window.showTextDocument(doc, { preview: true });
      } catch (error) {
        void vscode.window.showErrorMessage(`Account usage: ${errorText(error)}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.agencyProxy.shutdown', async (target?: unknown, mode?: unknown) => {
      const driver = await agencyProxyDriver(ctx, target, 'Stop which AgencyProxy daemon?');
      if (!driver) {
        return;
      }
      const choice =
        mode === 'drain' || mode === 'terminate' || mode === 'idle'
          ? mode
          : (
              await vscode.window.showQuickPick(
                [
                  { label: 'Stop when idle', description: 'only if no run is active', mode: 'idle' as const },
                  { label: 'Drain', description: 'refuse new runs, let active runs finish, then stop', mode: 'drain' as const },
                  { label: 'Terminate', description: 'cancel every active run, then stop', mode: 'terminate' as const },
                ],
                { placeHolder: 'How should the daemon stop?' },
              )
            )?.mode;
      if (!choice) {
        return;
      }
      if (choice === 'terminate' && mode === undefined) {
        const ok = await vscode.window.showWarningMessage('Cancel every active run and stop AgencyProxy?', { modal: true }, 'Terminate');
        if (ok !== 'Terminate') {
          return;
        }
      }
      try {
        if (choice === 'idle') {
          await driver.shutdownIfIdle();
        } else {
          await driver.shutdown(choice);
        }
        void vscode.window.showInformationMessage(choice === 'drain' ? 'AgencyProxy stops once its runs finish.' : 'AgencyProxy is stopping.');
      } catch (error) {
        void vscode.window.showErrorMessage(`AgencyProxy did not stop: ${errorText(error)}`);
      }
    }),
  ];
}

/** Connect, disconnect, manage connections, refresh, show the log. */
import * as vscode from 'vscode';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText } from './commandContext';
import type * as ConnectionEditor from '../connectionEditor/manageConnectionsFeature';
import type { CommandHandler } from '../lazyCommands';
import { registerLazyCommands } from '../lazyCommands';
import { pickConnection } from './pickers';
import { showProtocolLog } from './protocolLogCommand';
import { ConsentDeclined } from '../workspaceConnections/workspaceConnections';

export function registerConnectionCommands(ctx: CommandContext): vscode.Disposable[] {
  // Manage Connections (the pick of daemons found, ACP agents, a socket path): a bundle loaded at its first use.
  let editor: ReadonlyMap<string, CommandHandler> | undefined;
  const loadEditor = (): ReadonlyMap<string, CommandHandler> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    (editor ??= (require('../connectionEditor/manageConnectionsFeature') as typeof ConnectionEditor).manageConnectionsHandlers(ctx));
  return [
    ...registerLazyCommands(['agentSwitchboard.manageConnections'], loadEditor, 'connection editor'),
    vscode.commands.registerCommand('agentSwitchboard.connect', async (target?: unknown) => {
      const id =
        connectionIdOfTarget(target) ??
        (await pickConnection(ctx.store.state, 'Connect to which daemon?', (c) => c.state.kind !== 'connected'));
      if (!id) {
        return;
      }
      try {
        await ctx.connections.connect(id);
      } catch (error) {
        if (error instanceof ConsentDeclined) {
          // The user said no in the consent prompt: nothing to report.
          return;
        }
        ctx.log.error(`Connect ${id}: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`Could not connect: ${errorText(error)}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.disconnect', async (target?: unknown) => {
      const id =
        connectionIdOfTarget(target) ??
        (await pickConnection(ctx.store.state, 'Disconnect which daemon?', (c) => c.state.kind !== 'idle' && c.state.kind !== 'disconnected'));
      if (id) {
        await ctx.connections.disconnect(id);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.showLog', () => showProtocolLog(ctx.log)),
    vscode.commands.registerCommand('agentSwitchboard.refresh', async () => {
      for (const connection of ctx.store.state.connections.values()) {
        const driver = ctx.connections.driver(connection.id);
        if (driver?.refresh && connection.state.kind === 'connected') {
          await driver.refresh().catch((error: unknown) => ctx.log.warn(`Refresh ${connection.name}: ${errorText(error)}`));
        }
      }
    }),
  ];
}

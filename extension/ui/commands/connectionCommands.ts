/** Connect, disconnect, manage connections, refresh, show the log. */
import * as vscode from 'vscode';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText } from './commandContext';
import type { AddConnectionArgs } from './manageConnections';
import { manageConnections } from './manageConnections';
import { pickConnection } from './pickers';
import { showProtocolLog } from './protocolLogCommand';
import { ConsentDeclined } from '../workspaceConnections/workspaceConnections';

function isAddConnectionArgs(value: unknown): value is AddConnectionArgs {
  return value !== null && typeof value === 'object' && typeof (value as { socketPath?: unknown }).socketPath === 'string';
}

export function registerConnectionCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
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
    vscode.commands.registerCommand('agentSwitchboard.manageConnections', (args?: unknown) =>
      manageConnections(ctx, isAddConnectionArgs(args) ? args : undefined),
    ),
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

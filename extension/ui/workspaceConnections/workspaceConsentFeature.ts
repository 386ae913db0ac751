/**
 * *Review Workspace Connections…* (palette, a workspace-defined row's Review action) and *Forget Workspace Connection
 * Consent*: their handlers, a bundle loaded at the first use of one (workspaceConnectionCommands.ts registers them and
 * keeps what the tree and the first notification need).
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { CommandContext } from '../commands/commandContext';
import { connectionIdOfTarget, errorText } from '../commands/commandContext';
import type { CommandHandler } from '../lazyCommands';
import { FORGET_COMMAND, REVIEW_COMMAND, STATUS_TEXT } from './workspaceConnectionCommands';
import type { WorkspaceConnections } from './workspaceConnections';

/** Asks for consent to one workspace connection (or says why it cannot be used) and connects it when allowed. */
async function reviewOne(ctx: CommandContext, workspace: WorkspaceConnections, connectionId: string): Promise<void> {
  const status = workspace.status(connectionId);
  const name = workspace.nameOf(connectionId);
  if (status === 'untrusted') {
    const choice = await vscode.window.showWarningMessage(`"${name}" comes from this workspace's settings, which are used only in a trusted workspace.`, 'Manage Workspace Trust');
    if (choice) {
      await vscode.commands.executeCommand('workbench.trust.manage');
    }
    return;
  }
  if (status === 'refused') {
    void vscode.window.showErrorMessage(`"${name}" from this workspace's settings is not used: ${workspace.review(connectionId)?.refusal ?? ''}`);
    return;
  }
  await connectAllowed(ctx.connections, ctx, workspace, connectionId);
}

async function connectAllowed(connections: ConnectionManager, ctx: CommandContext, workspace: WorkspaceConnections, connectionId: string): Promise<void> {
  if (workspace.status(connectionId) !== 'allowed' && !(await workspace.ask(connectionId))) {
    return;
  }
  try {
    await connections.connect(connectionId);
  } catch (error) {
    ctx.log.error(`Connect ${connectionId}: ${errorText(error)}`);
    void vscode.window.showErrorMessage(`Could not connect: ${errorText(error)}`);
  }
}

/** The handlers of REVIEW_COMMAND and FORGET_COMMAND (workspaceConnectionCommands.ts registers them). */
export function workspaceConsentHandlers(ctx: CommandContext, workspace: WorkspaceConnections): ReadonlyMap<string, CommandHandler> {
  return new Map<string, CommandHandler>([
    [REVIEW_COMMAND, async (target?: unknown) => {
      const targetId = connectionIdOfTarget(target);
      if (targetId && workspace.isWorkspaceDefined(targetId)) {
        return reviewOne(ctx, workspace, targetId);
      }
      const ids = workspace.ids();
      if (ids.length === 0) {
        void vscode.window.showInformationMessage("This workspace's settings define no connections.");
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        ids.map((id) => ({ id, label: workspace.nameOf(id), description: STATUS_TEXT[workspace.status(id) ?? 'unreviewed'], detail: workspace.review(id)?.effects[0] })),
        { title: 'Review Workspace Connections', placeHolder: "Connections defined by this workspace's settings: pick one to review it" },
      );
      return pick ? reviewOne(ctx, workspace, pick.id) : undefined;
    }],
    [FORGET_COMMAND, async () => {
      const allowed = await workspace.forgetConsent();
      for (const id of allowed) {
        await ctx.connections.disconnect(id);
      }
      void vscode.window.showInformationMessage(
        allowed.length === 0
          ? 'No workspace connection was allowed in this workspace.'
          : `Forgot your consent to ${allowed.length} workspace connection${allowed.length === 1 ? '' : 's'} and disconnected ${allowed.length === 1 ? 'it' : 'them'}.`,
      );
    }],
  ]);
}

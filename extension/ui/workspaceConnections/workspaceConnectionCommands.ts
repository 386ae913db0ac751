/**
 * What the user sees of workspace-defined connections (workspaceConnections.ts): one notification when the window
 * finds some waiting for a decision, the tree row's text and Review action, and the palette's *Review Workspace
 * Connections…* and *Forget Workspace Connection Consent*.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { CommandContext } from '../commands/commandContext';
import { connectionIdOfTarget, errorText } from '../commands/commandContext';
import type { WorkspaceConnections, WorkspaceConnectionStatus } from './workspaceConnections';

export const REVIEW_COMMAND = 'agentSwitchboard.reviewWorkspaceConnections';
export const FORGET_COMMAND = 'agentSwitchboard.forgetWorkspaceConnectionConsent';

/** What the Connections tree adds to a workspace-defined row: its text while not connected, tooltip, menu flag. */
export interface ConnectionNote {
  readonly description?: string;
  readonly tooltip: string;
  /** Appended to the row's contextValue: `+review` offers the Review action. */
  readonly flag: string;
}

/** The status first: the sidebar is narrow, and the end of a row's text is what gets cut off. */
const STATUS_TEXT: Record<WorkspaceConnectionStatus, string> = {
  untrusted: 'needs a trusted workspace · workspace settings',
  refused: 'refused · workspace settings',
  allowed: 'allowed · workspace settings',
  declined: 'not allowed · workspace settings',
  unreviewed: 'not allowed yet · workspace settings',
};

export function connectionNote(workspace: WorkspaceConnections, connectionId: string): ConnectionNote | undefined {
  const status = workspace.status(connectionId);
  if (!status) {
    return undefined;
  }
  const review = workspace.review(connectionId);
  const lines = [`Defined by this workspace's settings (.vscode/settings.json).`, ...(review?.effects ?? [])];
  if (status === 'refused' && review?.refusal) {
    lines.push(`Not used: ${review.refusal}`);
  } else if (status === 'untrusted') {
    lines.push('Used only in a trusted workspace.');
  } else if (status !== 'allowed') {
    lines.push('It connects only after you allow it (Review).');
  }
  return {
    ...(status === 'allowed' ? {} : { description: STATUS_TEXT[status] }),
    tooltip: lines.join('\n'),
    flag: status === 'allowed' ? '+workspace' : '+workspace+review',
  };
}

/** One notification for the workspace connections the window has not told about yet (never a modal per profile). */
export function announceWorkspaceConnections(workspace: WorkspaceConnections): void {
  const fresh = workspace.takeUnannounced();
  if (fresh.length === 0) {
    return;
  }
  const names = fresh.map((id) => `"${workspace.nameOf(id)}"`).join(', ');
  const text =
    fresh.length === 1
      ? `This workspace's settings define the connection ${names}. It will not run or connect until you review and allow it.`
      : `This workspace's settings define ${fresh.length} connections (${names}). They will not run or connect until you review and allow them.`;
  void vscode.window.showInformationMessage(text, 'Review…').then((choice) => {
    if (choice) {
      void vscode.commands.executeCommand(REVIEW_COMMAND);
    }
  });
}

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

export function registerWorkspaceConnectionCommands(ctx: CommandContext, workspace: WorkspaceConnections): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(REVIEW_COMMAND, async (target?: unknown) => {
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
    }),
    vscode.commands.registerCommand(FORGET_COMMAND, async () => {
      const allowed = await workspace.forgetConsent();
      for (const id of allowed) {
        await ctx.connections.disconnect(id);
      }
      void vscode.window.showInformationMessage(
        allowed.length === 0
          ? 'No workspace connection was allowed in this workspace.'
          : `Forgot your consent to ${allowed.length} workspace connection${allowed.length === 1 ? '' : 's'} and disconnected ${allowed.length === 1 ? 'it' : 'them'}.`,
      );
    }),
  ];
}

/**
 * What the user sees of workspace-defined connections (workspaceConnections.ts): one notification when the window
 * finds some waiting for a decision, the tree row's text and Review action, and the palette's *Review Workspace
 * Connections…* and *Forget Workspace Connection Consent* (their handlers: workspaceConsentFeature.ts, a bundle
 * loaded at the first use of one).
 */
import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import type { CommandHandler } from '../lazyCommands';
import { registerLazyCommands } from '../lazyCommands';
import type { WorkspaceConnections, WorkspaceConnectionStatus } from './workspaceConnections';
import type * as Feature from './workspaceConsentFeature';

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
export const STATUS_TEXT: Record<WorkspaceConnectionStatus, string> = {
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

export function registerWorkspaceConnectionCommands(ctx: CommandContext, workspace: WorkspaceConnections): vscode.Disposable[] {
  let handlers: ReadonlyMap<string, CommandHandler> | undefined;
  const load = (): ReadonlyMap<string, CommandHandler> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    (handlers ??= (require('./workspaceConsentFeature') as typeof Feature).workspaceConsentHandlers(ctx, workspace));
  return registerLazyCommands([REVIEW_COMMAND, FORGET_COMMAND], load, 'workspace connection review');
}

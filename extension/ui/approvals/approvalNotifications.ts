/**
 * Approval requests as notifications that leave the screen once the request is settled anywhere. Each is a
 * `withProgress` notification whose task ends when OpenApprovalNotifications says the request no longer waits (VS
 * Code then closes it; a message notification cannot be closed by an extension), and its choices are command links
 * in its text (approvalNotificationLinks.ts: a progress notification takes no buttons from an extension).
 *
 * It is `cancellable`: that "Cancel" button is the only one an extension can give a progress notification, and it
 * keeps the notification expanded (VS Code shows a notification without buttons as one cut line, which would hide
 * the links and what they decide). Cancel closes the notification and decides nothing, like hiding it (Escape, the
 * notification center); the status bar, the card and the palette keep the request. A click on a link of a request
 * settled meanwhile reaches `decide`, which sends nothing and says what was decided and where.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ApprovalInfo } from '../../model/modelTypes';
import type { ApprovalKey } from '../../model/runKeys';
import { Disposable } from '../disposable';
import type { NotificationChoice, ShownChoice } from './approvalNotificationLinks';
import { NOTIFICATION_LINK_COMMAND, NotificationLinkBook, notificationWithLinks } from './approvalNotificationLinks';
import { notificationStaysOpen, OpenApprovalNotifications } from './openApprovalNotifications';

/** What a link does, carried out by the approval center (it owns deciding, rules, diffs and revealing the run). */
export type NotificationChoiceHandler = (approval: ApprovalInfo, choice: NotificationChoice) => Promise<void>;

export class ApprovalNotifications extends Disposable {
  private readonly open = new OpenApprovalNotifications();
  private readonly links = new NotificationLinkBook(() => randomBytes(16).toString('hex'));
  private seen: ReadonlyMap<string, ApprovalInfo> | undefined;

  constructor(
    private readonly find: (approvalKey: string) => ApprovalInfo | undefined,
    private readonly onChoice: NotificationChoiceHandler,
  ) {
    super();
    this._register(vscode.commands.registerCommand(NOTIFICATION_LINK_COMMAND, (token: unknown) => this.followLink(token)));
    this._register({ dispose: () => this.open.closeAll() });
  }

  /** Shows `message` with a link per choice until the request is settled (or the notification is cancelled). */
  show(approval: ApprovalInfo, message: string, choices: readonly ShownChoice[]): void {
    const title = notificationWithLinks(message, choices, (choice) => this.links.issue(approval.key, choice));
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, cancelled) =>
      new Promise<void>((resolve) => {
        this.open.opened(approval.key, resolve);
        // Cancel closes the notification only: never a decision.
        cancelled.onCancellationRequested(() => this.open.close(approval.key));
        // Settled between the announcement and now (a rule, another window): close at once.
        if (!notificationStaysOpen(this.find(approval.key))) {
          this.open.close(approval.key);
        }
      }),
    );
  }

  /** Closes the notifications of requests that no longer wait; forgets the links of requests gone from the model. */
  update(approvals: ReadonlyMap<string, ApprovalInfo>): void {
    // The model's tables are persistent: the same map means no approval changed (most updates are streamed text).
    if (approvals === this.seen) {
      return;
    }
    this.seen = approvals;
    this.open.closeSettled(approvals);
    this.links.forgetUnless((key) => approvals.has(key));
  }

  /** The requests whose notification is on screen in this window (the integration tests read it). */
  get openKeys(): readonly ApprovalKey[] {
    return this.open.keys;
  }

  private async followLink(token: unknown): Promise<boolean> {
    const target = this.links.resolve(token);
    if (!target) {
      // Not a link this window issued (or its request is gone): nothing to do, and nothing decided.
      void vscode.window.showWarningMessage('That approval request is no longer known.');
      return false;
    }
    const approval = this.find(target.approvalKey);
    if (!approval) {
      void vscode.window.showWarningMessage('That approval request is no longer known.');
      return false;
    }
    await this.onChoice(approval, target.choice);
    return true;
  }
}

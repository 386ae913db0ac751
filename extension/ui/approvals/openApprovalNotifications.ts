/**
 * Which approval notifications are on screen in this window, and closing each once its request no longer waits for
 * a person: decided here (notification, card, palette, editor title, board), in another window, by a rule, or
 * expired by the daemon (the run ended or was cancelled), or gone from the model (the run was removed). A request in
 * flight (`deciding`) or whose decision was not delivered (`failed`: it waits again) keeps its notification. Pure
 * (no `vscode`): `close` is what ends the notification's progress task (approvalNotifications.ts).
 */
import type { ApprovalInfo } from '../../model/modelTypes';
import type { ApprovalKey } from '../../model/runKeys';

/** Whether a notification of this request may stay open. */
export function notificationStaysOpen(approval: Pick<ApprovalInfo, 'status'> | undefined): boolean {
  return approval !== undefined && (approval.status === 'pending' || approval.status === 'deciding' || approval.status === 'failed');
}

export class OpenApprovalNotifications {
  private readonly open = new Map<ApprovalKey, () => void>();

  /** A notification of `approvalKey` was just shown; `close` ends it. */
  opened(approvalKey: ApprovalKey, close: () => void): void {
    this.open.get(approvalKey)?.();
    this.open.set(approvalKey, close);
  }

  /** Closes one (its Cancel button, or settled); false when it was not open. */
  close(approvalKey: ApprovalKey): boolean {
    const close = this.open.get(approvalKey);
    if (!close) {
      return false;
    }
    this.open.delete(approvalKey);
    close();
    return true;
  }

  /** Closes every open notification whose request no longer waits in `approvals`; returns their keys. */
  closeSettled(approvals: ReadonlyMap<string, Pick<ApprovalInfo, 'status'>>): ApprovalKey[] {
    const settled = [...this.open.keys()].filter((key) => !notificationStaysOpen(approvals.get(key)));
    for (const key of settled) {
      this.close(key);
    }
    return settled;
  }

  closeAll(): void {
    for (const key of [...this.open.keys()]) {
      this.close(key);
    }
  }

  isOpen(approvalKey: ApprovalKey): boolean {
    return this.open.has(approvalKey);
  }

  get keys(): readonly ApprovalKey[] {
    return [...this.open.keys()];
  }
}

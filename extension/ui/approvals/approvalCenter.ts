/**
 * Every approval request shows in three places — a notification, the transcript card and a status-bar count
 * (which also badges the view) — and is decided only by a person. Closing a diff, a notification timing out, a
 * disconnect or a reload never decides. `decide` settles exactly once: a second attempt (a stale notification) says
 * truthfully what was decided and where, and sends nothing. All of it projects the model's approval state
 * (model/approvalLifecycle.ts): a request is announced once, and only while its daemon waits for it — a request
 * restored after a reload is announced only once its driver confirms it is still pending.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { decideApprovalOnce } from '../../model/approvalGate';
import { approvalOutcomeText } from '../../model/approvalLifecycle';
import type { ApprovalInfo, ModelState } from '../../model/modelTypes';
import { awaitsDecision } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { decisionLabel } from '../../protocol/transcriptTypes';
import { Disposable } from '../disposable';
import { sanitizeNotificationText } from '../notificationText';
import { approvalNotificationMode } from '../settings';
import type { ApprovalDiffs } from './approvalDiffs';

export class ApprovalCenter extends Disposable {
  private readonly announced = new Set<string>();
  private readonly settled = new Set<string>();
  private readonly statusBar: vscode.StatusBarItem;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<number>());
  /** Fires the number of pending approvals whenever it changes (the tree view badge listens). */
  readonly onDidChangeCount = this.changeEmitter.event;
  private lastCount = -1;

  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly diffs: ApprovalDiffs,
    private readonly log: vscode.LogOutputChannel,
    private readonly revealRun: (runKey: string) => void,
  ) {
    super();
    this.statusBar = this._register(vscode.window.createStatusBarItem('agentSwitchboard.approvals', vscode.StatusBarAlignment.Left, 100));
    this.statusBar.name = 'Agent Switchboard Approvals';
    this.statusBar.command = 'agentSwitchboard.decideApproval';
    this.statusBar.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this._register(store.onDidChange((state) => this.onStateChange(state)));
    this.onStateChange(store.state);
  }

  pending(): ApprovalInfo[] {
    return [...this.store.state.approvals.values()].filter(awaitsDecision).sort((a, b) => a.requestedAt - b.requestedAt);
  }

  /** The requests announced in this window, in order (each at most once; the reload tests read it). */
  get announcedKeys(): readonly string[] {
    return [...this.announced];
  }

  find(approvalKey: string): ApprovalInfo | undefined {
    return this.store.state.approvals.get(approvalKey);
  }

  /** Sends a person's decision once. Returns false (and says so) when it was already decided or is in flight. */
  async decide(approvalKey: string, decision: ApprovalDecision, by: DecisionSurface): Promise<boolean> {
    const result = await decideApprovalOnce(this.store, approvalKey, decision, by, (id) => this.connections.driver(id));
    switch (result.kind) {
      case 'sent':
        this.log.info(`Approval ${result.approval.approvalId} of run ${result.run.runId}: ${decision}`);
        return true;
      case 'unknown':
        void vscode.window.showWarningMessage('That approval request is no longer known.');
        return false;
      case 'busy':
        // The card already shows "sending" for a second click in the transcript; elsewhere, say what is in flight.
        if (by !== 'transcript') {
          void vscode.window.showInformationMessage(approvalOutcomeText(result.approval));
        }
        return false;
      case 'decided':
      case 'unconfirmed':
        void vscode.window.showInformationMessage(approvalOutcomeText(result.approval));
        return false;
      case 'unsupported':
        void vscode.window.showWarningMessage(`This daemon does not offer "${decisionLabel(decision, result.approval.options)}" for this request.`);
        return false;
      case 'disconnected':
        void vscode.window.showErrorMessage('The daemon of this approval is not connected; it stays pending until it is.');
        return false;
      case 'failed': {
        const text = result.error instanceof Error ? result.error.message : String(result.error);
        this.log.error(`Deciding approval ${result.approval.approvalId} failed: ${text}`);
        const now = this.find(approvalKey);
        void vscode.window.showErrorMessage(
          now?.status === 'expired' ? `The decision was not delivered and the run has ended: ${text}.` : `The decision was not delivered: ${text}. The request is still waiting for you.`,
        );
        return false;
      }
      default: {
        const _exhaustive: never = result;
        return _exhaustive;
      }
    }
  }

  private onStateChange(state: ModelState): void {
    const pending = [...state.approvals.values()].filter(awaitsDecision);
    for (const approval of pending) {
      if (approval.status === 'pending' && !this.announced.has(approval.key)) {
        this.announced.add(approval.key);
        void this.announce(approval);
      }
    }
    for (const approval of state.approvals.values()) {
      if ((approval.status === 'decided' || approval.status === 'expired') && !this.settled.has(approval.key)) {
        this.settled.add(approval.key);
        this.diffs.settled(approval.key);
      }
    }
    const count = pending.length;
    if (count !== this.lastCount) {
      this.lastCount = count;
      this.statusBar.text = `$(bell-dot) ${count} approval${count === 1 ? '' : 's'} waiting`;
      this.statusBar.tooltip = 'Agent Switchboard: answer pending approval requests';
      this.statusBar.accessibilityInformation = { label: this.statusBar.text.replace('$(bell-dot) ', '') };
      if (count > 0) {
        this.statusBar.show();
      } else {
        this.statusBar.hide();
      }
      this.changeEmitter.fire(count);
    }
  }

  private async announce(approval: ApprovalInfo): Promise<void> {
    const mode = approvalNotificationMode();
    if (mode === 'statusBarOnly') {
      return;
    }
    const run = this.store.state.runs.get(approval.runKey);
    const what = sanitizeNotificationText(approval.summary ?? approval.title);
    const where = run ? ` in "${sanitizeNotificationText(run.title, 60)}"` : '';
    const message = `Agent approval needed${where}: ${what}`;
    const hasDiff = this.diffs.canShow(approval);
    const detailsLabel = hasDiff ? 'Show diff' : 'Show details';
    const buttons = [...approval.options.map((o) => decisionLabel(o, approval.options)), detailsLabel];
    const choice =
      mode === 'modal'
        ? await vscode.window.showWarningMessage(message, { modal: true, detail: 'Only your answer decides this request.' }, ...buttons)
        : await vscode.window.showWarningMessage(message, ...buttons);
    if (choice === undefined) {
      // Dismissed or timed out: never a decision. The status bar and the card keep it visible.
      return;
    }
    if (choice === detailsLabel) {
      if (hasDiff) {
        await this.diffs.show(approval);
      } else {
        this.revealRun(approval.runKey);
      }
      return;
    }
    const decision = approval.options.find((o) => decisionLabel(o, approval.options) === choice);
    if (decision) {
      // The click may come long after the request was settled elsewhere: the gate then sends nothing and says so.
      await this.decide(approval.key, decision, 'notification');
    }
  }
}

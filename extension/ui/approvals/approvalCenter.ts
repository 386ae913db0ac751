/**
 * Every approval request shows in three places — a notification (closed once the request is settled anywhere:
 * approvalNotifications.ts), the transcript card and a status-bar count (which also badges the view) — and is decided by a person or by an approval rule the person saved (checked
 * before anything is announced; ApprovalRules). Closing a diff, a notification timing out, a
 * disconnect or a reload never decides. `decide` settles exactly once: a second attempt (a stale notification) says
 * truthfully what was decided and where, and sends nothing. All of it projects the model's approval state
 * (model/approvalLifecycle.ts): a request is announced once, and only while its daemon waits for it — a request
 * restored after a reload is announced only once its driver confirms it is still pending.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { decideApprovalOnce } from '../../model/approvalGate';
import type { ApprovalGateResult } from '../../model/approvalGate';
import { approvalOutcomeText } from '../../model/approvalLifecycle';
import type { ApprovalInfo, ModelState } from '../../model/modelTypes';
import type { RunKey } from '../../model/runKeys';
import { isProtectedSubject } from '../../model/pathRules';
import { awaitsDecision } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { decisionLabel, isAllowing, shownDecisions } from '../../protocol/transcriptTypes';
import { Disposable } from '../disposable';
import { approvalNotificationMode } from '../settings';
import type { ApprovalAttention } from './approvalAttention';
import type { ApprovalDiffs } from './approvalDiffs';
import type { NotificationChoice, ShownChoice } from './approvalNotificationLinks';
import { approvalNotificationText } from './approvalNotificationText';
import { ApprovalNotifications } from './approvalNotifications';
import { ApprovalRuleFlow } from './approvalRuleFlow';
import type { ConfirmRule } from './approvalRuleFlow';
import type { ApprovalRules } from './approvalRules';
import { workspaceRulesAllowed } from './approvalRules';
import { decisionForRule, ruleChoices } from './ruleDecision';

const RULE_BUTTON = 'Allow similar…';

export class ApprovalCenter extends Disposable {
  private readonly announced = new Set<string>();
  private readonly settled = new Set<string>();
  private readonly statusBar: vscode.StatusBarItem;
  private lastStatus = '';
  /** Saving a rule from a request (card, notification, palette). */
  readonly ruleFlow: ApprovalRuleFlow;
  /** The notifications of requests on screen in this window (closed once settled anywhere). */
  readonly notifications: ApprovalNotifications;

  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly diffs: ApprovalDiffs,
    private readonly log: vscode.LogOutputChannel,
    private readonly revealRun: (runKey: RunKey) => void,
    readonly rules: ApprovalRules,
    readonly attention: ApprovalAttention,
    confirmRule: ConfirmRule,
  ) {
    super();
    this.ruleFlow = new ApprovalRuleFlow(store, rules, (key, decision, by, rule) => this.decide(key, decision, by, rule), confirmRule);
    this.notifications = this._register(new ApprovalNotifications((key) => this.find(key), (approval, choice) => this.onNotificationChoice(approval, choice)));
    this.statusBar = this._register(vscode.window.createStatusBarItem('agentSwitchboard.approvals', vscode.StatusBarAlignment.Left, 100));
    this.statusBar.name = 'Agent Switchboard Approvals';
    this.statusBar.command = 'agentSwitchboard.decideApproval';
    this._register(store.onDidChange((state) => this.onStateChange(state)));
    this._register(attention.onDidChange(() => this.onStateChange(this.store.state)));
    // A rule saved now answers the requests like it that already wait (in its scope).
    this._register(rules.onDidChange(() => this.answerWaitingByRules()));
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

  /**
   * Sends a person's decision once. Returns false (and says so) when it was already decided or is in flight, or when
   * it is the agent's own "allow similar" for a request naming a protected path (each of those is allowed once).
   */
  async decide(approvalKey: string, decision: ApprovalDecision, by: DecisionSurface, rule?: string): Promise<boolean> {
    if (decision === 'allow_similar' && isProtectedSubject(this.store.state.approvals.get(approvalKey)?.subject)) {
      void vscode.window.showWarningMessage('This request names a protected path (.vscode, .git or a workspace file): allow it once, or deny it.');
      return false;
    }
    const result = await this.gate(approvalKey, decision, by, rule);
    switch (result.kind) {
      case 'sent':
        this.log.info(`Approval ${result.approval.approvalId} of run ${result.run.runId}: ${decision}${rule ? ` (rule: ${rule})` : ''}`);
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
        void vscode.window.showWarningMessage(`This daemon does not offer "${decisionLabel(decision, result.approval.options, result.approval.lasts)}" for this request.`);
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

  private gate(approvalKey: string, decision: ApprovalDecision, by: DecisionSurface, rule: string | undefined): Promise<ApprovalGateResult> {
    return decideApprovalOnce(this.store, approvalKey, decision, by, (id) => this.connections.driver(id), rule);
  }

  private onStateChange(state: ModelState): void {
    const pending = [...state.approvals.values()].filter(awaitsDecision);
    for (const approval of pending) {
      if (approval.status === 'pending' && !this.announced.has(approval.key)) {
        this.announced.add(approval.key);
        void this.arrive(approval);
      }
    }
    for (const approval of state.approvals.values()) {
      if ((approval.status === 'decided' || approval.status === 'expired') && !this.settled.has(approval.key)) {
        this.settled.add(approval.key);
        this.diffs.settled(approval.key);
        this.attention.settled(approval.key);
      }
    }
    this.notifications.update(state.approvals);
    const count = pending.length;
    const away = this.attention.anyAway(pending.map((a) => a.key));
    if (`${count}:${away}` !== this.lastStatus) {
      this.lastStatus = `${count}:${away}`;
      this.statusBar.text = `$(bell-dot) ${count} approval${count === 1 ? '' : 's'} waiting`;
      this.statusBar.tooltip = away ? 'Agent Switchboard: approval requests arrived while this window was in the background' : 'Agent Switchboard: answer pending approval requests';
      // The warning background means "this needed you while you were away", until those requests are answered.
      this.statusBar.backgroundColor = away ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      this.statusBar.accessibilityInformation = { label: this.statusBar.text.replace('$(bell-dot) ', '') };
      if (count > 0) {
        this.statusBar.show();
      } else {
        this.statusBar.hide();
      }
    }
  }

  /** Whether the status bar item shows the warning background (the integration tests read it). */
  get statusBarWarning(): boolean {
    return this.statusBar.backgroundColor !== undefined;
  }

  /** A request that just arrived: a matching rule answers it; otherwise it is announced to a person. */
  private async arrive(approval: ApprovalInfo): Promise<void> {
    if (await this.answerByRule(approval)) {
      return;
    }
    await this.announce(approval);
  }

  private async answerByRule(approval: ApprovalInfo): Promise<boolean> {
    const rule = this.rules.match(approval);
    if (!rule) {
      return false;
    }
    const decision = decisionForRule(approval, rule.effect, false);
    if (!decision) {
      return false;
    }
    const result = await this.gate(approval.key, decision, 'rule', rule.label);
    if (result.kind === 'sent') {
      this.log.info(`Approval ${approval.approvalId} of run ${result.run.runId}: ${decision} by the rule "${rule.label}"`);
      return true;
    }
    if (result.kind === 'decided' || result.kind === 'busy') {
      return true;
    }
    this.log.warn(`The rule "${rule.label}" could not answer approval ${approval.approvalId} (${result.kind}); asking instead`);
    return false;
  }

  private answerWaitingByRules(): void {
    for (const approval of this.pending()) {
      if (approval.status === 'pending' && this.announced.has(approval.key)) {
        void this.answerByRule(approval);
      }
    }
  }

  private async announce(approval: ApprovalInfo): Promise<void> {
    const run = this.store.state.runs.get(approval.runKey);
    const connection = run ? this.store.state.connections.get(run.connectionId) : undefined;
    const message = approvalNotificationText(approval, run?.title, connection?.name);
    this.attention.arrived(approval.key, message);
    const mode = approvalNotificationMode();
    if (mode === 'statusBarOnly') {
      return;
    }
    const hasDiff = this.diffs.canShow(approval);
    const detailsLabel = hasDiff ? 'Show diff' : 'Show details';
    // With rules on offer, the daemon's own "similar" choices give way to the rule button (uncluttered; the palette
    // and the card's "More…" still list them).
    const withRules = ruleChoices(approval, workspaceRulesAllowed()).length > 0;
    // A protected path is decided once, by a person: not by the agent's own "always allow" either.
    const guarded = isProtectedSubject(approval.subject);
    const shown = shownDecisions(approval.options, approval.subject, withRules, guarded);
    const choices: ShownChoice[] = [
      ...shown.map((decision): ShownChoice => ({ label: decisionLabel(decision, approval.options, approval.lasts), choice: { kind: 'decide', decision } })),
      ...(withRules && approval.options.some(isAllowing) ? [{ label: RULE_BUTTON, choice: { kind: 'rule' } } satisfies ShownChoice] : []),
      { label: detailsLabel, choice: { kind: 'details' } },
    ];
    if (mode === 'modal') {
      // A modal cannot be closed by an extension either, but it holds the window until it is answered; an answer to a
      // request settled meanwhile (another window, the daemon) is told what was decided, and sends nothing.
      const buttons = choices.map((c) => c.label);
      const picked = await vscode.window.showWarningMessage(message, { modal: true, detail: 'Only your answer decides this request.' }, ...buttons);
      const choice = choices.find((c) => c.label === picked)?.choice;
      if (choice !== undefined) {
        await this.onNotificationChoice(approval, choice);
      }
      return;
    }
    // Closed by the model once the request no longer waits (approvalNotifications.ts); dismissing it never decides.
    this.notifications.show(approval, message, choices);
  }

  /** A choice made in an approval notification (a link, or a modal's button). */
  private async onNotificationChoice(approval: ApprovalInfo, choice: NotificationChoice): Promise<void> {
    switch (choice.kind) {
      case 'rule':
        await this.ruleFlow.pick(approval, 'notification');
        return;
      case 'details':
        if (this.diffs.canShow(approval)) {
          await this.diffs.show(approval);
        } else {
          this.revealRun(approval.runKey);
        }
        return;
      case 'decide':
        // The click may come long after the request was settled elsewhere: the gate then sends nothing and says so.
        await this.decide(approval.key, choice.decision, 'notification');
        return;
      default: {
        const _exhaustive: never = choice;
        return _exhaustive;
      }
    }
  }
}

/**
 * Prompt turns of ACP sessions, and what the agent sends during them. A turn is one `session/prompt`; its updates
 * are mapped (acpEventMapping.ts) and folded into the run through the kit's door, so they are journaled as they come;
 * the response's stop reason ends the turn visibly. A message sent while a turn runs waits in the session's
 * queue (editable) and goes out when the turn ends — the agent takes one prompt at a time. Stop is `session/cancel`,
 * and every permission request of the session still waiting is answered `cancelled`, as the spec requires.
 */
import type { ContentBlock, PromptCapabilities, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { SessionNotification } from '@agentclientprotocol/sdk/unstable';
import type { WorkspaceAccess } from '../kit/workspaceAccess';
import { promptBlocks } from './acpPromptBlocks';
import type { RunEvent } from '../../model/modelActions';
import type { QueueEntry } from '../../model/modelTypes';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import type { DriverLog } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import { errorText, failureOf } from '../kit/errors';
import { runInput } from '../kit/journalRecords';
import type { AcpConnection } from './acpConnection';
import { mapAcpUpdate, stopReasonText } from './acpEventMapping';
import type { AcpSideEffects } from './acpEventMapping';
import { AcpEarlyUpdates } from './acpEarlyUpdates';
import { AcpElicitations } from './acpElicitations';
import { AcpPermissions, withKnownTool } from './acpPermissions';
import type { AcpSession, AcpSessions } from './acpSessions';
import { planPanel } from './acpPlanPanel';
import { sessionMessageEvent } from './acpSessionMessages';
import { AcpSubagents } from './acpSubagents';

export interface AcpTurnDeps {
  readonly runs: DriverRuns;
  readonly sessions: AcpSessions;
  readonly log: DriverLog;
  /** What the agent accepts in a prompt (`initialize`'s promptCapabilities). */
  promptCapabilities(): PromptCapabilities | undefined;
  /** The editor's files, for `@file` mentions (absent: links only). */
  readonly workspace: WorkspaceAccess | undefined;
  /** The live agent connection, if the agent runs. */
  connection(): AcpConnection | undefined;
  /** After a turn ended: recompute the session's local change set. */
  turnEnded(session: AcpSession): void;
  /** The session's queue, for the model (not journaled: a queue does not outlive the agent process). */
  publishQueue(runId: string, queue: readonly QueueEntry[], paused: boolean): void;
  /** Session state the driver shows outside the transcript (commands, mode, title). */
  sideEffects(session: AcpSession, effects: AcpSideEffects): void;
  readonly connectionId: string;
  /** The agent's name (a subagent run's provider). */
  provider(): string;
  /** Keeps a session's index entry (a new subagent's). */
  save(session: AcpSession): Promise<void>;
  /** The time an edit report is stamped with (tests drive it; default the system clock). */
  readonly now?: () => number;
}

export class AcpTurns {
  readonly permissions = new AcpPermissions();
  readonly subagents: AcpSubagents;
  readonly elicitations: AcpElicitations;
  private turnCount = 0;
  /** Updates of sessions the driver does not know yet (an agent's slash commands before `session/new` answers). */
  private readonly early = new AcpEarlyUpdates<SessionNotification>();

  constructor(private readonly deps: AcpTurnDeps) {
    this.subagents = new AcpSubagents(deps);
    const record = (runId: string, event: RunEvent): void => void deps.runs.event(runId, event);
    this.elicitations = new AcpElicitations({ connectionId: deps.connectionId, knows: (id) => deps.sessions.get(id) !== undefined, record });
  }

  /** A `session/update`: mapped and folded (dropped while `session/load` replays what the journal has). */
  onUpdate(notification: SessionNotification): void {
    const session = this.deps.sessions.get(notification.sessionId);
    if (!session) {
      this.early.keep(notification);
      return;
    }
    if (session.loading) {
      return;
    }
    const { events, effects } = mapAcpUpdate(session.mapping, notification.update);
    for (const event of events) {
      void this.record(session, event);
    }
    if (effects.plan) {
      void this.deps.runs.panels(session.sessionId, [planPanel(effects.plan)]);
    }
    if (effects.subagent) {
      this.subagents.apply(session, effects.subagent);
    }
    if (effects.message) {
      void this.record(session, sessionMessageEvent(session.sessionId, effects.message, (id) => this.deps.runs.get(id)));
    }
    if (effects.edited) {
      // On the run (no row): the board's "files changed since you looked" and a shared tree's attribution.
      void this.record(session, { kind: 'filesEdited', paths: effects.edited, at: (this.deps.now ?? Date.now)() });
    }
    this.deps.sideEffects(session, effects);
  }

  /** The updates that came for `session` before it was known, folded now. */
  takeEarlyUpdates(session: AcpSession): void {
    for (const notification of this.early.take(session.sessionId)) {
      this.onUpdate(notification);
    }
  }

  /**
   * A permission request becomes an approval; the agent's call waits until it is decided or cancelled — or the agent
   * withdraws it (`$/cancel_request`, `withdrawn`): then the card goes as expired and the answer is `cancelled`.
   */
  onPermission(request: RequestPermissionRequest, withdrawn?: AbortSignal): Promise<RequestPermissionResponse> {
    const session = this.deps.sessions.get(request.sessionId);
    if (!session || withdrawn?.aborted) {
      return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    }
    const opened = this.permissions.open(withKnownTool(request, session.mapping.tools.get(request.toolCall.toolCallId)), (path) => this.currentText(path, session.cwd));
    const folded = opened.event.then(async (event) => {
      // Cancelled while its files were read: the request is answered already, and no card may wait for it.
      if (!this.permissions.isWaiting(opened.approvalId)) {
        return;
      }
      // The run waits for a person now (the tree, the board and the status say so), until the request is answered:
      // the card and the state go into the model in one step.
      await this.deps.runs
        .record(session.sessionId, [runInput.event(event), runInput.fields({ state: 'waiting_approval' })])
        .catch((error: unknown) => this.deps.log.error(`Could not store session ${session.sessionId}: ${errorText(error)}`));
    }, (error: unknown) => this.deps.log.error(`Session ${session.sessionId}: the permission request could not be shown: ${errorText(error)}`));
    withdrawn?.addEventListener('abort', () => void this.withdraw(session, opened.approvalId, folded), { once: true });
    return opened.response;
  }

  /** The agent no longer waits for this request: answered `cancelled`, and its card (once shown) expires. */
  private async withdraw(session: AcpSession, approvalId: string, folded: Promise<void>): Promise<void> {
    if (!this.permissions.withdraw(approvalId)) {
      return;
    }
    // The card is folded once its proposal was read: expire it after that (a card never shown is never folded).
    await folded;
    await this.deps.runs.expireApprovals(session.sessionId, 'The agent withdrew this request.', (id) => id === approvalId);
    if (session.turn && !this.permissions.hasWaiting(session.sessionId)) {
      await this.setState(session, 'running');
    }
  }

  /** A file as the editor has it (unsaved edits included), or null when it does not exist or cannot be read. */
  private currentText(path: string, runFolder: string): Promise<string | null> {
    const workspace = this.deps.workspace;
    return workspace ? workspace.readText(path, undefined, undefined, runFolder).catch(() => null) : Promise.resolve(null);
  }

  decide(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface, rule?: string): Promise<void> {
    this.permissions.decide(approvalId, decision);
    const settled = this.deps.runs.event(runId, { kind: 'approvalSettled', approvalId, decision, by, ...(rule !== undefined ? { rule } : {}) });
    const session = this.deps.sessions.get(runId);
    if (session?.turn && !this.permissions.hasWaiting(runId)) {
      void this.setState(session, 'running');
    }
    return settled;
  }

  /**
   * Sends `text` now, or queues it behind the running turn. Resolves once the prompt is folded and on its way, not
   * when the turn ends (that may wait for a decision the caller is about to make).
   */
  async send(session: AcpSession, text: string): Promise<void> {
    if (this.subagents.parentOf(session.sessionId) !== undefined) {
      throw new Error('A subagent takes its instructions from its parent session: send your message there.');
    }
    if (session.turn) {
      this.deps.sessions.enqueue(session, text);
      this.publishQueue(session);
      return;
    }
    this.start(session, text);
  }

  /** Starts a turn in the background (its end is folded when it comes); fails now if the agent is not running. */
  start(session: AcpSession, text: string): void {
    if (!this.deps.connection()) {
      throw new Error('The agent is not running. Connect it first.');
    }
    void this.prompt(session, text).catch((error: unknown) => this.deps.log.error(`Session ${session.sessionId}: ${errorText(error)}`));
  }

  /** One turn: the prompt is folded first (it is the user's), then sent; resolves when the turn has ended. */
  async prompt(session: AcpSession, text: string): Promise<void> {
    const connection = this.deps.connection();
    if (!connection) {
      throw new Error('The agent is not running. Connect it first.');
    }
    const turnId = `turn-${++this.turnCount}`;
    session.turn = true;
    await this.record(session, { kind: 'userPrompt', text });
    await this.record(session, { kind: 'turn', turnId, phase: 'started' });
    // A detail from before (e.g. "Restored…") no longer applies once a turn runs.
    await this.deps.runs.fields(session.sessionId, { state: 'running', stateDetail: '' });
    // `@file` mentions go along as context (embedded or linked, as the agent's prompt capabilities allow).
    const blocks: ContentBlock[] = await promptBlocks(text, session.cwd, this.deps.promptCapabilities(), this.deps.workspace);
    let ended: RunEvent;
    /** The agent went away during the turn (not an error it answered): the session cannot go on. */
    let agentGone = false;
    try {
      const response = await connection.prompt(session.sessionId, blocks);
      const reason = response.stopReason;
      // The usual end needs no words; any other stop reason is said on the line that ends the turn.
      ended = { kind: 'turn', turnId, phase: reason === 'cancelled' ? 'cancelled' : 'completed', ...(reason !== 'end_turn' ? { code: reason, summary: stopReasonText(reason) } : {}) };
    } catch (error) {
      agentGone = failureOf(error) === 'outcome_unknown';
      ended = { kind: 'turn', turnId, phase: 'failed', message: errorText(error), summary: agentGone ? 'The agent stopped during the turn' : 'Turn failed' };
    }
    session.turn = false;
    this.elicitations.cancelAll(session.sessionId, 'The turn ended first: the agent no longer waits for an answer.');
    await this.record(session, { kind: 'messageBoundary' });
    const unanswered = new Set(this.permissions.cancelSession(session.sessionId));
    await this.deps.runs.expireApprovals(session.sessionId, 'The turn ended first.', (id) => unanswered.has(id));
    // The turn's end and the state it leaves go into the model in one step: nobody sees one without the other.
    // An ACP session waits for the next message after every turn; it never ends by itself. The idle state's own
    // label says so ("Waiting for your message"): no detail to repeat it. After an agent that went away, its queue
    // waits for a restart and a session/load; the connection's failure says why.
    const after = agentGone ? { state: 'interrupted' as const, stateDetail: 'The agent stopped during the turn' } : { state: 'idle' as const, stateDetail: '' };
    await this.deps.runs
      .record(session.sessionId, [runInput.event(ended), runInput.fields(after)])
      .catch((error: unknown) => this.deps.log.error(`Could not store session ${session.sessionId}: ${errorText(error)}`));
    if (agentGone) {
      return;
    }
    this.deps.turnEnded(session);
    await this.next(session);
  }

  /** `session/cancel`; the queued prompts stay (the user may still want them). */
  async cancel(session: AcpSession): Promise<void> {
    if (this.subagents.parentOf(session.sessionId) !== undefined && session.canCancel !== true) {
      throw new Error('The agent does not let the editor stop this subagent: stop its parent session instead.');
    }
    const connection = this.deps.connection();
    const cancelled = new Set(this.permissions.cancelSession(session.sessionId));
    await this.deps.runs.expireApprovals(session.sessionId, 'The turn was cancelled.', (id) => cancelled.has(id));
    // Like its permission requests, the turn's questions are answered `cancel` (the agent waits on them).
    this.elicitations.cancelAll(session.sessionId, 'The turn was cancelled: the question was withdrawn.');
    await connection?.cancel(session.sessionId);
  }

  /** The agent went away: its waiting requests are answered and expire, its turns end as interrupted. */
  async agentGone(reason: string): Promise<void> {
    const waiting = new Set(this.permissions.cancelAll());
    this.elicitations.cancelAll(undefined, `The agent stopped: ${reason}`);
    for (const session of this.deps.sessions.all()) {
      await this.deps.runs.expireApprovals(session.sessionId, reason, (id) => waiting.has(id));
      const run = this.deps.runs.get(session.sessionId);
      // A subagent works without a turn of ours: it ends with its agent too.
      if (session.turn || (run?.parentRunId !== undefined && (run.state === 'running' || run.state === 'waiting_approval'))) {
        await this.record(session, { kind: 'notice', text: `The turn was interrupted: ${reason}`, level: 'error' });
        await this.deps.runs.fields(session.sessionId, { state: 'interrupted', stateDetail: reason });
      }
    }
    this.deps.sessions.agentGone();
  }

  publishQueue(session: AcpSession): void {
    this.deps.publishQueue(session.sessionId, session.queue, session.paused);
  }

  /** Pauses or resumes the queue: paused, a finished turn leaves the next prompt waiting; resumed, it goes now. */
  async pause(session: AcpSession, paused: boolean): Promise<void> {
    session.paused = paused;
    this.publishQueue(session);
    if (!paused && !session.turn) {
      await this.next(session);
    }
  }

  private async next(session: AcpSession): Promise<void> {
    if (session.paused) {
      return;
    }
    const entry = this.deps.sessions.dequeue(session);
    this.publishQueue(session);
    if (entry) {
      this.start(session, entry.prompt);
    }
  }

  private setState(session: AcpSession, state: 'running' | 'waiting_approval'): Promise<void> {
    return this.deps.runs.fields(session.sessionId, { state });
  }

  private record(session: AcpSession, event: RunEvent): Promise<void> {
    return this.deps.runs.event(session.sessionId, event);
  }
}

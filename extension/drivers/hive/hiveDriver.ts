/**
 * The hyperhive driver: the operator's view of a hive. Each agent (and the manager) is a run whose transcript is its
 * inbox and whose side panels are its loose ends, reminders and identity. mcp.sock has no push channel and no
 * session (WIRE.md 4.2, 6.4), so the driver discovers the sockets, polls the cheap `status` of every agent with a
 * backoff while nothing changes, and re-reads an agent (`recent`, loose ends, meta) when its status changed, on a
 * user action, or on a slow sweep (`hiveAgentSync.ts`). It talks to the agent only with `operator_msg`; the guarded
 * client refuses the harness verbs (`recv`, `ack_*`, …) that would steal or settle the agent's messages.
 * Reconnecting and cleanup are the base driver's.
 */
import type { Lenient, SchedulePromptPayload, WireSchedule } from '../../protocol/hive';
import type { ActionAnswers, ActionInput, ActionResult, ActionTarget } from '../kit/daemonActions';
import { hiveFacts, nextHiveActionInput, performHiveAction } from './hiveActionFlows';
import type { DriverContext } from '../connectionManager';
import type { Driver } from '../driver';
import { DriverError } from '../driver';
import { BaseDriver } from '../kit/baseDriver';
import type { Timeouts } from '../kit/clock';
import type { ConnectionScope } from '../kit/connectionScope';
import { HiveClient } from './client';
import type { AgentBook } from './hiveAgentBook';
import { HiveAgentSync } from './hiveAgentSync';
import type { HiveSocketRole, HostJournalQuery, ScheduleEdit } from './hiveClientOptions';
import { HiveManagerCalls } from './hiveManagerCalls';
import { hiveUserError, sendOperatorMessage } from './hiveOperatorMessage';
import { ACTION_CANCEL, ACTION_MARK_DONE, LOOSE_ENDS_PANEL, parseLooseEndEntryId } from './hivePanels';
import type { HiveAgentSummary } from './hiveRoster';
import { HiveRoster } from './hiveRoster';
import { HiveStoreMirror } from './hiveStoreMirror';
import { DEFAULT_HIVE_DIR } from './socketLayout';

export interface HiveDriverOptions {
  readonly timers?: Timeouts;
  readonly pollMinMs?: number;
  readonly pollMaxMs?: number;
  /** Re-read every agent at least this often even when its status did not change (default 2 min). */
  readonly sweepMs?: number;
  readonly clock?: () => number;
  /** Per-request timeout of the observer reads (default: the client's 10 s). */
  readonly requestTimeoutMs?: number;
  readonly reconnectBaseMs?: number;
}

export type { HiveAgentSummary };

export class HiveDriver extends BaseDriver implements Driver {
  readonly protocol = 'hive' as const;
  /**
   * hyperhive is an operator's view of agents that run on other machines (or in their own containers): no folder
   * of this machine is known to be theirs, so nothing here can snapshot or rewind their files (issue #26).
   */
  readonly noCheckpointsReason =
    'hyperhive agents run elsewhere (their own machines or containers): no folder of this machine is known to be theirs, so their files have no checkpoints here. Rewind them where they run.';
  /** The hive keeps every agent's inbox itself: a reload reads it again. */
  protected readonly journaling = 'not journaled' as const;
  private readonly roster: HiveRoster;
  private readonly mirror: HiveStoreMirror;
  private readonly agentSync: HiveAgentSync;
  private readonly manager: HiveManagerCalls;
  private readonly warned = new Set<string>();

  constructor(
    ctx: DriverContext,
    private readonly options: HiveDriverOptions = {},
  ) {
    const clock = options.clock ?? Date.now;
    super(ctx, { reconnect: { ...(options.reconnectBaseMs !== undefined ? { baseMs: options.reconnectBaseMs } : {}), clock } });
    this.roster = new HiveRoster(
      (socketPath, role) => this.newClient(socketPath, role),
      (key, message) => this.warnOnce(key, message),
    );
    this.mirror = new HiveStoreMirror(this.runs, this.roster, this.target, clock());
    const newClient = (socketPath: string, role: HiveSocketRole): HiveClient => this.newClient(socketPath, role);
    const sync = { ...options, sweepMs: options.sweepMs ?? 120_000, clock };
    this.agentSync = new HiveAgentSync(ctx, this.target, this.roster, this.mirror, newClient, (key, message) => this.warnOnce(key, message), sync, this.runs);
    this.manager = new HiveManagerCalls(this.roster, this.mirror, this.agentSync, () => this.target);
  }

  /** The directory (or single socket) this profile watches. */
  get target(): string {
    return this.ctx.profile.socketPath ?? this.ctx.profile.hiveDir ?? DEFAULT_HIVE_DIR;
  }

  /** The delay of the next status poll (tests and the tree's tooltip). */
  get pollDelayMs(): number {
    return this.agentSync.poller.currentDelayMs;
  }

  get hasManager(): boolean {
    return this.roster.managerName !== undefined;
  }

  /** The agents (manager first), for pickers. */
  agents(): HiveAgentSummary[] {
    return this.roster.summaries();
  }

  performAction(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
    return performHiveAction(this, command, target, answers);
  }

  nextActionInput(command: string, _target: ActionTarget, answers: ActionAnswers): Promise<ActionInput | undefined> {
    return nextHiveActionInput(this, command, answers);
  }

  actionFacts(runId?: string): readonly string[] {
    return hiveFacts(this, runId);
  }

  isManagerRun(runId: string): boolean {
    return runId === this.roster.managerName;
  }

  // ---- operator actions on an agent's own socket ----------------------------------------------------------------

  /** `operator_msg` to the agent. Never retried (it creates a row each time); an unknown outcome is checked in the inbox. */
  async sendMessage(runId: string, text: string): Promise<void> {
    const book = this.requireBook(runId);
    const client = this.requireOwnClient(book);
    this.agentSync.poller.reset();
    await sendOperatorMessage(client, book, runId, text, () => this.agentSync.sync(book), this.ctx.log);
    await this.agentSync.sync(book);
  }

  async panelAction(runId: string, panelId: string, entryId: string, actionId: string): Promise<void> {
    const book = this.requireBook(runId);
    const client = this.requireOwnClient(book);
    const run = this.runs.get(runId);
    const entry = run?.panels?.find((p) => p.id === panelId)?.entries.find((e) => e.id === entryId);
    const parsed = parseLooseEndEntryId(entryId);
    if (panelId !== LOOSE_ENDS_PANEL || !entry?.actions.some((a) => a.id === actionId) || !parsed) {
      throw new DriverError('That item changed or is gone meanwhile; the panel is refreshed.');
    }
    this.agentSync.poller.reset();
    try {
      if (actionId === ACTION_MARK_DONE) {
        await client.markTodoDone(parsed.id);
      } else if (actionId === ACTION_CANCEL) {
        await client.cancelLooseEnd(parsed.kind, parsed.id);
      } else {
        throw new DriverError(`Unknown action ${actionId}.`);
      }
    } catch (error) {
      throw hiveUserError(error);
    } finally {
      await this.agentSync.sync(book).catch(() => false);
    }
  }

  /** Re-reads everything: sockets, the manager's container list, every agent. */
  refresh(): Promise<void> {
    return this.agentSync.refreshAll();
  }

  /** Polls only while someone can see the hive's runs (hiveAgentSync.ts `setWatched`). */
  readonly setWatched = (watched: boolean): void => this.agentSync.setWatched(watched);

  // ---- manager (privileged, on the manager socket: hiveManagerCalls.ts) ------------------------------------------

  startAgent(name: string): Promise<void> {
    return this.manager.lifecycle('start', name);
  }

  /** `kill`: a graceful stop of the agent's container. */
  stopAgent(name: string): Promise<void> {
    return this.manager.lifecycle('kill', name);
  }

  restartAgent(name: string): Promise<void> {
    return this.manager.lifecycle('restart', name);
  }

  /** Rebuild the agent against the current hyperhive flake (may take minutes). */
  updateAgent(name: string): Promise<void> {
    return this.manager.lifecycle('update', name);
  }

  agentLogs(name: string, lines?: number): Promise<string> {
    return this.manager.call((m) => m.getLogs(name, lines));
  }

  /** The host journal, over the manager socket or (no manager) the given agent's own socket. */
  hostJournal(query: HostJournalQuery = {}, viaRunId?: string): Promise<string> {
    const via = viaRunId !== undefined ? this.roster.get(viaRunId)?.client : undefined;
    const client = this.roster.managerClient ?? via ?? this.roster.all().find((b) => b.client)?.client;
    if (!client) {
      return Promise.reject(new DriverError('No hive socket is reachable for the host journal.'));
    }
    return client.getHostJournal(query).catch((error: unknown) => {
      throw hiveUserError(error);
    });
  }

  listSchedules(): Promise<Lenient<WireSchedule>[]> {
    return this.manager.call((m) => m.listSchedules());
  }

  async fireScheduleNow(id: number): Promise<void> {
    await this.manager.call((m) => m.fireScheduleNow(id));
    this.markAllDirty();
  }

  async editSchedule(id: number, edit: ScheduleEdit): Promise<void> {
    await this.manager.call((m) => m.editSchedule(id, edit));
  }

  async cancelSchedule(id: number, targets?: readonly string[]): Promise<void> {
    await this.manager.call((m) => m.cancelSchedule(id, targets));
  }

  /** Queues an approval; it is decided on the host admin side (dashboard / host.sock), not here. */
  async requestInitConfig(name: string, description?: string): Promise<void> {
    await this.manager.call((m) => m.requestInitConfig(name, description));
    this.markAllDirty();
  }

  async requestUpdateMetaInputs(inputs: readonly string[], description?: string): Promise<void> {
    await this.manager.call((m) => m.requestUpdateMetaInputs(inputs, description));
    this.markAllDirty();
  }

  async requestSchedulePrompt(payload: SchedulePromptPayload): Promise<void> {
    await this.manager.call((m) => m.requestSchedulePrompt(payload));
    this.markAllDirty();
  }

  // ---- connection (hiveAgentSync.ts; the base driver reconnects) ------------------------------------------------

  protected override connectOnce(connection: ConnectionScope): Promise<void> {
    return this.agentSync.connect(connection);
  }

  protected override afterDisconnect(): Promise<void> {
    this.agentSync.stop();
    return Promise.resolve();
  }

  // ---- helpers ---------------------------------------------------------------------------------------------------

  private markAllDirty(): void {
    this.roster.markAllDirty();
    this.agentSync.poller.reset();
  }

  private requireBook(runId: string): AgentBook {
    const book = this.roster.get(runId);
    if (!book) {
      throw new DriverError(`${runId} is not an agent of this hive.`);
    }
    return book;
  }

  private requireOwnClient(book: AgentBook): HiveClient {
    if (!book.client || !this.agentSync.isConnected) {
      throw new DriverError(book.client ? 'The hive is not connected.' : `${book.name} has no socket under ${this.target}: it cannot be reached from here.`);
    }
    return book.client;
  }

  private newClient(socketPath: string, role: HiveSocketRole): HiveClient {
    return new HiveClient({
      socketPath,
      role,
      frameTap: this.ctx.tap,
      ...(this.options.requestTimeoutMs !== undefined ? { timeoutMs: this.options.requestTimeoutMs } : {}),
    });
  }

  private warnOnce(key: string, message: string): void {
    if (!this.warned.has(key)) {
      this.warned.add(key);
      this.ctx.log.warn(message);
    }
  }
}

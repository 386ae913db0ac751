/**
 * The hyperhive driver: the operator's view of a hive. Each agent (and the manager) is a run whose transcript is its
 * inbox and whose side panels are its loose ends, reminders and identity. mcp.sock has no push channel and no
 * session (WIRE.md 4.2, 6.4), so the driver discovers the sockets, polls the cheap `status` of every agent with a
 * backoff while nothing changes, and re-reads an agent (`recent`, loose ends, meta) when its status changed, on a
 * user action, or on a slow sweep. It talks to the agent only with `operator_msg`; the guarded client refuses the
 * harness verbs (`recv`, `ack_*`, …) that would steal or settle the agent's messages.
 */
import { runKeyOf } from '../../model/modelTypes';
import type { Lenient, SchedulePromptPayload, WireSchedule } from '../../protocol/hive';
import type { DriverContext } from '../connectionManager';
import type { Driver } from '../driver';
import { DriverError } from '../driver';
import { ReconnectLoop } from '../kit/reconnectLoop';
import { HiveClient } from './client';
import type { AgentBook } from './hiveAgentBook';
import { errorText, toDriverError } from '../kit/errors';
import { readAgent } from './hiveAgentBook';
import type { HiveSocketRole, HostJournalQuery, ScheduleEdit } from './hiveClientOptions';
import { FATAL, layoutFailure, probeFailure } from './hiveConnectFailure';
import { HiveConnectionError, HiveError } from './hiveErrors';
import { ACTION_CANCEL, ACTION_MARK_DONE, LOOSE_ENDS_PANEL, parseLooseEndEntryId } from './hivePanels';
import type { Timeouts } from '../kit/clock';
import { createHivePoller } from './hivePoller';
import type { Poller } from '../kit/poller';
import type { HiveAgentSummary } from './hiveRoster';
import { HiveRoster } from './hiveRoster';
import { HiveStoreMirror } from './hiveStoreMirror';
import { DEFAULT_HIVE_DIR, discoverHiveSockets } from './socketLayout';

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

export type HiveLifecycleVerb = 'start' | 'kill' | 'restart' | 'update';

export type { HiveAgentSummary };

export class HiveDriver implements Driver {
  readonly protocol = 'hive' as const;
  readonly connectionId: string;
  private readonly loop: ReconnectLoop;
  private readonly poller: Poller;
  private readonly roster: HiveRoster;
  private readonly clock: () => number;
  private readonly sweepMs: number;
  private readonly baseTime: number;
  private onLost: ((reason: string) => void) | undefined;
  private generation = 0;
  private readonly mirror: HiveStoreMirror;
  private readonly warned = new Set<string>();

  constructor(
    private readonly ctx: DriverContext,
    private readonly options: HiveDriverOptions = {},
  ) {
    this.connectionId = ctx.connectionId;
    this.clock = options.clock ?? Date.now;
    this.sweepMs = options.sweepMs ?? 120_000;
    this.baseTime = this.clock();
    this.roster = new HiveRoster(
      (socketPath, role) => this.newClient(socketPath, role),
      (key, message) => this.warnOnce(key, message),
    );
    this.mirror = new HiveStoreMirror(ctx.store, this.connectionId, this.roster, this.target, this.baseTime);
    this.poller = createHivePoller(() => this.poll(), options.timers, options.pollMinMs, options.pollMaxMs);
    this.loop = new ReconnectLoop({
      connectOnce: (onLost) => this.connectOnce(onLost),
      setState: (state) => ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state }),
      describeError: (error) => ({ message: errorText(error), fatal: error instanceof DriverError && error.code === FATAL }),
      ...(options.reconnectBaseMs !== undefined ? { baseMs: options.reconnectBaseMs } : {}),
      clock: this.clock,
    });
  }

  /** The directory (or single socket) this profile watches. */
  get target(): string {
    return this.ctx.profile.socketPath ?? this.ctx.profile.hiveDir ?? DEFAULT_HIVE_DIR;
  }

  /** The delay of the next status poll (tests and the tree's tooltip). */
  get pollDelayMs(): number {
    return this.poller.currentDelayMs;
  }

  get hasManager(): boolean {
    return this.roster.managerName !== undefined;
  }

  async connect(): Promise<void> {
    await this.loop.start();
  }

  async disconnect(): Promise<void> {
    this.generation++;
    this.poller.stop();
    this.onLost = undefined;
    this.loop.stop();
  }

  dispose(): void {
    void this.disconnect();
  }

  /** The agents (manager first), for pickers. */
  agents(): HiveAgentSummary[] {
    return this.roster.summaries();
  }

  isManagerRun(runId: string): boolean {
    return runId === this.roster.managerName;
  }

  // ---- operator actions on an agent's own socket ----------------------------------------------------------------

  /** `operator_msg` to the agent. Never retried (it creates a row each time); an unknown outcome is checked in the inbox. */
  async sendMessage(runId: string, text: string): Promise<void> {
    const book = this.requireBook(runId);
    const client = this.requireOwnClient(book);
    const before = book.inbox.highestId;
    this.poller.reset();
    try {
      await client.operatorMsg(text);
    } catch (error) {
      if (error instanceof HiveError && error.outcomeUnknown) {
        const arrived = await client.recent(50).then(
          (rows) => rows.some((r) => r.ok && r.value.from === 'operator' && r.value.body === text && (r.value.id !== undefined ? r.value.id > before : !book.inbox.has(r))),
          () => false,
        );
        await this.sync(book).catch(() => false);
        if (arrived) {
          this.ctx.log.warn(`operator_msg to ${runId}: no reply was read (${error.message}), but the message is in the inbox.`);
          return;
        }
        throw new DriverError(
          `The message to ${runId} may or may not have been delivered (${error.message}). It is never resent automatically, and its inbox (just re-read) does not show it yet: check again before sending it a second time.`,
          'outcome_unknown',
        );
      }
      throw this.userError(error);
    }
    await this.sync(book);
  }

  async panelAction(runId: string, panelId: string, entryId: string, actionId: string): Promise<void> {
    const book = this.requireBook(runId);
    const client = this.requireOwnClient(book);
    const run = this.ctx.store.state.runs.get(runKeyOf(this.connectionId, runId));
    const entry = run?.panels?.find((p) => p.id === panelId)?.entries.find((e) => e.id === entryId);
    const parsed = parseLooseEndEntryId(entryId);
    if (panelId !== LOOSE_ENDS_PANEL || !entry?.actions.some((a) => a.id === actionId) || !parsed) {
      throw new DriverError('That item changed or is gone meanwhile; the panel is refreshed.');
    }
    this.poller.reset();
    try {
      if (actionId === ACTION_MARK_DONE) {
        await client.markTodoDone(parsed.id);
      } else if (actionId === ACTION_CANCEL) {
        await client.cancelLooseEnd(parsed.kind, parsed.id);
      } else {
        throw new DriverError(`Unknown action ${actionId}.`);
      }
    } catch (error) {
      throw this.userError(error);
    } finally {
      await this.sync(book).catch(() => false);
    }
  }

  /** Re-reads everything: sockets, the manager's container list, every agent. */
  async refresh(): Promise<void> {
    const generation = this.generation;
    const layout = await discoverHiveSockets(this.target);
    if (layout.sockets.length === 0) {
      throw layoutFailure(layout);
    }
    if (generation !== this.generation) {
      return;
    }
    await this.roster.applyLayout(layout);
    await this.roster.readDescendants();
    await Promise.all(this.roster.all().map((b) => this.sync(b)));
    this.mirror.publishConnection();
    this.poller.reset();
  }

  // ---- manager (privileged, on the manager socket) ---------------------------------------------------------------

  startAgent(name: string): Promise<void> {
    return this.lifecycle('start', name);
  }

  /** `kill`: a graceful stop of the agent's container. */
  stopAgent(name: string): Promise<void> {
    return this.lifecycle('kill', name);
  }

  restartAgent(name: string): Promise<void> {
    return this.lifecycle('restart', name);
  }

  /** Rebuild the agent against the current hyperhive flake (may take minutes). */
  updateAgent(name: string): Promise<void> {
    return this.lifecycle('update', name);
  }

  agentLogs(name: string, lines?: number): Promise<string> {
    return this.managerCall((m) => m.getLogs(name, lines));
  }

  /** The host journal, over the manager socket or (no manager) the given agent's own socket. */
  hostJournal(query: HostJournalQuery = {}, viaRunId?: string): Promise<string> {
    const via = viaRunId !== undefined ? this.roster.get(viaRunId)?.client : undefined;
    const client = this.roster.managerClient ?? via ?? this.roster.all().find((b) => b.client)?.client;
    if (!client) {
      return Promise.reject(new DriverError('No hive socket is reachable for the host journal.'));
    }
    return client.getHostJournal(query).catch((error: unknown) => {
      throw this.userError(error);
    });
  }

  listSchedules(): Promise<Lenient<WireSchedule>[]> {
    return this.managerCall((m) => m.listSchedules());
  }

  async fireScheduleNow(id: number): Promise<void> {
    await this.managerCall((m) => m.fireScheduleNow(id));
    this.markAllDirty();
  }

  async editSchedule(id: number, edit: ScheduleEdit): Promise<void> {
    await this.managerCall((m) => m.editSchedule(id, edit));
  }

  async cancelSchedule(id: number, targets?: readonly string[]): Promise<void> {
    await this.managerCall((m) => m.cancelSchedule(id, targets));
  }

  /** Queues an approval; it is decided on the host admin side (dashboard / host.sock), not here. */
  async requestInitConfig(name: string, description?: string): Promise<void> {
    await this.managerCall((m) => m.requestInitConfig(name, description));
    this.markAllDirty();
  }

  async requestUpdateMetaInputs(inputs: readonly string[], description?: string): Promise<void> {
    await this.managerCall((m) => m.requestUpdateMetaInputs(inputs, description));
    this.markAllDirty();
  }

  async requestSchedulePrompt(payload: SchedulePromptPayload): Promise<void> {
    await this.managerCall((m) => m.requestSchedulePrompt(payload));
    this.markAllDirty();
  }

  // ---- connection ------------------------------------------------------------------------------------------------

  private async connectOnce(onLost: (reason: string) => void): Promise<void> {
    const generation = this.generation;
    const layout = await discoverHiveSockets(this.target);
    if (layout.sockets.length === 0) {
      throw layoutFailure(layout);
    }
    const probe = layout.sockets.find((s) => s.role === 'manager') ?? layout.sockets[0]!;
    try {
      await this.newClient(probe.socketPath, probe.role).status();
    } catch (error) {
      throw probeFailure(error);
    }
    if (generation !== this.generation) {
      return;
    }
    this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, warning: layout.problems.join(' ') });
    await this.roster.applyLayout(layout);
    await this.roster.readDescendants();
    await Promise.all(this.roster.all().map((b) => this.sync(b)));
    if (generation !== this.generation) {
      return;
    }
    this.mirror.publishConnection();
    this.onLost = onLost;
    this.poller.start();
  }

  /** Gives up the connection: the reconnect loop retries with backoff. */
  private lose(reason: string): void {
    this.poller.stop();
    const onLost = this.onLost;
    this.onLost = undefined;
    this.ctx.log.warn(`Lost the hive: ${reason}`);
    onLost?.(reason);
  }

  /** One round of polling: sockets, running flags, `status` of every agent; full reads where something changed. */
  private async poll(): Promise<boolean> {
    const generation = this.generation;
    const layout = await discoverHiveSockets(this.target);
    if (generation !== this.generation || !this.poller.isActive) {
      return false;
    }
    if (layout.sockets.length === 0) {
      this.lose(errorText(layoutFailure(layout)));
      return false;
    }
    let changed = await this.roster.applyLayout(layout);
    changed = (await this.roster.readDescendants()) || changed;
    const books = this.roster.all();
    const statuses = await Promise.all(books.map((b) => b.client?.status().then((n) => n, (error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
    if (generation !== this.generation) {
      return false;
    }
    const tried = statuses.filter((s) => s !== undefined);
    if (tried.length > 0 && tried.every((s) => s instanceof HiveConnectionError)) {
      this.lose(`no hive socket answers (${(tried[0] as Error).message})`);
      return false;
    }
    const now = this.clock();
    const reads: Promise<boolean>[] = [];
    books.forEach((book, i) => {
      const status = statuses[i];
      if (typeof status === 'number' && status !== book.unread) {
        book.unread = status;
        book.dirty = true;
        changed = true;
      } else if (status instanceof Error) {
        this.warnOnce(`status:${book.name}:${status.message}`, `status of ${book.name}: ${status.message}`);
      }
      if (book.dirty || now - book.lastReadAt >= this.sweepMs) {
        reads.push(this.sync(book));
      }
    });
    changed = (await Promise.all(reads)).some(Boolean) || changed;
    this.mirror.publishConnection();
    return changed;
  }

  // ---- one agent -------------------------------------------------------------------------------------------------

  /** Full read of one agent, serialized per agent. Resolves whether anything visible changed. */
  private sync(book: AgentBook): Promise<boolean> {
    const next = book.chain.then(() => this.syncNow(book));
    book.chain = next.catch(() => undefined);
    return next;
  }

  private async syncNow(book: AgentBook): Promise<boolean> {
    const generation = this.generation;
    book.dirty = false;
    book.lastReadAt = this.clock();
    book.gone = book.socket === undefined && book.listedRunning === undefined;
    let changed = this.mirror.upsertRun(book);
    if (!book.client) {
      return changed;
    }
    const read = await readAgent(book, book.client, book.name === this.roster.managerName, this.clock, (b) => this.roster.isRunning(b));
    if (generation !== this.generation) {
      return false;
    }
    book.problem = read.problem;
    changed = this.mirror.upsertRun(book) || changed;
    return this.mirror.applyRead(book, read) || changed;
  }

  // ---- helpers ---------------------------------------------------------------------------------------------------

  private async lifecycle(verb: HiveLifecycleVerb, name: string): Promise<void> {
    if (name === this.roster.managerName) {
      throw new DriverError('The manager cannot start, stop, restart or update itself over its own socket.');
    }
    const book = this.roster.get(name);
    try {
      await this.managerCall((m) => m[verb](name));
    } finally {
      await this.roster.readDescendants().catch(() => false);
      if (book) {
        await this.sync(book).catch(() => false);
      }
      this.mirror.publishConnection();
      this.poller.reset();
    }
  }

  private async managerCall<T>(call: (manager: HiveClient) => Promise<T>): Promise<T> {
    const manager = this.roster.managerClient;
    if (!manager) {
      throw new DriverError(`This needs the hive manager's socket (${this.target}/manager/mcp.sock), which is not available.`);
    }
    try {
      return await call(manager);
    } catch (error) {
      throw this.userError(error);
    }
  }

  private markAllDirty(): void {
    this.roster.markAllDirty();
    this.poller.reset();
  }

  private requireBook(runId: string): AgentBook {
    const book = this.roster.get(runId);
    if (!book) {
      throw new DriverError(`${runId} is not an agent of this hive.`);
    }
    return book;
  }

  private requireOwnClient(book: AgentBook): HiveClient {
    if (!book.client || !this.poller.isActive) {
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

  private userError(error: unknown): DriverError {
    // The driver re-reads the view after an unanswered request, so the note says so (the error itself cannot know).
    if (error instanceof HiveError && error.outcomeUnknown) {
      return new DriverError(`${errorText(error)} No reply was read, so it may or may not have happened; the view was re-read.`, error.code);
    }
    return toDriverError(error);
  }

  private warnOnce(key: string, message: string): void {
    if (!this.warned.has(key)) {
      this.warned.add(key);
      this.ctx.log.warn(message);
    }
  }
}

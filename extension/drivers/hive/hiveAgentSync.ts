/**
 * Keeping the model in step with a hive that never pushes (WIRE.md 4.2, 6.4): connecting discovers the sockets,
 * probes one and reads every agent; then the poller asks each agent's cheap `status` with a backoff while nothing
 * changes, and re-reads an agent fully (`recent`, loose ends, meta) when its status changed, on a user action or on
 * the slow sweep. Reads of one agent are serialized. When no socket is left or none answers, the connection is
 * given up (its scope is lost) and the base driver's loop reconnects. A generation counter drops reads that were
 * in flight when the driver disconnected.
 */
import { toDisposable } from '../../base/emitter';
import type { DriverContext } from '../connectionManager';
import type { Timeouts } from '../kit/clock';
import type { ConnectionScope } from '../kit/connectionScope';
import { errorText } from '../kit/errors';
import type { Poller } from '../kit/poller';
import type { AgentBook } from './hiveAgentBook';
import { readAgent } from './hiveAgentBook';
import type { HiveClient } from './client';
import type { HiveSocketRole } from './hiveClientOptions';
import { layoutFailure, probeFailure } from './hiveConnectFailure';
import { HiveConnectionError } from './hiveErrors';
import { createHivePoller } from './hivePoller';
import type { DriverRuns } from '../kit/driverRuns';
import type { HiveRoster } from './hiveRoster';
import type { HiveStoreMirror } from './hiveStoreMirror';
import { discoverHiveSockets } from './socketLayout';

export interface HiveAgentSyncOptions {
  readonly timers?: Timeouts;
  readonly pollMinMs?: number;
  readonly pollMaxMs?: number;
  /** Re-read every agent at least this often even when its status did not change. */
  readonly sweepMs: number;
  readonly clock: () => number;
}

export class HiveAgentSync {
  readonly poller: Poller;
  private generation = 0;
  /** The connection the poller runs on (lost when the hive stops answering); undefined while not connected. */
  private connection: ConnectionScope | undefined;
  /** Whether anyone can see the hive's runs: the poller runs only while connected and watched. */
  private watched = true;

  constructor(
    private readonly ctx: DriverContext,
    private readonly target: string,
    private readonly roster: HiveRoster,
    private readonly mirror: HiveStoreMirror,
    private readonly newClient: (socketPath: string, role: HiveSocketRole) => HiveClient,
    private readonly warnOnce: (key: string, message: string) => void,
    private readonly options: HiveAgentSyncOptions,
    private readonly runs: DriverRuns,
  ) {
    this.poller = createHivePoller(() => this.poll(), options.timers, options.pollMinMs, options.pollMaxMs);
  }

  /** Discovers, probes and reads the hive; resolves once it is mirrored and the poller runs on `connection`. */
  async connect(connection: ConnectionScope): Promise<void> {
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
    this.runs.connectionInfo({ warning: layout.problems.join(' ') });
    await this.roster.applyLayout(layout);
    await this.roster.readDescendants();
    await Promise.all(this.roster.all().map((b) => this.sync(b)));
    if (generation !== this.generation) {
      return;
    }
    this.mirror.publishConnection();
    this.connection = connection;
    connection.add(
      toDisposable(() => {
        this.poller.stop();
        if (this.connection === connection) {
          this.connection = undefined;
        }
      }),
    );
    if (this.watched) {
      this.poller.start();
    }
  }

  /** Connected: the hive was read and answers (whether or not the poller runs, which also needs a watcher). */
  get isConnected(): boolean {
    return this.connection !== undefined;
  }

  /**
   * Nobody sees the hive's runs (every view hidden): polling stops — a hive run never needs the user, so a poll
   * would only update views no one looks at. Seen again: one poll at once, then the usual backoff from 2 s.
   */
  setWatched(watched: boolean): void {
    if (watched === this.watched) {
      return;
    }
    this.watched = watched;
    if (!this.connection) {
      return;
    }
    if (watched) {
      this.poller.start({ tickNow: true });
    } else {
      this.poller.stop();
    }
  }

  /** The driver disconnects: reads still in flight are dropped, polling stops. */
  stop(): void {
    this.generation++;
    this.connection = undefined;
    this.poller.stop();
  }

  /** Re-reads everything: sockets, the manager's container list, every agent. */
  async refreshAll(): Promise<void> {
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

  /** Full read of one agent, serialized per agent. Resolves whether anything visible changed. */
  sync(book: AgentBook): Promise<boolean> {
    const next = book.chain.then(() => this.syncNow(book));
    book.chain = next.catch(() => undefined);
    return next;
  }

  /** Gives up the connection: the reconnect loop retries with backoff. */
  private lose(reason: string): void {
    this.ctx.log.warn(`Lost the hive: ${reason}`);
    this.connection?.lost(reason); // stops the poller
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
    const now = this.options.clock();
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
      if (book.dirty || now - book.lastReadAt >= this.options.sweepMs) {
        reads.push(this.sync(book));
      }
    });
    changed = (await Promise.all(reads)).some(Boolean) || changed;
    this.mirror.publishConnection();
    return changed;
  }

  private async syncNow(book: AgentBook): Promise<boolean> {
    const generation = this.generation;
    book.dirty = false;
    book.lastReadAt = this.options.clock();
    book.gone = book.socket === undefined && book.listedRunning === undefined;
    let changed = this.mirror.upsertRun(book);
    if (!book.client) {
      return changed;
    }
    const read = await readAgent(book, book.client, book.name === this.roster.managerName, this.options.clock, (b) => this.roster.isRunning(b));
    if (generation !== this.generation) {
      return false;
    }
    book.problem = read.problem;
    changed = this.mirror.upsertRun(book) || changed;
    return this.mirror.applyRead(book, read) || changed;
  }
}

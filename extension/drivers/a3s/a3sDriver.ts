/**
 * The A3S Code harness driver (`a3s.code.agent.v1`, WIRE.md §3 and 6.3). A3S has no connection: "connected" means
 * the readiness path answers `ready`, checked again periodically (a harness that turns not-ready is draining).
 * Runs are followed with `A3sRunPoller` while the harness is ready; every event folded into the model is appended
 * to the run's journal first-class, so a reload restores the transcript and resumes paging after the last held
 * sequence (no duplicates: the model dedupes by sequence, 0-based on the wire, +1 in the model). After a run ends
 * its change set is fetched, verified and published; a run stranded by a harness restart can be recovered as a new
 * run from its checkpoint. There is no approval verb (3.9): confirmations are shown, never answered.
 *
 * The class wires its parts — `a3sRunCommands.ts` (start, cancel, recover), `a3sRunFollower.ts` (events, strands,
 * change sets) — and keeps the readiness connection and the journaling. Reconnecting and cleanup are the base
 * driver's.
 */
import { toDisposable } from '../../base/emitter';
import type { Capability } from '../../model/modelTypes';
import { A3S_PROTOCOL, buildRunIdentity } from '../../protocol/a3s';
import type { A3sEventRecord } from '../../protocol/a3s';
import type { ActionResult, ActionTarget } from '../kit/daemonActions';
import { a3sFacts, performA3sAction } from './a3sActions';
import type { DriverContext } from '../connectionManager';
import type { Driver, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { BaseDriver } from '../kit/baseDriver';
import type { ConnectionScope } from '../kit/connectionScope';
import { errorText } from '../kit/errors';
import { a3sProfileProblem, a3sSessionId } from './a3sProfile';
import { A3sReadiness } from './a3sReadiness';
import type { A3sRunBook } from './a3sRunBook';
import { A3sRunCommands } from './a3sRunCommands';
import { A3sRunFollower } from './a3sRunFollower';
import type { A3sDriverOptions, A3sRunParts } from './a3sRunParts';
import { A3S_RECOVER_PANEL } from './a3sRunParts';
import { A3sRunStorage } from './a3sRunStorage';
import type { A3sCursor } from './a3sJournal';
import type { Journaling } from '../kit/runJournaling';
import { TurnCheckpoints } from '../kit/turnCheckpoints';
import { A3sClient } from './client';

export type { A3sDriverOptions } from './a3sRunParts';
export { A3S_RECOVER_PANEL } from './a3sRunParts';

/** `runs.refresh`: HTTP pushes nothing, so while the Connections view is visible the editor checks readiness. */
const CAPABILITIES: readonly Capability[] = ['run.start', 'run.cancel', 'changeSets.remote', 'runs.refresh'];

export class A3sDriver extends BaseDriver<A3sCursor> implements Driver {
  readonly protocol = 'a3s' as const;
  protected readonly journaling: Journaling<A3sCursor>;
  private readonly storage: A3sRunStorage;
  private readonly books = new Map<string, A3sRunBook>();
  private client: A3sClient | undefined;
  private readiness: A3sReadiness | undefined;
  private ready = false;
  private loaded: Promise<void> | undefined;
  private session: Promise<string> | undefined;
  private readonly parts: A3sRunParts;
  private readonly follower: A3sRunFollower;
  private readonly commands: A3sRunCommands;

  constructor(
    ctx: DriverContext,
    private readonly options: A3sDriverOptions = {},
  ) {
    super(ctx, options.reconnectBaseMs !== undefined ? { reconnect: { baseMs: options.reconnectBaseMs } } : {});
    this.storage = new A3sRunStorage(ctx, this.runs, ctx.log, (runId) => this.books.get(runId));
    // A removed run's book goes with it (its cached change set went with its files: storage/runFiles.ts); a book left
    // behind would still be probed as a strand candidate.
    this.journaling = { ...this.storage.journalTerms(), removed: (runId) => void this.books.delete(runId) };
    this.parts = {
      runs: this.runs,
      log: ctx.log,
      books: this.books,
      options,
      checkpoints: this.driverScope.add(new TurnCheckpoints(ctx, this.runs)),
      readyClient: () => (this.ready ? this.client : undefined),
      requireReady: () => this.requireReady(),
      identity: (book) => buildRunIdentity({ agentReleaseIdentity: this.ctx.profile.releaseIdentity ?? '', sessionId: book.sessionId, runId: book.runId }),
      saveRun: (book) => this.saveRun(book),
      recordLocal: (runId, event) => this.runs.event(runId, event),
    };
    this.follower = new A3sRunFollower(
      this.parts,
      {
        storeEvent: (book, record) => this.storeEvent(book, record),
        storeGap: (book, from, toExclusive) => void this.storage.gap(book.runId, from, toExclusive),
        saveChangeSet: (runId, changeSet) => this.storage.saveChangeSet(runId, changeSet),
      },
      () => void this.readiness?.checkNow(),
      (live) => this.readiness?.setPeriodic(live),
    );
    this.commands = new A3sRunCommands(this.parts, this.follower, () => this.sessionId());
  }

  startRun(options: StartRunOptions): Promise<string> {
    return this.commands.start(options);
  }

  /** The runs' file checkpoints (issue #26: rewind). */
  get checkpoints(): TurnCheckpoints {
    return this.parts.checkpoints;
  }

  async cancelRun(runId: string): Promise<void> {
    await this.commands.cancel(this.requireBook(runId));
  }

  /** Resumes a stranded run from its checkpoint as a new run (WIRE.md 6.3.4); resolves with the new run id. */
  async recoverRun(oldRunId: string): Promise<string> {
    return this.commands.recover(this.requireBook(oldRunId));
  }

  async panelAction(runId: string, panelId: string, _entryId: string, actionId: string): Promise<void> {
    if (panelId === A3S_RECOVER_PANEL && actionId === 'recover') {
      await this.recoverRun(runId);
      return;
    }
    throw new DriverError('This action is not available for A3S runs.');
  }

  /** Checks readiness now, restarts stopped pollers and retries pending change-set fetches. */
  async refresh(): Promise<void> {
    await this.readiness?.checkNow();
    this.follower.resumeAll();
  }

  /** Whether the run can be recovered (stranded after a harness restart). */
  isStranded(runId: string): boolean {
    return this.books.get(runId)?.stranded ?? false;
  }

  /** Whether `recoverRun` would take the run: stranded, or still open and not recovered yet (the checks it makes). */
  isRecoverable(runId: string): boolean {
    const book = this.books.get(runId);
    return book !== undefined && book.recoveredAs === undefined && (book.stranded || !book.terminal);
  }

  performAction(command: string, target: ActionTarget): Promise<ActionResult> {
    return performA3sAction(this, command, target);
  }

  actionFacts(runId?: string): readonly string[] {
    return a3sFacts(this, runId);
  }

  // ------------------------------------------------------------------------------------------------------------

  private sessionId(): Promise<string> {
    this.session ??= a3sSessionId(this.ctx.profile, this.storage.dir);
    return this.session;
  }

  private requireReady(): A3sClient {
    if (!this.ready || !this.client) {
      throw new DriverError('The A3S harness is not ready (see the connection state).');
    }
    return this.client;
  }

  private requireBook(runId: string): A3sRunBook {
    const book = this.books.get(runId);
    if (!book) {
      throw new DriverError(`This connection does not know run ${runId}.`);
    }
    return book;
  }

  // --- connection: the harness's readiness (the base driver reconnects) -----------------------------------------

  protected override async connectOnce(connection: ConnectionScope): Promise<void> {
    const problem = a3sProfileProblem(this.ctx.profile);
    if (problem !== undefined) {
      throw new DriverError(problem, 'fatal');
    }
    const profile = this.ctx.profile;
    if (!this.client || !this.readiness) {
      this.client = this.driverScope.add(
        new A3sClient({
          baseUrl: profile.url!,
          allowNonLoopback: profile.allowRemote ?? false,
          ...(profile.readinessPath ? { readinessPath: profile.readinessPath } : {}),
          ...(profile.livenessPath ? { livenessPath: profile.livenessPath } : {}),
          frameTap: this.ctx.tap,
          ...(this.options.requestTimeoutMs !== undefined ? { requestTimeoutMs: this.options.requestTimeoutMs } : {}),
        }),
      );
      this.readiness = new A3sReadiness(this.client);
    }
    const readiness = this.readiness;
    const reason = await readiness.problem();
    if (reason !== undefined) {
      throw new Error(reason);
    }
    if (!connection.isOpen) {
      return;
    }
    this.ready = true;
    // Offline again when the connection ends: no requests, no pollers until the harness is ready again.
    connection.add(
      toDisposable(() => {
        this.ready = false;
        readiness.stop();
        this.follower.stopAll();
      }),
    );
    this.runs.connectionInfo({
      capabilities: CAPABILITIES,
      serverDescription: `A3S Code harness (${A3S_PROTOCOL})`,
      details: { url: profile.url, session: await this.sessionId() },
    });
    // Periodic checks only while a run is followed; otherwise on demand (a failed request, the visible view).
    readiness.watch(
      this.options.healthIntervalMs ?? 5_000,
      (lost) => {
        this.ctx.log.warn(`A3S harness: ${lost}`);
        connection.lost(lost);
      },
      this.follower.hasLive(),
    );
    this.follower.resumeAll();
  }

  // --- journaling (a3sRunStorage.ts) -------------------------------------------------------------------------------

  protected override loadStorage(): Promise<void> {
    return this.loadJournal();
  }

  protected override async closeStorage(): Promise<void> {
    this.storage.close();
    await this.parts.checkpoints.settled(); // its git writes must not outlive the driver (or a test's folder)
    return super.closeStorage();
  }

  private saveRun(book: A3sRunBook): Promise<void> {
    return this.storage.saveRun(book);
  }

  /** Folds and journals a harness record; the cursor moves once it is on disk (a reload pages on from there). */
  private storeEvent(book: A3sRunBook, record: A3sEventRecord): void {
    const stored = this.storage.fold(book, record);
    if (!stored) {
      return; // already held
    }
    stored.then(
      () => {
        book.cursor = Math.max(book.cursor ?? -1, record.sequence);
        this.storage.scheduleSave(book.runId, () => void this.saveRun(book));
      },
      (error: unknown) => {
        // After dispose the journal is closed; the cursor did not move, so a reload pages these events again.
        if (!this.isDisposed) {
          this.ctx.log.error(`Could not store run ${book.runId}: ${errorText(error)}`);
        }
      },
    );
  }

  /** Rebuilds stored runs and transcripts once (after a window reload), before the first connect. */
  private loadJournal(): Promise<void> {
    this.loaded ??= this.runs.replay(this.storage.restorePolicy({
      open: (stored, extra) => (this.books.has(stored.runId) ? undefined : this.commands.newBook(stored.runId, extra.sessionId, extra)),
      restored: (book, state, changeSet) => {
        if (book.stranded) {
          this.follower.publishRecoverPanel(book.runId);
        }
        if (changeSet) {
          book.changeSet = 'done';
          this.follower.publishChangeSet(book.runId, changeSet);
        } else if (state === 'failed' && book.cursor === null) {
          book.changeSet = 'done'; // the command itself failed: the run never existed on the harness
        }
      },
    }));
    return this.loaded;
  }
}

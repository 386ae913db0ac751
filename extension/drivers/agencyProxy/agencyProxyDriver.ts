/**
 * The AgencyProxy driver: keeps a connection to the daemon, mirrors its runs into the model, and carries out user
 * actions. Durability (WIRE.md 6.1): every event folded into a transcript is appended to the run's journal in the
 * extension's storage, and `ack_events` is sent only through what is on disk — never past an unanswered approval,
 * so a reload can always show it again, and only for runs this editor started or the user adopted (runOwnership.ts:
 * an ack deletes the journal for every client). After a reload the journal is replayed and each run re-attached
 * after the last stored sequence: nothing lost, nothing doubled. A run the daemon no longer knows (it restarted) is
 * kept and marked lost; `continueInNewRun` resumes its provider session in a new run.
 *
 * The class wires its parts: `agencyProxyConnectionInfo.ts` (opening a client), `agencyProxyAttachments.ts`
 * (reconcile and attach), `agencyProxyEventFolder.ts` (events into the model), `agencyProxyRunStart.ts`,
 * `agencyProxyLocalChanges.ts` and `agencyProxyRecords.ts` (what is journaled, and how a run comes back).
 * Reconnecting, cleanup and the door into the model (journaled) are the base driver's.
 */
import { toDisposable } from '../../base/emitter';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { ActionAnswers, ActionResult, ActionTarget } from '../kit/daemonActions';
import { agencyProxyFacts, performAgencyProxyAction } from './agencyProxyActions';
import type { Driver, ProviderChoice, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { BaseDriver } from '../kit/baseDriver';
import type { ConnectionScope } from '../kit/connectionScope';
import { toDriverError } from '../kit/errors';
import { isAgencyProxyError } from './agencyProxyError';
import { AgencyProxyAttachments } from './agencyProxyAttachments';
import { openAgencyProxyClient, publishAgencyProxyConnection } from './agencyProxyConnectionInfo';
import { AgencyProxyEventFolder } from './agencyProxyEventFolder';
import { AgencyProxyLocalChanges } from './agencyProxyLocalChanges';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import type { AgencyProxyCursor } from './agencyProxyRecords';
import { agencyProxyCheckpointBooks, agencyProxyCursorSchema, agencyProxyRestorePolicy } from './agencyProxyRecords';
import type { Journaling } from '../kit/runJournaling';
import { windowIdOf } from '../kit/runJournaling';
import { startAgencyProxyRun } from './agencyProxyRunStart';
import type { AgencyProxyClient } from './client';
import { AckTracker } from './ackTracker';
import type { Continuation, ContinueRunOptions } from './continueRun';
import { planContinuation } from './continueRun';
import { RunActivityBook } from './runActivityBook';
import { RunOwnership } from './runOwnership';

export class AgencyProxyDriver extends BaseDriver<AgencyProxyCursor> implements Driver {
  readonly protocol = 'agency-proxy' as const;
  protected readonly journaling: Journaling<AgencyProxyCursor>;
  private client: AgencyProxyClient | undefined;
  private loaded: Promise<void> | undefined;
  /** The run-list sync under way (refresh): one at a time. */
  private syncing: Promise<void> = Promise.resolve();
  /** How stored runs come back (built once, with the first replay). */
  private policy: ReturnType<typeof agencyProxyRestorePolicy> | undefined;
  private lastWarning = '';
  private readonly parts: AgencyProxyRunParts;
  private readonly attachments: AgencyProxyAttachments;
  private readonly folder: AgencyProxyEventFolder;

  constructor(ctx: DriverContext) {
    super(ctx);
    const ownership = new RunOwnership(windowIdOf(ctx));
    const acks = this.driverScope.add(
      new AckTracker(
        // Observed runs are never acked: an ack deletes the journal another client may still need (WIRE.md 1.9); nor
        // runs another window of this machine journals (its journal, not ours, must hold what is acked).
        (runId, through) => (this.client?.isOpen && ownership.owns(runId) && this.runs.writes(runId) ? this.client.ackEvents(runId, through) : undefined),
        (message) => ctx.log.warn(message),
        undefined,
        (runId) => this.runs.journaledThrough(runId),
      ),
    );
    const activity = new RunActivityBook();
    const saveRun = (runId: string): Promise<void> =>
      this.runs.saveRun(runId, { ...ownership.extraOf(runId), ...activity.extraOf(runId), ...this.parts.localChanges.extraOf(runId) });
    this.parts = {
      runs: this.runs,
      log: ctx.log,
      acks,
      ownership,
      activity,
      localChanges: new AgencyProxyLocalChanges(this.runs, ctx.log, saveRun),
      storeEvent: (runId, sequence, inputs) => {
        this.runs.record(runId, inputs).then(
          () => {
            acks.stored(runId, sequence);
            acks.schedule(runId);
          },
          (error: unknown) => ctx.log.error(`Could not store run ${runId} (events stay unacknowledged): ${String(error)}`),
        );
      },
      saveRun,
      recordLocal: (runId, event) => this.runs.event(runId, event),
      expireApprovals: async (runId, reason) => {
        await this.runs.expireApprovals(runId, reason);
        acks.approvalsGone(runId);
      },
    };
    this.journaling = {
      cursor: agencyProxyCursorSchema,
      books: agencyProxyCheckpointBooks({ acks, activity, ownership }),
      // This window writes the run's journal now: if it took another window's run over (that window closed, or its
      // host died), the acks are this window's now; its own run (after a reload) may be acked through what is stored.
      writing: (runId, previous) => {
        void (async () => {
          if (previous && previous.window !== windowIdOf(ctx)) {
            // What the other window stored of the run (its owner), if this window learned the run from the daemon.
            ownership.restore(runId, (await this.runs.storedRun(runId))?.extra);
          }
          if (ownership.tookOver(runId)) {
            await saveRun(runId);
          }
          acks.schedule(runId);
        })();
      },
    };
    this.attachments = new AgencyProxyAttachments(this.parts, () => this.client);
    this.folder = new AgencyProxyEventFolder(this.parts, (runId) => this.attachments.refreshFinalState(runId));
  }


  async listProviders(): Promise<readonly ProviderChoice[]> {
    const providers = await this.requireClient().probeProviders();
    return providers.map((p) => ({
      provider: p.provider,
      installed: p.installed,
      ...(p.version ? { version: p.version } : {}),
      outdated: p.outdated,
      authState: p.authState,
      detail: p.detail,
      loginHint: p.loginHint,
    }));
  }

  /** `continuation` is for continueInNewRun: the provider session to resume, and the title naming the old run. */
  async startRun(options: StartRunOptions, continuation?: Continuation): Promise<string> {
    return startAgencyProxyRun(this.parts, this.attachments, this.requireClient(), options, continuation);
  }

  /**
   * Lets this editor acknowledge a run another client started (by default it only observes such runs: an ack
   * deletes the journal for every client, WIRE.md 1.9). Stored with the run, so it survives a reload.
   */
  async adoptRun(runId: string): Promise<void> {
    if (!this.runs.get(runId)) {
      throw new DriverError(`Unknown run ${runId}.`);
    }
    if (!(await this.runs.claim(runId))) {
      // Its acks must cover only what a journal holds, and that journal is the other window's.
      throw new DriverError('Another editor window of this machine journals this run: adopt it there (or reload this window once that one is closed).');
    }
    this.parts.ownership.own(runId);
    await this.parts.saveRun(runId);
    this.parts.acks.schedule(runId); // what is already stored may go now
  }

  /** True for runs this editor started or adopted (acknowledged); false for runs it only observes. */
  ownsRun(runId: string): boolean {
    return this.parts.ownership.owns(runId);
  }

  performAction(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
    return performAgencyProxyAction(this, command, target, answers);
  }

  actionFacts(runId?: string): readonly string[] {
    return agencyProxyFacts(this, runId);
  }

  /**
   * Starts a new run that resumes the provider session of a lost (or ended) run, e.g. after a daemon restart, which
   * loses every run but not the provider's session (WIRE.md 1.9). Resolves with the new run's id.
   */
  async continueInNewRun(runId: string, options: ContinueRunOptions = {}): Promise<string> {
    const { start, continuation } = planContinuation(this.runs.get(runId), runId, this.parts.ownership.sessionOf(runId), options);
    return this.startRun(start, continuation);
  }

  async sendMessage(runId: string, text: string): Promise<void> {
    const client = this.requireClient();
    try {
      await client.injectMessage(runId, text, this.parts.acks.nextInjection(runId));
    } catch (error) {
      // Never retried: inject_message is not deduplicated by the daemon (a retry could deliver it twice).
      throw toDriverError(error);
    }
    await this.runs.event(runId, { kind: 'userPrompt', text, note: 'sent while running' });
  }

  async cancelRun(runId: string): Promise<void> {
    try {
      await this.requireClient().cancelRun(runId);
    } catch (error) {
      if (isAgencyProxyError(error, 'conflict')) {
        return; // already cancelling
      }
      throw toDriverError(error);
    }
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette', rule?: string): Promise<void> {
    if (decision === 'deny_always') {
      throw new DriverError('AgencyProxy has no "deny similar": deny this request instead.');
    }
    try {
      await this.requireClient().decideApproval(runId, approvalId, decision);
    } catch (error) {
      throw toDriverError(error);
    }
    this.parts.acks.approvalAnswered(runId, approvalId);
    // Journaled after the run's own events that arrived meanwhile (even its end): a replay still ends decided,
    // because replayed terminal events expire nothing (see the restore policy's `restored`, run after the records).
    await this.runs.event(runId, { kind: 'approvalSettled', approvalId, decision, by, ...(rule !== undefined ? { rule } : {}) });
    this.parts.acks.schedule(runId);
  }

  /**
   * Recomputes the local change set of a run that is still open (from its start to the working tree now); after
   * the run ended, the final one. Interactive runs stay open for good, so this runs after every answer and on
   * Show Change Set.
   */
  refreshChangeSet(runId: string): Promise<void> {
    return this.parts.localChanges.refresh(runId);
  }

  /**
   * Re-reads the daemon's run list. Runs another editor window of this machine journaled are loaded from that
   * journal (checkpoint and lines) first, so they attach after what is stored instead of being replayed by the daemon
   * from the start. One sync at a time: a watcher's, the view's poll and a reconnect never interleave.
   */
  refresh(): Promise<void> {
    const client = this.requireClient();
    const sync = this.syncing.catch(() => undefined).then(async () => {
      await this.loadOtherWindowsRuns();
      await this.attachments.reconcile(client, await client.listRuns());
    });
    this.syncing = sync;
    return sync;
  }

  /** The connection's name, as the user named it (for views titled after it). */
  get connectionName(): string {
    return this.ctx.profile.name;
  }

  /** Provider account usage as the daemon reports it (provider-specific; shown raw). */
  async readAccountUsage(): Promise<readonly { provider: string; supported: boolean; usage: unknown; error: string | null }[]> {
    try {
      return await this.requireClient().readAccountUsage();
    } catch (error) {
      throw toDriverError(error);
    }
  }

  /** Stops the daemon only when no run is active (`conflict` otherwise, said plainly). */
  async shutdownIfIdle(): Promise<void> {
    try {
      await this.requireClient().shutdownIfIdle();
    } catch (error) {
      throw toDriverError(error);
    }
  }

  /** Stops the daemon (drain lets runs finish; terminate cancels them). */
  async shutdown(mode: 'drain' | 'terminate'): Promise<void> {
    try {
      await this.requireClient().shutdown(mode);
    } catch (error) {
      throw toDriverError(error);
    }
  }

  // --- connection (the base driver reconnects) -------------------------------------------------------------------

  protected override isFatal(error: unknown): boolean {
    return isAgencyProxyError(error, 'incompatible_version') || super.isFatal(error);
  }

  protected override async connectOnce(connection: ConnectionScope): Promise<void> {
    const { client, socketPath } = await openAgencyProxyClient(this.ctx);
    connection.add(
      toDisposable(() => {
        if (this.client === client) {
          this.client = undefined;
        }
        client.close();
      }),
    );
    if (!connection.isOpen) {
      return; // disconnected meanwhile: the client is closed again
    }
    this.lastWarning = publishAgencyProxyConnection(this.ctx, this.runs, client, socketPath, this.lastWarning);
    this.client = client;
    this.attachments.clear();
    client.onWarning((w) => this.ctx.log.warn(w.message));
    client.onEvents((frames) => this.folder.foldRead(frames));
    client.onClose((info) => {
      if (this.client === client) {
        this.client = undefined;
      }
      if (!info.byClient) {
        this.ctx.log.warn(`Connection lost: ${info.reason}`);
        connection.lost(info.reason);
      }
    });
    await this.refresh();
  }

  private requireClient(): AgencyProxyClient {
    if (!this.client?.isOpen) {
      throw new DriverError('AgencyProxy is not connected.');
    }
    return this.client;
  }

  // --- after a reload (agencyProxyRecords.ts) -----------------------------------------------------------------------

  /**
   * Rebuilds stored transcripts and the books beside them once, before the first connect; then follows what other
   * editor windows of this machine add to the run index (a new run shows here within a second, not at the next poll).
   */
  protected override loadStorage(): Promise<void> {
    this.loaded ??= this.runs.replay(this.restorePolicy()).then(() => {
      const stop = this.runs.watchOtherWindows(() => {
        if (this.client?.isOpen && !this.isDisposed) {
          this.refresh().catch((error: unknown) => this.isDisposed || this.ctx.log.warn(`Following another window's runs: ${String(error)}`));
        }
      });
      this.driverScope.add(toDisposable(stop));
    });
    return this.loaded;
  }

  /** Loads the stored runs another window added since (not shown here yet): from their journal, not the daemon. */
  private async loadOtherWindowsRuns(): Promise<void> {
    await this.loaded;
    await this.runs.replay(this.restorePolicy(), true);
  }

  private restorePolicy(): ReturnType<typeof agencyProxyRestorePolicy> {
    const { acks, activity, ownership, localChanges, expireApprovals } = this.parts;
    this.policy ??= agencyProxyRestorePolicy({ acks, activity, ownership }, {
      restore: (stored) => localChanges.restore(stored.runId, stored.extra),
      ended: async (runId) => {
        await expireApprovals(runId, 'The run had ended before a decision was made.');
        void localChanges.finish(runId);
      },
    });
    return this.policy;
  }
}

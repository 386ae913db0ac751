/**
 * The AgencyProxy driver: keeps a connection to the daemon, mirrors its runs into the model, and carries out user
 * actions. Durability (WIRE.md 6.1): every event folded into a transcript is appended to the run's journal in the
 * extension's storage, and `ack_events` is sent only through what is on disk — never past an unanswered approval,
 * so a reload can always show it again, and only for runs this editor started or the user adopted (runOwnership.ts:
 * an ack deletes the journal for every client). After a reload the journal is replayed and each run re-attached
 * after the last stored sequence: nothing lost, nothing doubled. A run the daemon no longer knows (it restarted) is
 * kept and marked lost; `continueInNewRun` resumes its provider session in a new run.
 *
 * The class wires its parts: `agencyProxyConnectionInfo.ts` (opening a client), `agencyProxyRunSync.ts` (the run
 * list's sync) and `agencyProxyAttachments.ts` (reconcile and attach), `agencyProxyEventFolder.ts` (events into the
 * model), `agencyProxyDaemonControl.ts` (providers, usage, stopping the daemon), `agencyProxyRunStart.ts`,
 * `agencyProxyLocalChanges.ts`, `agencyProxyRunParts.ts` (the books), `agencyProxyRunStorage.ts` and
 * `agencyProxyRecords.ts` (what is journaled, and how a run comes back: finished ones from their summary).
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
import { agencyProxyAccountUsage, agencyProxyProviders, stopAgencyProxy } from './agencyProxyDaemonControl';
import { AgencyProxyEventFolder } from './agencyProxyEventFolder';
import { AgencyProxyRunStorage } from './agencyProxyRunStorage';
import { AgencyProxyRunSync } from './agencyProxyRunSync';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import { agencyProxyRunParts } from './agencyProxyRunParts';
import type { AgencyProxyCursor } from './agencyProxyRecords';
import type { Journaling } from '../kit/runJournaling';
import type { TurnCheckpoints } from '../kit/turnCheckpoints';
import { startAgencyProxyRun } from './agencyProxyRunStart';
import type { AgencyProxyClient } from './client';
import type { Continuation, ContinueRunOptions } from './continueRun';
import { planContinuation } from './continueRun';

export class AgencyProxyDriver extends BaseDriver<AgencyProxyCursor> implements Driver {
  readonly protocol = 'agency-proxy' as const;
  protected readonly journaling: Journaling<AgencyProxyCursor>;
  private client: AgencyProxyClient | undefined;
  /** The run list's sync (refresh): one at a time. */
  private readonly sync: AgencyProxyRunSync;
  /** How the runs are journaled and come back after a reload (agencyProxyRunStorage.ts). */
  private readonly storage: AgencyProxyRunStorage;
  private lastWarning = '';
  private readonly parts: AgencyProxyRunParts;
  private readonly attachments: AgencyProxyAttachments;
  private readonly folder: AgencyProxyEventFolder;

  constructor(ctx: DriverContext) {
    super(ctx);
    this.parts = agencyProxyRunParts(ctx, this.runs, {
      client: () => this.client,
      scope: this.driverScope,
    });
    this.storage = new AgencyProxyRunStorage(ctx, this.parts, (runId) => this.rejoin(runId));
    this.journaling = this.storage.journalTerms((runId) => this.attachments.forget(runId));
    this.attachments = new AgencyProxyAttachments(this.parts, () => this.client);
    this.folder = new AgencyProxyEventFolder(this.parts, (runId) => this.attachments.refreshFinalState(runId));
    this.sync = new AgencyProxyRunSync(this.runs, this.storage, this.attachments);
  }

  /** The runs' file checkpoints (issue #26: rewind). */
  get checkpoints(): TurnCheckpoints {
    return this.parts.checkpoints;
  }

  listProviders(): Promise<readonly ProviderChoice[]> {
    return agencyProxyProviders(this.requireClient());
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
    // A run shown from its summary is loaded first: its records rebuild what may be acked (the stored sequences, the
    // approvals answered), which a summary does not keep.
    await this.runs.history.load(runId);
    if (!(await this.runs.claim(runId, true))) {
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
    return this.sync.refresh(this.requireClient());
  }

  /** The connection's name, as the user named it (for views titled after it). */
  get connectionName(): string {
    return this.ctx.profile.name;
  }

  /** Provider account usage as the daemon reports it (provider-specific; shown raw). */
  readAccountUsage(): Promise<readonly { provider: string; supported: boolean; usage: unknown; error: string | null }[]> {
    return agencyProxyAccountUsage(this.requireClient());
  }

  /** Stops the daemon only when no run is active (`conflict` otherwise, said plainly). */
  shutdownIfIdle(): Promise<void> {
    return stopAgencyProxy(this.requireClient(), 'if idle');
  }

  /** Stops the daemon (drain lets runs finish; terminate cancels them). */
  shutdown(mode: 'drain' | 'terminate'): Promise<void> {
    return stopAgencyProxy(this.requireClient(), mode);
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
    client.onEvent((frame) => this.folder.foldFrame(frame));
    client.onReadEnd(() => this.folder.endRead());
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

  // --- after a reload (agencyProxyRunStorage.ts) --------------------------------------------------------------------

  /**
   * This window took over a run whose journal does not end where its model stands (issue #25 §1): its live events
   * are dropped while it comes back from the journal, then it is attached again after the journal's end — the daemon
   * resends what follows (only the writer acks, only what its journal holds) — and this window journals it once.
   */
  private async rejoin(runId: string): Promise<void> {
    this.folder.gate(runId, 'none');
    try {
      if (!(await this.runs.history.rejoin(runId))) {
        return;
      }
      const client = this.client;
      if (client?.isOpen) {
        this.folder.gate(runId, 'next only');
        await this.attachments.attach(client, runId);
      }
    } finally {
      this.folder.gate(runId, undefined);
    }
  }

  /**
   * Rebuilds stored runs once, before the first connect (finished ones from their summary); then follows what other
   * editor windows of this machine add to the run index (a new run shows here within a second, not at the next poll).
   */
  protected override loadStorage(): Promise<void> {
    return this.storage.load(() => {
      const stop = this.runs.watchOtherWindows(() => {
        if (this.client?.isOpen && !this.isDisposed) {
          this.refresh().catch((error: unknown) => this.isDisposed || this.ctx.log.warn(`Following another window's runs: ${String(error)}`));
        }
      });
      this.driverScope.add(toDisposable(stop));
    });
  }

  /** A snapshot still being taken is waited for: its git writes must not outlive the driver (or a test's folder). */
  protected override closeStorage(): Promise<void> {
    return this.parts.checkpoints.settled().then(() => super.closeStorage());
  }
}

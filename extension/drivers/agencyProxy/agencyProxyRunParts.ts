/**
 * What the parts of the AgencyProxy driver share: the connection's runs, the books kept beside the model (acks,
 * ownership, activity, local change sets) and what the driver adds to the kit's door (acks wait for what is stored). The driver builds one
 * and hands it to the parts it composes (attachments, event folding, run start), so none of them reaches into the
 * driver class itself (`agencyProxyRunParts` builds them).
 */
import type { DisposableStore } from '../../base/emitter';
import type { RunEvent } from '../../model/modelActions';
import type { DriverContext, DriverLog } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import { windowIdOf } from '../kit/runJournaling';
import { TurnCheckpoints } from '../kit/turnCheckpoints';
import { AckTracker } from './ackTracker';
import { AgencyProxyLocalChanges } from './agencyProxyLocalChanges';
import type { AgencyProxyCursor, AgencyProxyFold } from './agencyProxyRecords';
import type { AgencyProxyClient } from './client';
import { RunActivityBook } from './runActivityBook';
import { RunOwnership } from './runOwnership';

export interface AgencyProxyRunParts {
  readonly runs: DriverRuns<AgencyProxyCursor>;
  readonly log: DriverLog;
  readonly acks: AckTracker;
  /** Runs this editor may acknowledge (started here or adopted), and their provider sessions (runOwnership.ts). */
  readonly ownership: RunOwnership;
  /** Answering or waiting for input: the daemon's snapshot cannot tell (runActivity.ts). */
  readonly activity: RunActivityBook;
  readonly localChanges: AgencyProxyLocalChanges;
  /** The runs' file checkpoints (issue #26): at the start, each `message_boundary` and the terminal event. */
  readonly checkpoints: TurnCheckpoints;
  /** Folds a daemon event's inputs and journals them; the event counts as stored for acks once on disk. */
  storeEvent(runId: string, sequence: number, inputs: AgencyProxyFold['inputs']): void;
  /** Stores the run's fields and extras in the journal's index. */
  saveRun(runId: string): Promise<void>;
  /** Folds an event the editor made itself (a prompt, a decision) and journals it. */
  recordLocal(runId: string, event: RunEvent): Promise<void>;
  /** Marks the run's pending approvals expired (the daemon no longer waits for them) and stops holding acks for them. */
  expireApprovals(runId: string, reason: string): Promise<void>;
}


/** What the parts need of the driver that builds them. */
export interface AgencyProxyDriverHooks {
  /** The open client, if any (acks go out on it). */
  client(): AgencyProxyClient | undefined;
  /** The driver's cleanup scope (the ack timers end with the driver). */
  readonly scope: DisposableStore;
}

/** Builds the parts of one driver: its books, and how events, fields and expiries go through its door. */
export function agencyProxyRunParts(ctx: Pick<DriverContext, 'log' | 'windowId' | 'storageDir' | 'connectionId'>, runs: DriverRuns<AgencyProxyCursor>, driver: AgencyProxyDriverHooks): AgencyProxyRunParts {
  const ownership = new RunOwnership(windowIdOf(ctx));
  const acks = driver.scope.add(
    new AckTracker(
      // Observed runs are never acked: an ack deletes the journal another client may still need (WIRE.md 1.9); nor
      // runs another window of this machine journals (its journal, not ours, must hold what is acked).
      (runId, through) => {
        const client = driver.client();
        return client?.isOpen && ownership.owns(runId) && runs.writes(runId) ? client.ackEvents(runId, through) : undefined;
      },
      (message) => ctx.log.warn(message),
      undefined,
      (runId) => runs.journaledThrough(runId),
    ),
  );
  const activity = new RunActivityBook();
  const saveRun = (runId: string): Promise<void> => runs.saveRun(runId, { ...ownership.extraOf(runId), ...activity.extraOf(runId), ...localChanges.extraOf(runId) });
  const localChanges = new AgencyProxyLocalChanges(runs, ctx.log, saveRun);
  return {
    runs,
    log: ctx.log,
    acks,
    ownership,
    activity,
    localChanges,
    checkpoints: driver.scope.add(new TurnCheckpoints(ctx, runs)),
    storeEvent: (runId, sequence, inputs) => {
      runs.record(runId, inputs).then(
        () => {
          acks.stored(runId, sequence);
          acks.schedule(runId);
        },
        (error: unknown) => ctx.log.error(`Could not store run ${runId} (events stay unacknowledged): ${String(error)}`),
      );
    },
    saveRun,
    recordLocal: (runId, event) => runs.event(runId, event),
    expireApprovals: async (runId, reason) => {
      await runs.expireApprovals(runId, reason);
      acks.approvalsGone(runId);
    },
  };
}

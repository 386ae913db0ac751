/**
 * What the parts of the AgencyProxy driver share: the connection's runs, the books kept beside the model (acks,
 * ownership, activity, local change sets) and what the driver adds to the kit's door (acks wait for what is stored). The driver builds one
 * and hands it to the parts it composes (attachments, event folding, run start), so none of them reaches into the
 * driver class itself.
 */
import type { RunEvent } from '../../model/modelActions';
import type { DriverLog } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import type { AckTracker } from './ackTracker';
import type { AgencyProxyLocalChanges } from './agencyProxyLocalChanges';
import type { AgencyProxyCursor, AgencyProxyFold } from './agencyProxyRecords';
import type { RunActivityBook } from './runActivityBook';
import type { RunOwnership } from './runOwnership';

export interface AgencyProxyRunParts {
  readonly runs: DriverRuns<AgencyProxyCursor>;
  readonly log: DriverLog;
  readonly acks: AckTracker;
  /** Runs this editor may acknowledge (started here or adopted), and their provider sessions (runOwnership.ts). */
  readonly ownership: RunOwnership;
  /** Answering or waiting for input: the daemon's snapshot cannot tell (runActivity.ts). */
  readonly activity: RunActivityBook;
  readonly localChanges: AgencyProxyLocalChanges;
  /** Folds a daemon event's inputs and journals them; the event counts as stored for acks once on disk. */
  storeEvent(runId: string, sequence: number, inputs: AgencyProxyFold['inputs']): void;
  /** Stores the run's fields and extras in the journal's index. */
  saveRun(runId: string): Promise<void>;
  /** Folds an event the editor made itself (a prompt, a decision) and journals it. */
  recordLocal(runId: string, event: RunEvent): Promise<void>;
  /** Marks the run's pending approvals expired (the daemon no longer waits for them) and stops holding acks for them. */
  expireApprovals(runId: string, reason: string): Promise<void>;
}


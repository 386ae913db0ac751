/**
 * What the parts of the A3S driver share: the connection's runs, each run's book (session, cursor, poller,
 * recovery links: a3sRunBook.ts), the harness client while it is ready, the run identity every request carries,
 * and what the editor itself adds to a run. The driver builds one and hands it to the parts it composes (run following,
 * commands), so none of them reaches into the driver class itself.
 */
import type { RunEvent } from '../../model/modelActions';
import type { A3sRunIdentity } from '../../protocol/a3s';
import type { DriverLog } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import type { TurnCheckpoints } from '../kit/turnCheckpoints';
import type { A3sCursor } from './a3sJournal';
import type { A3sRunBook } from './a3sRunBook';
import type { A3sClient } from './client';

/** Timings, overridable by tests. */
export interface A3sDriverOptions {
  readonly healthIntervalMs?: number;
  readonly pollActiveMs?: number;
  readonly pollMaxMs?: number;
  readonly reconnectBaseMs?: number;
  readonly changeSetInitialDelayMs?: number;
  readonly changeSetMaxDelayMs?: number;
  readonly requestTimeoutMs?: number;
}

/** The side panel that offers "Recover" on a stranded run. */
export const A3S_RECOVER_PANEL = 'a3s.recover';

export interface A3sRunParts {
  readonly runs: DriverRuns<A3sCursor>;
  readonly log: DriverLog;
  readonly books: Map<string, A3sRunBook>;
  readonly options: A3sDriverOptions;
  /**
   * The runs' file checkpoints (issue #26) of their workspace folder, when they have one: at the start and at the
   * terminal state (A3S reports no turns of its own).
   */
  readonly checkpoints: TurnCheckpoints;
  /** The client while the harness is ready (undefined otherwise). */
  readyClient(): A3sClient | undefined;
  /** The ready client, or a `DriverError` saying the harness is not ready. */
  requireReady(): A3sClient;
  identity(book: A3sRunBook): A3sRunIdentity;
  /** Stores the run's fields and book in the journal's index. */
  saveRun(book: A3sRunBook): Promise<void>;
  /** Folds an event the editor made itself (a prompt, a notice) and journals it. */
  recordLocal(runId: string, event: RunEvent): Promise<void>;
}

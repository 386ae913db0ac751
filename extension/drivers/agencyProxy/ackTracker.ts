/**
 * What the AgencyProxy driver may acknowledge, per run. `ack_events` deletes the daemon's journal for every client
 * (WIRE.md 1.9), so the driver acks only through the highest sequence it has durably stored, and never past an
 * unanswered approval request (a reloaded editor must be able to show it again). Acks are debounced.
 */
interface RunBook {
  /** Highest sequence durably journaled. */
  durable: number;
  /** Highest sequence acknowledged to the daemon. */
  acked: number;
  /** Sequence of each unanswered approval request. */
  readonly approvalSeq: Map<string, number>;
  /** Messages injected so far (numbers the idempotency keys). */
  injected: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** What a checkpoint keeps of a run's book. */
export interface SavedAcks {
  readonly durable: number;
  readonly approvals: readonly (readonly [string, number])[];
  readonly injected: number;
}

export type AckSender = (runId: string, through: number) => Promise<void> | undefined;

export class AckTracker {
  private readonly books = new Map<string, RunBook>();

  /** `send` returns undefined when there is no connection to ack on (the ack waits for the next event). */
  constructor(
    private readonly send: AckSender,
    private readonly onError: (message: string) => void,
    private readonly debounceMs = 200,
    /**
     * The last sequence the run's journal durably holds, as its writer knows it (kit DriverRuns.journaledThrough): an
     * ack never goes past it, whatever this window folded in memory (issue #25 §1). Absent: `stored` alone.
     */
    private readonly journaled?: (runId: string) => number,
  ) {}

  stored(runId: string, sequence: number): void {
    const book = this.book(runId);
    book.durable = Math.max(book.durable, sequence);
  }

  approvalRequested(runId: string, approvalId: string, sequence: number): void {
    this.book(runId).approvalSeq.set(approvalId, sequence);
  }

  approvalAnswered(runId: string, approvalId: string): void {
    this.book(runId).approvalSeq.delete(approvalId);
  }

  /** The run ended: no approval can block its ack any more. */
  approvalsGone(runId: string): void {
    this.book(runId).approvalSeq.clear();
  }

  /** The number for the next injected message (1-based), counting those already sent. */
  nextInjection(runId: string): number {
    const book = this.book(runId);
    book.injected += 1;
    return book.injected;
  }

  /** The run's books as a checkpoint keeps them (what a replay of its records rebuilds; kit/runCheckpoints.ts). */
  saved(runId: string): SavedAcks {
    const book = this.book(runId);
    return { durable: book.durable, approvals: [...book.approvalSeq], injected: book.injected };
  }

  /** Puts back what `saved` gave, as the replay of the records it stands for would. */
  restore(runId: string, saved: SavedAcks): void {
    const book = this.book(runId);
    book.durable = Math.max(book.durable, saved.durable);
    for (const [approvalId, sequence] of saved.approvals) {
      book.approvalSeq.set(approvalId, sequence);
    }
    book.injected = Math.max(book.injected, saved.injected);
  }

  /** Highest sequence that may be acknowledged now. */
  ackableThrough(runId: string): number {
    const book = this.book(runId);
    const journaled = this.journaled?.(runId) ?? Number.POSITIVE_INFINITY;
    return Math.min(book.durable, journaled, ...[...book.approvalSeq.values()].map((s) => s - 1));
  }

  /** Acks (debounced) through `ackableThrough`. */
  schedule(runId: string): void {
    const book = this.book(runId);
    if (book.timer) {
      return;
    }
    book.timer = setTimeout(() => {
      book.timer = undefined;
      const through = this.ackableThrough(runId);
      if (through <= book.acked) {
        return;
      }
      this.send(runId, through)?.then(
        () => {
          book.acked = Math.max(book.acked, through);
        },
        (error: unknown) => this.onError(`ack ${runId} through ${through}: ${String(error)}`),
      );
    }, this.debounceMs);
  }

  /** The run was removed: its book goes, and an ack still scheduled for it is not sent. */
  forget(runId: string): void {
    const book = this.books.get(runId);
    if (book?.timer) {
      clearTimeout(book.timer);
    }
    this.books.delete(runId);
  }

  dispose(): void {
    for (const book of this.books.values()) {
      if (book.timer) {
        clearTimeout(book.timer);
      }
    }
  }

  private book(runId: string): RunBook {
    let book = this.books.get(runId);
    if (!book) {
      book = { durable: 0, acked: 0, approvalSeq: new Map(), injected: 0 };
      this.books.set(runId, book);
    }
    return book;
  }
}

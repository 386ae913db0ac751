/**
 * Which runs this window journals (issue #25 §1: one writer per run journal). Every editor window of this machine
 * folds the runs it follows into its own model, but only the holder of a run's writer lease (storage/runWriterLease.ts)
 * appends its records and writes its checkpoint; every other window is a reader of that run: it shows the run from
 * the journal it loaded and the daemon's live events, in memory only.
 *
 * When: a run's role is decided at its first record in this window (the window that starts a run, or the first to
 * record a run nobody on this machine writes, takes the lease), and a reader asks again at most every PROBE_MS (or
 * at once after `probeSoon`, e.g. when the lease file changed): the writer may have reloaded, closed or crashed.
 *
 * Taking over must continue the file exactly: the new writer appends only when the journal ends where its model of
 * the run stands (the last sequence in the file is the one the model held before the records at hand). A reader that
 * folded events the old writer never stored cannot fill that hole from memory (its records fold chunks differently).
 * With a driver that can follow a run again from a sequence (`behind`), it keeps the lease and rejoins: the records
 * at hand are not written, the run comes back from the file as a reload would bring it, and the driver follows it
 * again after the file's end — the daemon still holds those events, since only the writer acks, and only what its
 * journal holds (`rejoined` then makes this window the writer). Without one, it lets the lease go again and stays a
 * reader; its next reload replays the journal and re-attaches after its end.
 */
import type { LeaseHolder } from '../../storage/runWriterLease';
import type { RunJournal } from '../../storage/runJournal';

/** How often a reader asks whether it may take a run's lease over. */
export const PROBE_MS = 2_000;
/**
 * How long a lease its window released (closed the connection cleanly: a reload, or the window closed) stays that
 * window's: ownership survives a reload, which brings the same window back — within seconds on a quiet machine, but a
 * reload measured 46 and 87 s on a saturated one (two cores, a test suite and five builds), and a 30 s grace let the
 * other window take the run over mid-reload. Waiting longer loses nothing: while nobody writes the run nobody acks
 * it, so the daemon keeps its events and the window that takes it over afterwards rejoins from the journal's end
 * (runWriters `behind`). A window whose host died left a lease with a dead pid: that one may be taken over at once.
 */
export const RELOAD_GRACE_MS = 180_000;

export interface RunWritersOptions {
  readonly journal: RunJournal;
  readonly now: () => number;
  /** The last daemon sequence the file holds (read on to its end). */
  journalEnd(runId: string): Promise<number>;
  /** Told once per run why this window does not write it. */
  readonly info: (message: string) => void;
  /** This window now writes the run (started it, or took it over from `previous`). */
  readonly writing?: (runId: string, previous: LeaseHolder | undefined) => void;
  /**
   * This window took the run's lease over, but the file ends at `journalEnd` and not where its model stands: the run
   * must come back from the file and be followed again from there, then `rejoined` (see the file comment).
   */
  readonly behind?: (runId: string, journalEnd: number) => void;
}

interface Role {
  writer: boolean;
  probedAt: number;
  told: boolean;
}

export class RunWriters {
  private readonly roles = new Map<string, Role>();
  /** A decision under way per run: records of the run wait for it, in order. */
  private readonly deciding = new Map<string, Promise<boolean>>();
  /**
   * Runs whose lease this window holds while they come back from the file (`behind`): the previous holder, and what
   * a caller that waits for the outcome (adopting the run) is told.
   */
  private readonly rejoining = new Map<string, { readonly previous: LeaseHolder | undefined; readonly done: Promise<boolean>; readonly settle: (writer: boolean) => void }>();

  constructor(private readonly o: RunWritersOptions) {}

  /** Whether this window writes the run now (a decision under way counts as not yet). */
  writes(runId: string): boolean {
    return this.roles.get(runId)?.writer === true && this.o.journal.writes(runId);
  }

  /**
   * Whether the run's records at hand are journaled here: true at once for a writer, a pending decision for a run not
   * decided yet or a reader due to ask again, false for a reader. `before`: the last sequence the model held before
   * these records (the journal must end there to be continued; undefined: not known, not checked). `now`: a reader
   * asks at once, however recently it asked (a person wants the run: adopting it).
   */
  decide(runId: string, before: number | undefined, now = false): boolean | Promise<boolean> {
    const pending = this.deciding.get(runId);
    if (pending) {
      return pending;
    }
    if (this.rejoining.has(runId)) {
      return false; // what arrives now is followed again from the file's end
    }
    const role = this.roles.get(runId);
    if (role?.writer && this.o.journal.writes(runId)) {
      return true;
    }
    if (role && !now && this.o.now() - role.probedAt < PROBE_MS) {
      return false;
    }
    const decision = this.takeIfContinuous(runId, before).then(
      (writer) => {
        this.deciding.delete(runId);
        return writer;
      },
      () => {
        this.deciding.delete(runId);
        return false;
      },
    );
    this.deciding.set(runId, decision);
    return decision;
  }

  /** Readers ask again at their next record (the lease file changed: its writer may be gone). */
  probeSoon(): void {
    for (const role of this.roles.values()) {
      if (!role.writer) {
        role.probedAt = Number.NEGATIVE_INFINITY;
      }
    }
  }

  /**
   * The run came back from its file and is followed again from its end (`ok`): this window writes it from now on.
   * Not `ok` (it could not be read back): the lease goes, and the run stays a reader's until a reload.
   */
  async rejoined(runId: string, ok: boolean): Promise<void> {
    if (!this.rejoining.has(runId)) {
      return;
    }
    const { previous, settle } = this.rejoining.get(runId)!;
    this.rejoining.delete(runId);
    const role = this.roles.get(runId);
    if (!ok || !role || !this.o.journal.writes(runId)) {
      await this.o.journal.releaseLease(runId);
      settle(false);
      return;
    }
    role.writer = true;
    this.o.writing?.(runId, previous);
    settle(true);
  }

  /** Once a rejoin of the run under way is through: whether this window writes the run (false: no rejoin under way). */
  whenRejoined(runId: string): Promise<boolean> {
    return this.rejoining.get(runId)?.done ?? Promise.resolve(false);
  }

  /** The run is gone (removed): nothing is known of it any more. */
  forget(runId: string): void {
    this.roles.delete(runId);
    this.rejoining.get(runId)?.settle(false);
    this.rejoining.delete(runId);
  }

  private async takeIfContinuous(runId: string, before: number | undefined): Promise<boolean> {
    const role: Role = this.roles.get(runId) ?? { writer: false, probedAt: 0, told: false };
    this.roles.set(runId, role);
    role.probedAt = this.o.now();
    const outcome = await this.o.journal.takeLease(runId, RELOAD_GRACE_MS);
    if (outcome.kind === 'removed') {
      return false; // another window removed it: nobody writes it (its model drops it: RunHistory.dropRemovedElsewhere)
    }
    if (outcome.kind !== 'taken') {
      if (!role.told) {
        role.told = true;
        this.o.info(`Run ${runId} is journaled by another editor window (${outcome.holder.window}, pid ${outcome.holder.pid}${outcome.holder.releasedAt !== undefined ? ', closed moments ago' : ''}); this window shows it without writing it.`);
      }
      return false;
    }
    const end = await this.o.journalEnd(runId);
    if (before !== undefined && end !== before && this.o.behind) {
      let settle: (writer: boolean) => void = () => undefined;
      const done = new Promise<boolean>((resolve) => (settle = resolve));
      this.rejoining.set(runId, { previous: outcome.previous, done, settle });
      this.o.behind(runId, end);
      return false;
    }
    if (before !== undefined && end !== before) {
      await this.o.journal.releaseLease(runId);
      if (!role.told) {
        role.told = true;
        this.o.info(`Run ${runId}: its journal ends at event ${end}, this window is at ${before}; it is not written here until this window reloads it.`);
      }
      return false;
    }
    role.writer = true;
    this.o.writing?.(runId, outcome.previous);
    return true;
  }
}

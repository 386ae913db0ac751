/**
 * When the user last looked at each run (issue #26, "what happened while you were away"): the time, and the
 * signatures its change set's files had then (model/changeSetSignatures.ts), so the board can say which files changed
 * since — by content, so a change set merely computed again (each answer, each reload) changes nothing. Selecting a
 * run on the board or in the tree, or the Transcript view showing it, marks it seen (ui/board/runBoard.ts); so does
 * *Mark All Runs Seen*. Kept in the extension's global state, as the board's acknowledgements are, so every window
 * of the user agrees; a removed run's record goes with it (ui/removedRuns.ts). Pure (no `vscode`): the caller passes
 * the Memento.
 */
import * as z from 'zod/mini';
import { Emitter } from '../../base/emitter';
import type { AcknowledgementMemento } from './boardAcknowledgements';

/** What the user saw of a run, and when. */
export interface SeenRecord {
  /** When (ms). */
  readonly at: number;
  /** Its change set's files then, path → signature (at most `MAX_SEEN_FILES`). */
  readonly signatures: Readonly<Record<string, string>>;
}

const KEY = 'agentSwitchboard.board.seen';
/** Runs kept, the least recently seen dropped first (a dropped run counts from when the feature first ran). */
export const MAX_SEEN_RUNS = 300;
/** Files kept per run: more is a bulk rewrite, and the rest then count as changed (never as seen). */
export const MAX_SEEN_FILES = 500;

interface StoredSeen {
  readonly since: number;
  readonly runs: Record<string, SeenRecord>;
}

export class SeenRuns {
  private readonly runs = new Map<string, SeenRecord>();
  /** When this editor first kept seen state: a run older than that, never seen since, has nothing to report. */
  readonly since: number;
  private readonly changeEmitter = new Emitter<void>();
  /** A record was added, replaced or forgotten. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly memento: AcknowledgementMemento,
    now: number,
  ) {
    const stored = readStored(memento.get<unknown>(KEY));
    this.since = stored?.since ?? now;
    for (const [key, record] of Object.entries(stored?.runs ?? {})) {
      this.runs.set(key, record);
    }
    if (!stored) {
      this.save();
    }
  }

  get(runKey: string): SeenRecord | undefined {
    return this.runs.get(runKey);
  }

  /**
   * The user looks at the run now, with its change set's files as they are. False (nothing written) when the record
   * already says as much.
   */
  mark(runKey: string, signatures: ReadonlyMap<string, string>, at: number): boolean {
    const previous = this.runs.get(runKey);
    const kept: Record<string, string> = {};
    let n = 0;
    for (const [path, signature] of signatures) {
      if (n++ >= MAX_SEEN_FILES) {
        break;
      }
      kept[path] = signature;
    }
    if (previous && previous.at >= at && sameSignatures(previous.signatures, kept)) {
      return false;
    }
    this.runs.delete(runKey); // re-inserted last: insertion order is the least recently seen first
    this.runs.set(runKey, { at, signatures: kept });
    while (this.runs.size > MAX_SEEN_RUNS) {
      this.runs.delete(this.runs.keys().next().value!);
    }
    this.save();
    this.changeEmitter.fire();
    return true;
  }

  /** Forgets the run (it was removed). */
  forget(runKey: string): void {
    if (this.runs.delete(runKey)) {
      this.save();
      this.changeEmitter.fire();
    }
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private save(): void {
    const value: StoredSeen = { since: this.since, runs: Object.fromEntries(this.runs) };
    void Promise.resolve(this.memento.update(KEY, value)).catch(() => undefined);
  }
}

function sameSignatures(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

// Storage is a trust boundary: anything malformed counts as nothing seen; a bad entry alone is dropped, and a bad
// signature alone within an entry.
const entrySchema = z.object({ at: z.number(), signatures: z.record(z.string(), z.unknown()) });
const storedSchema = z.object({ since: z.number(), runs: z.record(z.string(), z.unknown()) });

function readStored(value: unknown): StoredSeen | undefined {
  const stored = storedSchema.safeParse(value);
  if (!stored.success) {
    return undefined;
  }
  const runs: Record<string, SeenRecord> = {};
  for (const [key, entry] of Object.entries(stored.data.runs)) {
    const e = entrySchema.safeParse(entry);
    if (e.success) {
      const signatures = Object.fromEntries(Object.entries(e.data.signatures).filter((s): s is [string, string] => typeof s[1] === 'string'));
      runs[key] = { at: e.data.at, signatures };
    }
  }
  return { since: stored.data.since, runs };
}

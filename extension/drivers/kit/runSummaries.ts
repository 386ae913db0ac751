/**
 * A run's summary in the run index (issue #25 §2): what the board and the tree show of a finished run — its counts,
 * usage, last line and change stats — so that at connect a finished run comes back from its index entry alone, and
 * its journal is read only when someone opens it (driverRuns.ts `load`). Written with every `saveRun` and, at
 * close, for every loaded run of the connection (one coalesced index write). Read back leniently: a summary that does
 * not parse is ignored and the run is replayed whole, as before summaries existed.
 */
import * as z from 'zod/mini';
import type { RunSummaryCounts } from '../../model/modelActions';
import type { ChangeSetInfo, RunDigest, RunInfo } from '../../model/modelTypes';
import type { TranscriptTail } from '../../model/lastOutputLine';
import { lastOutputLine } from '../../model/lastOutputLine';
import { changeSetSignatures } from '../../model/changeSetSignatures';
import { itemCountOf } from '../../model/runQueries';
import { runUsageSchema } from '../../protocol/runUsage';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import { storedStateOf } from './runJournaling';

const storedSummarySchema = z.object({
  v: z.literal(1),
  /** Transcript items (the run's item count). */
  items: z.int().check(z.nonnegative()),
  lastSequence: z.number().check(z.nonnegative()),
  /** Approvals that waited for a person when it was saved: such a run is always loaded whole. */
  pendingApprovals: z.int().check(z.nonnegative()),
  lastLine: z.optional(z.string()),
  changes: z.optional(z.object({ added: z.int(), removed: z.int() })),
  usage: z.optional(runUsageSchema),
  /** When the run last had a new item or sequence, as far as the summaries saw (ms): what retention ages it by. */
  activeAt: z.number(),
  /** Its change set's files → signatures, for the board's "since you looked" while it is not loaded (capped). */
  files: z.optional(z.record(z.string(), z.string())),
  /** The files its agent said it edited → when (capped). */
  reported: z.optional(z.record(z.string(), z.number())),
  /** Its local change set's repository (the tree it may share with other runs). */
  repo: z.optional(z.string()),
});
export type StoredSummary = z.infer<typeof storedSummarySchema>;

/** The summary of a run as the model holds it now (its transcript, when loaded, gives the last line). */
export function summaryOf(run: RunInfo, transcript: TranscriptTail | undefined, changeSet: ChangeSetInfo | undefined, now: number, previous?: StoredSummary, recordedAt?: number): StoredSummary {
  // Saving again (every close saves every loaded run's) does not make a run younger: only new items or events do,
  // and they date it by when they were recorded (`recordedAt`, this window's last record of it), not by the save —
  // a close saving runs whose last record came after their last save would otherwise date them all alike.
  const same = previous !== undefined && previous.items === itemCountOf(run) && previous.lastSequence === run.lastSequence;
  const lastLine = transcript ? lastOutputLine(transcript) : run.unloaded?.lastLine;
  const changes = changeSet ? changeLineCounts(changeSet) : run.unloaded?.changes;
  const files = changeSet ? capped(Object.fromEntries(changeSetSignatures(changeSet))) : run.unloaded?.fileSignatures;
  const reported = run.reportedEdits ? capped(run.reportedEdits) : run.unloaded?.reportedEdits;
  const repo = changeSet?.repo ?? run.unloaded?.repo;
  return {
    v: 1,
    items: itemCountOf(run),
    lastSequence: run.lastSequence,
    pendingApprovals: run.pendingApprovals.length,
    ...(lastLine !== undefined ? { lastLine } : {}),
    ...(changes !== undefined ? { changes } : {}),
    ...(run.usage !== undefined ? { usage: run.usage } : {}),
    activeAt: same ? previous.activeAt : (recordedAt ?? now),
    ...(files !== undefined && Object.keys(files).length > 0 ? { files } : {}),
    ...(reported !== undefined ? { reported } : {}),
    ...(repo !== undefined ? { repo } : {}),
  };
}

/** Files a summary keeps of each kind: the index holds every run's summary, so it stays small. */
export const MAX_SUMMARY_FILES = 200;

/** The last `MAX_SUMMARY_FILES` entries (insertion order: the newest reports last). */
function capped<V>(record: Readonly<Record<string, V>>): Record<string, V> {
  const entries = Object.entries(record);
  return Object.fromEntries(entries.length > MAX_SUMMARY_FILES ? entries.slice(-MAX_SUMMARY_FILES) : entries);
}

/** The index entry's summary, when it has one this code reads. */
export function storedSummaryOf(stored: StoredRun): StoredSummary | undefined {
  // Asked several times per run at connect (retention, whether it is cold, its counts): parsed once per entry read.
  if (parsedSummaries.has(stored)) {
    return parsedSummaries.get(stored);
  }
  const parsed = storedSummarySchema.safeParse(stored.summary);
  const summary = parsed.success ? parsed.data : undefined;
  parsedSummaries.set(stored, summary);
  return summary;
}

/** Index entries are read into new objects and never changed in place: a parse holds for the object's life. */
const parsedSummaries = new WeakMap<StoredRun, StoredSummary | undefined>();

/**
 * The summary a stored run may come back from without its transcript: a finished run (its index says so) with
 * nothing waiting for a person. Anything else — live, waiting, or no readable summary — is replayed at connect.
 */
export function coldSummaryOf(stored: StoredRun): StoredSummary | undefined {
  const summary = storedSummaryOf(stored);
  return summary && summary.pendingApprovals === 0 && isTerminalRunState(storedStateOf(stored)) ? summary : undefined;
}

/**
 * What a connect reads of an index entry without validating it (issue #25 §2: an entry is validated when its run is
 * loaded, not every entry at every connect): whether it may come back from its summary — a finished state, a summary
 * of this version with nothing waiting for a person — and when it was last active (what retention ages it by). A
 * peeked run whose summary then fails validation is replayed whole, as one without a summary.
 */
export interface ColdPeek {
  readonly activeAt: number;
  /** Its summary keeps change stats (`changes`). */
  readonly hasChanges: boolean;
}

/** The peek of a run that may come back from its summary (see ColdPeek); undefined: it is loaded whole. */
export function peekColdSummary(stored: StoredRun): ColdPeek | undefined {
  const summary = stored.summary as { v?: unknown; pendingApprovals?: unknown; activeAt?: unknown; changes?: unknown } | null | undefined;
  if (typeof summary !== 'object' || summary === null || summary.v !== 1 || summary.pendingApprovals !== 0 || typeof summary.activeAt !== 'number') {
    return undefined;
  }
  return isTerminalRunState(storedStateOf(stored)) ? { activeAt: summary.activeAt, hasChanges: summary.changes !== undefined } : undefined;
}

/** The model's counts of a summarized run. */
export function summaryCountsOf(summary: StoredSummary): RunSummaryCounts {
  return { itemCount: summary.items, lastSequence: summary.lastSequence, ...(summary.usage ? { usage: summary.usage } : {}), digest: digestOf(summary) };
}

/** What the board shows of an unloaded run. */
export function digestOf(summary: Pick<StoredSummary, 'lastLine' | 'changes'> & Partial<Pick<StoredSummary, 'files' | 'reported' | 'repo' | 'activeAt'>>): RunDigest {
  return {
    ...(summary.lastLine !== undefined ? { lastLine: summary.lastLine } : {}),
    ...(summary.changes ? { changes: summary.changes } : {}),
    ...(summary.files ? { fileSignatures: summary.files } : {}),
    ...(summary.reported ? { reportedEdits: summary.reported } : {}),
    ...(summary.repo !== undefined ? { repo: summary.repo } : {}),
    ...(summary.activeAt !== undefined && (summary.files !== undefined || summary.reported !== undefined) ? { activeAt: summary.activeAt } : {}),
  };
}

/**
 * `+N −M` of a ready change set: the `+`/`-` lines inside its hunks. The board counts the same lines from the parsed
 * patch (ui/board/boardChangeStats.ts); the kit may not import the UI, and this needs no parse.
 */
export function changeLineCounts(changeSet: ChangeSetInfo): { added: number; removed: number } | undefined {
  if (changeSet.status !== 'ready' || changeSet.patch === undefined) {
    return undefined;
  }
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of changeSet.patch.split('\n')) {
    if (line.startsWith('@@')) {
      inHunk = true;
    } else if (line.startsWith('diff ')) {
      inHunk = false;
    } else if (inHunk && line.startsWith('+')) {
      added += 1;
    } else if (inHunk && line.startsWith('-')) {
      removed += 1;
    }
  }
  return { added, removed };
}

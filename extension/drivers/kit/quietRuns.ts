/**
 * Live runs nobody is looking at, brought back at connect without their transcript (issue #25: a window reload costs
 * what it shows, not every open run's 100k items). A run idle at its checkpoint — waiting for the user's next
 * message: nothing streams into it until the user writes — may, when its driver's policy says so
 * (`RestorePolicy.quiet`: an AgencyProxy run this window owns). Such a run
 * comes back from its checkpoint's head — its fields, counts and sequence, and the driver's books, exactly as the
 * checkpoint took them (acks, activity, the next injection's key) — with its index summary's digest for the board
 * (last line, change stats); its items are not parsed. The first view that shows it, or any news for it
 * (DriverRuns.record → RunHistory.load), restores it whole first, as a finished run shown from its summary is.
 *
 * Anything that does not fit goes the usual way, replayed now: no usable checkpoint, records after it other than
 * fields (a daemon's run list restating a state changes no transcript), a summary not taken at the checkpoint's
 * sequence, an approval waiting (a person must see it with its transcript).
 */
import { itemCountOf } from '../../model/runQueries';
import { runKeyOf } from '../../model/runKeys';
import type { StoredRun } from '../../storage/runJournal';
import type { RunInput } from './journalRecords';
import { isCurrentRecord, runInputOf } from './journalRecords';
import type { MutableStats, ReplayHandlers, ReplaySource } from './runReplay';
import { digestOf } from './runSummaries';
import type { StoredSummary } from './runSummaries';

/**
 * Restores `stored` without its transcript if it can (see the file comment); false: nothing of it was restored, and
 * it must be replayed. `summary`: its index summary (the policy's `quiet` said it may come back so).
 */
export async function restoreQuietRun<C>(source: ReplaySource<C>, stored: StoredRun, handlers: ReplayHandlers<C>, summary: StoredSummary, stats: MutableStats): Promise<boolean> {
  const checkpoints = source.checkpoints;
  const peeked = await checkpoints?.peek(stored.runId);
  if (!checkpoints || !peeked) {
    return false;
  }
  const { run } = peeked.head;
  if (run.state !== 'idle' || run.pendingApprovals.length > 0 || run.lastSequence !== summary.lastSequence || itemCountOf(run) !== summary.items) {
    return false; // at work, waiting for a person, or a summary of another moment (a window that did not close cleanly)
  }
  const tail: RunInput<C>[] = [];
  let more = false;
  const end = await source.journal.readLines(
    stored.runId,
    (line) => {
      const parsed = line.ok && isCurrentRecord(line.value) ? source.schema.safeParse(line.value) : undefined;
      const input = parsed?.success ? runInputOf(parsed.data) : undefined;
      if (input && 'fields' in input) {
        tail.push(input);
      } else {
        more = true; // news for the transcript, or a line to report: the replay reads it
      }
    },
    peeked.header.bytes,
  );
  if (more || source.store.state?.runs.has(runKeyOf(source.connectionId, stored.runId))) {
    return false;
  }
  if (!checkpoints.restoreUnloaded(stored.runId, peeked, digestOf(summary))) {
    return false;
  }
  for (const input of tail) {
    source.dispatch(stored.runId, input);
    handlers.record?.(stored.runId, input);
  }
  source.readTo(stored.runId, end);
  checkpoints.note(stored.runId, tail.length, true);
  stats.runs += 1;
  stats.checkpoints += 1;
  stats.quiet += 1;
  stats.records += tail.length;
  await handlers.close?.(stored);
  return true;
}

/**
 * The files a run has in its connection's directory: every one of them is named `<safeFileName(runId)>.<what>` —
 * the journal (`.jsonl`), its checkpoint (`.ckpt`), its writer lease (`.lease`, and `.lease.takeover` while one is
 * taken over), a driver's per-run cache (A3S's verified change set, `.changes.json`), the notes to the agent not sent
 * yet (`.notes.json`, reviewNoteFile.ts), the person's review marks of its change set (`.review.json`,
 * reviewMarksFile.ts), and the temporary files each of those is written through (`<name>.<pid>….tmp`).
 * `safeFileName` ends in a hash of the whole id followed by that dot, so the prefix names one run's files and no
 * other's: removal deletes by it, and a per-run file added later goes with its run without anyone remembering to
 * delete it.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from './runFileName';

/** The kinds of per-run files that hold the run's data (what retention by size counts). */
export type RunDataFile = 'jsonl' | 'ckpt' | 'changes.json';

const DATA_FILES: readonly RunDataFile[] = ['jsonl', 'ckpt', 'changes.json'];

/** The path of one of the run's files. */
export function runFileOf(dir: string, runId: string, what: RunDataFile): string {
  return join(dir, `${safeFileName(runId)}.${what}`);
}

/** The names of every file of the run in `dir` now. */
export async function runFileNames(dir: string, runId: string): Promise<string[]> {
  const prefix = `${safeFileName(runId)}.`;
  try {
    return (await readdir(dir)).filter((name) => name.startsWith(prefix));
  } catch {
    return []; // no directory: no files
  }
}

/**
 * Deletes every file of the run, its lease last (while the lease is there, no other window starts writing the run
 * again behind the delete).
 */
export async function removeRunFiles(dir: string, runId: string): Promise<void> {
  const lease = `${safeFileName(runId)}.lease`;
  const names = await runFileNames(dir, runId);
  await Promise.all(names.filter((name) => name !== lease).map((name) => rm(join(dir, name), { force: true })));
  await rm(join(dir, lease), { force: true });
}

/**
 * The bytes the run's data takes on disk (journal, checkpoint, cached change set), by a `stat` of each; `journal`: the
 * journal's length when the caller knows it (one `stat` fewer).
 */
export async function runDataBytes(dir: string, runId: string, journal?: number): Promise<number> {
  const sizes = await Promise.all(DATA_FILES.map(async (what) => {
    if (what === 'jsonl' && journal !== undefined) {
      return journal;
    }
    try {
      return (await stat(runFileOf(dir, runId, what))).size;
    } catch {
      return 0;
    }
  }));
  return sizes.reduce((a, b) => a + b, 0);
}

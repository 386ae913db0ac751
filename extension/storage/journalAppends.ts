/**
 * Writing a run's journal (runJournal.ts): what `append` queued for a run goes to its file as one batch (one append,
 * one fdatasync), then the next batch, until the queue is empty; the file's length is kept as it grows, so that a
 * checkpoint covers exactly the bytes written (and none while a batch may be half on disk).
 */
import { mkdir, open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

export interface PendingWrite {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A journal's write state, per run: its queue, whether a batch is being written, its open file, its known length. */
export interface RunWrites {
  readonly queues: Map<string, PendingWrite[]>;
  readonly writing: Set<string>;
  readonly handles: Map<string, FileHandle>;
  readonly sizes: Map<string, number>;
}

/** Writes everything queued for a run as one batch, then the next batch, until the queue is empty. */
export async function drainRun(state: RunWrites, dir: string, file: string, runId: string): Promise<void> {
  state.writing.add(runId);
  try {
    for (;;) {
      const batch = state.queues.get(runId)?.splice(0) ?? [];
      if (batch.length === 0) {
        return;
      }
      try {
        let handle = state.handles.get(runId);
        if (!handle) {
          await mkdir(dir, { recursive: true });
          handle = await open(file, 'a');
          state.handles.set(runId, handle);
          state.sizes.set(runId, (await handle.stat()).size);
        }
        const text = batch.map((w) => w.line).join('');
        await handle.appendFile(text);
        state.sizes.set(runId, (state.sizes.get(runId) ?? 0) + Buffer.byteLength(text));
        await handle.datasync();
        for (const w of batch) {
          w.resolve();
        }
      } catch (error) {
        // Part of the batch may be on disk: the file's length is no longer known (no checkpoint may trust it) until
        // the next write opens the file again and reads its length.
        state.sizes.delete(runId);
        void state.handles.get(runId)?.close().catch(() => undefined);
        state.handles.delete(runId);
        for (const w of batch) {
          w.reject(error);
        }
      }
    }
  } finally {
    state.writing.delete(runId);
  }
}

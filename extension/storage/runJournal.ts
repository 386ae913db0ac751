/**
 * Durable, append-only transcripts in the extension's storage: one JSONL file per run plus a small index of run
 * metadata. Drivers append what they fold into the model *before* acknowledging it to a daemon (AgencyProxy's ack
 * deletes the daemon's journal), and replay the records after a window reload. Writes are queued per run and
 * batched; `append` resolves once the record is on disk (fdatasync), which is what makes acking safe.
 * Reading goes through a run's file chunk by chunk (a replay never holds a whole journal in memory); a torn last line
 * (crash mid-write) is reported as such. Nothing is ever rewritten. What a record means is the driver kit's
 * (drivers/kit/journalRecords.ts): this file knows lines of JSON, not their shape.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { removeCheckpointFile } from './runCheckpointFile';

export interface StoredRun {
  readonly runId: string;
  readonly title: string;
  readonly provider?: string;
  readonly model?: string;
  readonly state: string;
  readonly createdAt: number;
  readonly workspaceRoots?: readonly string[];
  /** Driver-specific extras (JSON-safe). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /**
   * What the board and the tree show of the run without its transcript (issue #25 §2), as the kit last saw it
   * (drivers/kit/runSummaries.ts knows its shape; here it is JSON). Absent in an index written before 0.4.
   */
  readonly summary?: unknown;
}

/** One line of a run's file: its JSON value, or a line that is not JSON (`torn`: the last line, cut by a crash). */
export type JournalLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly torn: boolean };

/** How much of a journal file is read at a time on replay. */
const READ_CHUNK_BYTES = 64 * 1024;

/** How much of a file's end `tailDigest` hashes. */
const TAIL_BYTES = 4096;

interface PendingWrite {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A file name for any id: readable where it can be, unique by a hash of the whole id. */
export function safeFileName(name: string): string {
  const readable = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  return `${readable}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

export class RunJournal {
  private readonly queues = new Map<string, PendingWrite[]>();
  private readonly writing = new Set<string>();
  private readonly handles = new Map<string, FileHandle>();
  /** Bytes of each run's file as this journal knows them (opened for appending, or read to its end). */
  private readonly sizes = new Map<string, number>();
  private index = new Map<string, StoredRun>();
  private indexLoaded = false;
  private indexWrite: Promise<void> = Promise.resolve();
  /** A write of the index is queued and has not taken its snapshot yet: later saves ride along with it. */
  private indexWriteQueued = false;
  private closed = false;

  /** `dir` is private to one connection profile. */
  constructor(private readonly dir: string) {}

  async loadRuns(): Promise<StoredRun[]> {
    if (!this.indexLoaded) {
      this.indexLoaded = true;
      try {
        const parsed: unknown = JSON.parse(await readFile(join(this.dir, 'runs.json'), 'utf8'));
        if (Array.isArray(parsed)) {
          for (const entry of parsed) {
            if (entry && typeof entry === 'object' && typeof (entry as StoredRun).runId === 'string') {
              this.index.set((entry as StoredRun).runId, entry as StoredRun);
            }
          }
        }
      } catch {
        // No index yet (or unreadable): start empty; transcripts files are kept regardless.
      }
    }
    return [...this.index.values()];
  }

  /** Records the run's metadata (atomically rewritten index; small). */
  async saveRun(run: StoredRun): Promise<void> {
    await this.loadRuns();
    this.index.set(run.runId, run);
    return this.writeIndex();
  }

  async forgetRun(runId: string): Promise<void> {
    await this.loadRuns();
    if (this.index.delete(runId)) {
      await this.writeIndex();
    }
  }

  /**
   * Deletes everything stored of the run: its index entry, its journal and its checkpoint (Remove Run). Waits for
   * the run's queued writes first, so no append re-creates the file behind the delete.
   */
  async removeRun(runId: string): Promise<void> {
    await this.flush();
    const handle = this.handles.get(runId);
    this.handles.delete(runId);
    await handle?.close().catch(() => undefined);
    this.sizes.delete(runId);
    this.queues.delete(runId);
    await this.forgetRun(runId);
    await rm(this.fileOf(runId), { force: true });
    await removeCheckpointFile(this.dir, runId);
  }

  /** The bytes of the run's journal on disk (0 when it has none): what retention by size counts. */
  async journalBytes(runId: string): Promise<number> {
    try {
      const handle = await open(this.fileOf(runId), 'r');
      try {
        return (await handle.stat()).size;
      } finally {
        await handle.close().catch(() => undefined);
      }
    } catch {
      return 0;
    }
  }

  /**
   * Rewrites the index. Coalesced: saves made while a write is queued share it (its snapshot is taken when it
   * starts), so saving every run's summary at close writes the file once or twice, not once per run.
   */
  private writeIndex(): Promise<void> {
    if (this.indexWriteQueued) {
      return this.indexWrite;
    }
    this.indexWriteQueued = true;
    this.indexWrite = this.indexWrite.catch(() => undefined).then(async () => {
      this.indexWriteQueued = false;
      const snapshot = JSON.stringify([...this.index.values()]);
      await mkdir(this.dir, { recursive: true });
      const tmp = join(this.dir, `runs.json.${process.pid}.tmp`);
      await writeFile(tmp, snapshot);
      await rename(tmp, join(this.dir, 'runs.json'));
    });
    return this.indexWrite;
  }

  /**
   * Hands a run's lines to `visit` in append order, parsed, reading the file in chunks (a journal is never held in
   * memory whole). A line that is not JSON is reported (`torn` when it is the last one, what a crash mid-append
   * leaves), never thrown. A run without a file has no lines. `from`: a byte offset at a line start (a checkpoint's end).
   */
  async readLines(runId: string, visit: (line: JournalLine) => void, from = 0): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(this.fileOf(runId), 'r');
    } catch {
      return; // no file yet (or unreadable, as in 0.1.0): the run has no records
    }
    let position = from;
    // A line that does not parse is held until the next one arrives: only then is it known not to be the last.
    let unparsed = false;
    const take = (line: string): void => {
      if (line.trim() === '') {
        return;
      }
      if (unparsed) {
        visit({ ok: false, torn: false });
        unparsed = false;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        unparsed = true;
        return;
      }
      visit({ ok: true, value });
    };
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    // The pieces of a line that spans chunks, joined once its end is read: re-splitting the growing line with every
    // chunk would copy it over and over (a 32 MB tool output took seconds to replay).
    const partial: string[] = [];
    try {
      for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
        if (bytesRead === 0) {
          break;
        }
        position += bytesRead;
        const lines = decoder.write(chunk.subarray(0, bytesRead)).split('\n');
        const last = lines.pop() ?? '';
        if (lines.length > 0) {
          partial.push(lines[0]!);
          lines[0] = partial.join('');
          partial.length = 0;
          lines.forEach(take);
        }
        partial.push(last);
      }
      partial.push(decoder.end());
      take(partial.join(''));
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (!this.sizes.has(runId) && !this.writing.has(runId) && !(this.queues.get(runId)?.length ?? 0)) {
      this.sizes.set(runId, position); // read to the end with nothing written meanwhile: the file's size
    }
    if (unparsed) {
      visit({ ok: false, torn: true });
    }
  }

  /**
   * The byte length of the run's file when nothing of it is queued or being written (else `busy`; undefined: not
   * known — never opened or read through, or a write failed part-way): every record appended so far is then in
   * those bytes, and no other. A checkpoint covers exactly them (drivers/kit/runCheckpoints.ts).
   */
  settledSize(runId: string): number | 'busy' | undefined {
    return this.writing.has(runId) || (this.queues.get(runId)?.length ?? 0) > 0 ? 'busy' : this.sizes.get(runId);
  }

  /** The sha256 of the (up to 4 KiB of) bytes before `end`: whether the file still holds what a checkpoint saw. */
  async tailDigest(runId: string, end: number): Promise<string | undefined> {
    const start = Math.max(0, end - TAIL_BYTES);
    const buffer = Buffer.alloc(end - start);
    try {
      const handle = await open(this.fileOf(runId), 'r');
      try {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
        return bytesRead === buffer.length ? createHash('sha256').update(buffer).digest('hex') : undefined;
      } finally {
        await handle.close().catch(() => undefined);
      }
    } catch {
      return undefined;
    }
  }

  /** Appends one record; resolves when it is durably on disk. */
  append(runId: string, record: unknown): Promise<void> {
    if (this.closed) {
      return Promise.reject(new Error('the transcript journal is closed'));
    }
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(runId);
      if (!queue) {
        queue = [];
        this.queues.set(runId, queue);
      }
      queue.push({ line: `${JSON.stringify(record)}\n`, resolve, reject });
      if (!this.writing.has(runId)) {
        void this.drain(runId);
      }
    });
  }

  /** Resolves once every record appended so far (and the run index) is on disk, whatever the outcome of each. */
  async flush(): Promise<void> {
    const pending: Promise<unknown>[] = [this.indexWrite.catch(() => undefined)];
    for (const [runId, queue] of this.queues) {
      if (queue.length > 0 || this.writing.has(runId)) {
        // An empty marker behind everything queued: the drain resolves it after the records before it.
        pending.push(new Promise<void>((resolve) => {
          queue.push({ line: '', resolve, reject: () => resolve() });
          if (!this.writing.has(runId)) {
            void this.drain(runId);
          }
        }));
      }
    }
    await Promise.all(pending);
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.indexWrite.catch(() => undefined);
    for (const handle of this.handles.values()) {
      await handle.close().catch(() => undefined);
    }
    this.handles.clear();
  }

  private fileOf(runId: string): string {
    return join(this.dir, `${safeFileName(runId)}.jsonl`);
  }

  /** Writes everything queued for a run as one batch, then the next batch, until the queue is empty. */
  private async drain(runId: string): Promise<void> {
    this.writing.add(runId);
    try {
      for (;;) {
        const batch = this.queues.get(runId)?.splice(0) ?? [];
        if (batch.length === 0) {
          return;
        }
        try {
          let handle = this.handles.get(runId);
          if (!handle) {
            await mkdir(this.dir, { recursive: true });
            handle = await open(this.fileOf(runId), 'a');
            this.handles.set(runId, handle);
            this.sizes.set(runId, (await handle.stat()).size);
          }
          const text = batch.map((w) => w.line).join('');
          await handle.appendFile(text);
          this.sizes.set(runId, (this.sizes.get(runId) ?? 0) + Buffer.byteLength(text));
          await handle.datasync();
          for (const w of batch) {
            w.resolve();
          }
        } catch (error) {
          // Part of the batch may be on disk: the file's length is no longer known (no checkpoint may trust it) until
          // the next write opens the file again and reads its length.
          this.sizes.delete(runId);
          void this.handles.get(runId)?.close().catch(() => undefined);
          this.handles.delete(runId);
          for (const w of batch) {
            w.reject(error);
          }
        }
      }
    } finally {
      this.writing.delete(runId);
    }
  }
}

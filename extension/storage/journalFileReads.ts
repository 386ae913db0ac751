/**
 * Reading a run's journal file (runJournal.ts writes it): its lines in append order, chunk by chunk (a replay never
 * holds a whole journal in memory), and the two checks a checkpoint makes of the bytes it stands for. A missing or
 * unreadable file reads as empty; nothing here throws for what is on disk.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** One line of a run's file: its JSON value, or a line that is not JSON (`torn`: the last line, cut by a crash). */
export type JournalLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly torn: boolean };

/** How much of a journal file is read at a time on replay. */
const READ_CHUNK_BYTES = 64 * 1024;

/** How much of a file's end `tailDigestOf` hashes. */
const TAIL_BYTES = 4096;

/**
 * Hands the file's lines to `visit` in order, parsed. A line that is not JSON is reported (`torn` when it is the last
 * one, what a crash mid-append leaves), never thrown. `from`: a byte offset at a line start. Resolves with the byte
 * offset it read to (`from` when there is no file).
 */
export async function readJournalLines(file: string, visit: (line: JournalLine) => void, from = 0): Promise<number> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return from; // no file yet (or unreadable, as in 0.1.0): the run has no records
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
  if (unparsed) {
    visit({ ok: false, torn: true });
  }
  return position;
}

/** The sha256 of the (up to 4 KiB of) bytes before `end`: whether the file still holds what a checkpoint saw. */
export async function tailDigestOf(file: string, end: number): Promise<string | undefined> {
  const start = Math.max(0, end - TAIL_BYTES);
  const buffer = Buffer.alloc(end - start);
  try {
    const handle = await open(file, 'r');
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

/** Whether `bytes` ends a line of the file: the byte before it is a newline, and (`exact`) the file is that long. */
export async function endsLineAt(file: string, bytes: number, exact: boolean): Promise<boolean> {
  if (bytes <= 0) {
    return false;
  }
  try {
    const handle = await open(file, 'r');
    try {
      if (exact && (await handle.stat()).size !== bytes) {
        return false;
      }
      const last = Buffer.alloc(1);
      const { bytesRead } = await handle.read(last, 0, 1, bytes - 1);
      return bytesRead === 1 && last[0] === 0x0a;
    } finally {
      await handle.close().catch(() => undefined);
    }
  } catch {
    return false;
  }
}

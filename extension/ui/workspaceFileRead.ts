/**
 * Reading a workspace file an agent names (ACP `fs/read_text_file`) from disk, without letting the file decide what
 * the extension host does: a FIFO, socket or device is refused without blocking (a FIFO's plain `open` waits for a
 * writer, holding one of libuv's few file-system threads, so a handful of them stall every file operation of the
 * host), and a file larger than `MAX_AGENT_READ_BYTES` is refused rather than read into memory. Free of `vscode`, so
 * it is unit-tested under plain Node against real FIFOs.
 */
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { WorkspaceAccessError } from '../drivers/kit/workspaceAccess';

/**
 * The largest file an agent may read through the editor: 16 MiB. Its text goes back in one JSON-RPC line, and a
 * line the agent writes may hold two of them (an edit's old and new text): both stay well below the ACP line limit
 * (transport/lineSplitter.ts `MAX_LINE_BYTES`). Source files are far smaller; bigger files are logs or data, which
 * an agent reads with its own tools.
 */
export const MAX_AGENT_READ_BYTES = 16 * 1024 * 1024;

const MIB = 1024 * 1024;

/** What `fstat` says a non-regular file is, in words. */
function kindOf(stat: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stat.isDirectory()) {
    return 'a directory';
  }
  if (stat.isFIFO()) {
    return 'a named pipe (FIFO)';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }
  return stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a regular file';
}

/**
 * The UTF-8 text of the regular file at `real` (already resolved inside the workspace), refusing anything else.
 * Opened non-blocking (a FIFO's open returns at once) and without following a final symlink (one swapped in after
 * the path was resolved is refused, not followed out of the workspace); the type and size checks are on the opened
 * file (`fstat`), so nothing can change between the check and the read; and at most `maxBytes + 1` bytes are read,
 * so a file that grows meanwhile is still refused. `shown` is the path as the agent wrote it, for messages.
 */
export async function readRegularFile(real: string, shown: string, maxBytes = MAX_AGENT_READ_BYTES): Promise<string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    throw openError(shown, error);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new WorkspaceAccessError('invalid', `${shown} is ${kindOf(stat)}: the agent may only read regular files.`);
    }
    if (stat.size > maxBytes) {
      throw tooLarge(shown, stat.size, maxBytes);
    }
    // Read to the end, never past the limit: the file may have grown since fstat.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(Math.max(stat.size - total, 64 * 1024), maxBytes + 1 - total);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(chunk, 0, want, null);
      if (bytesRead === 0) {
        break;
      }
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) {
        throw tooLarge(shown, total, maxBytes);
      }
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function tooLarge(shown: string, size: number, maxBytes: number): WorkspaceAccessError {
  return new WorkspaceAccessError('invalid', `${shown} is ${(size / MIB).toFixed(1)} MiB; the agent may read files of at most ${maxBytes / MIB} MiB through the editor.`);
}

function openError(shown: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new WorkspaceAccessError('notFound', `${shown} does not exist.`);
  }
  if (code === 'EISDIR') {
    return new WorkspaceAccessError('invalid', `${shown} is a directory, not a file.`);
  }
  if (code === 'ELOOP') {
    return new WorkspaceAccessError('invalid', `${shown} became a symbolic link while it was read; read it again.`);
  }
  if (code === 'ENXIO') {
    // O_NONBLOCK on a socket file, or a device without a driver.
    return new WorkspaceAccessError('invalid', `${shown} is not a regular file: the agent may only read regular files.`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

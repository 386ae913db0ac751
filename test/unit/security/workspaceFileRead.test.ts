/**
 * What an agent's `fs/read_text_file` may read from disk (ui/workspaceFileRead.ts): a FIFO, a socket and a device are
 * refused without blocking (a blocking open of a FIFO with no writer never returns: the test's timeout would fire),
 * a file over the limit is refused by its size, and a regular file is read whole.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { WorkspaceAccessError } from '../../../extension/drivers/kit/workspaceAccess';
import { MAX_AGENT_READ_BYTES, readRegularFile } from '../../../extension/ui/workspaceFileRead';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-read-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const refusal = (reason: string, pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof WorkspaceAccessError, String(error));
  assert.equal(error.reason, reason);
  assert.match(error.message, pattern);
  return true;
};

test('a FIFO with no writer is refused at once, several times over (no file-system thread is left waiting)', { timeout: 10_000 }, async () => {
  const fifo = path.join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  // More reads than libuv has threads (4): a blocking open would hold them all and the last ones would never run.
  // Each gets its handler at once (allSettled): one awaited after another, a read that fails meanwhile would be an
  // unhandled rejection.
  const reads = Array.from({ length: 6 }, () => assert.rejects(readRegularFile(fifo, '/ws/pipe'), refusal('invalid', /\/ws\/pipe is a named pipe \(FIFO\): the agent may only read regular files/)));
  for (const outcome of await Promise.allSettled(reads)) {
    assert.equal(outcome.status, 'fulfilled', outcome.status === 'rejected' ? String(outcome.reason) : '');
  }
  // The thread pool is free: an ordinary read still completes.
  fs.writeFileSync(path.join(dir, 'after.txt'), 'still here');
  assert.equal(await readRegularFile(path.join(dir, 'after.txt'), 'after.txt'), 'still here');
});

test('a Unix socket and a character device are refused', { timeout: 10_000 }, async () => {
  const socketPath = path.join(dir, 's.sock');
  const server = net.createServer().listen(socketPath);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    await assert.rejects(readRegularFile(socketPath, 's.sock'), refusal('invalid', /s\.sock is (a socket|not a regular file)/));
  } finally {
    server.close();
  }
  await assert.rejects(readRegularFile('/dev/zero', '/dev/zero'), refusal('invalid', /\/dev\/zero is a device/));
});

test('a file over the limit is refused by its size; one at the limit is read whole', async () => {
  const big = path.join(dir, 'big.log');
  fs.writeFileSync(big, Buffer.alloc(2049, 'x'));
  await assert.rejects(readRegularFile(big, 'big.log', 2048), refusal('invalid', /big\.log is 0\.0 MiB; the agent may read files of at most 0\.001953125 MiB/));
  fs.truncateSync(big, 2048);
  assert.equal((await readRegularFile(big, 'big.log', 2048)).length, 2048);
  assert.equal(MAX_AGENT_READ_BYTES, 16 * 1024 * 1024);
  const huge = path.join(dir, 'sparse.bin');
  fs.writeFileSync(huge, '');
  fs.truncateSync(huge, MAX_AGENT_READ_BYTES + 1);
  await assert.rejects(readRegularFile(huge, 'sparse.bin'), refusal('invalid', /sparse\.bin is 16\.0 MiB; the agent may read files of at most 16 MiB/));
});

test('a regular file is read as UTF-8; a missing one is notFound; a directory and a final symlink are refused', async () => {
  const file = path.join(dir, 'text.md');
  fs.writeFileSync(file, 'héllo\nwörld\n');
  assert.equal(await readRegularFile(file, 'text.md'), 'héllo\nwörld\n');
  await assert.rejects(readRegularFile(path.join(dir, 'missing'), 'missing'), refusal('notFound', /missing does not exist/));
  await assert.rejects(readRegularFile(dir, 'dir'), refusal('invalid', /dir is a directory/));
  fs.symlinkSync(file, path.join(dir, 'link.md'));
  await assert.rejects(readRegularFile(path.join(dir, 'link.md'), 'link.md'), refusal('invalid', /link\.md became a symbolic link/));
});

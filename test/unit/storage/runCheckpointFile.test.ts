/**
 * The checkpoint file (storage/runCheckpointFile.ts): header, body lines and a digest of both, written in batches
 * and read back only when every byte before the digest is what was written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CheckpointFileError, readCheckpointFile, writeCheckpointFile } from '../../../extension/storage/runCheckpointFile';
import { safeFileName } from '../../../extension/storage/runJournal';

function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ckf-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Enough lines to span several write batches (256 KiB each). */
const LINES = Array.from({ length: 300 }, (_, i) => JSON.stringify({ line: i, text: `é ${'x'.repeat(2_000 + i)}` }));

test('header and body lines come back as written; the temporary file is gone', async () => {
  const { dir, cleanup } = tempDir();
  try {
    await writeCheckpointFile(dir, 'run/1', { v: 2, bytes: 10 }, LINES);
    const file = await readCheckpointFile(dir, 'run/1');
    assert.deepEqual(file?.header, { v: 2, bytes: 10 });
    assert.deepEqual(await file!.bodyLines(), LINES);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
    // Lines are made when the writer asks (a generator): a body of none is a body too.
    await writeCheckpointFile(dir, 'empty', { v: 2 }, (function* () {})());
    assert.deepEqual(await (await readCheckpointFile(dir, 'empty'))!.bodyLines(), []);
    assert.equal(await readCheckpointFile(dir, 'none'), undefined);
  } finally {
    cleanup();
  }
});

test('a byte changed anywhere before the digest, or the digest cut off, refuses the body', async () => {
  const { dir, cleanup } = tempDir();
  try {
    await writeCheckpointFile(dir, 'r', { v: 2, bytes: 10 }, LINES);
    const path = join(dir, `${safeFileName('r')}.ckpt`);
    const good = readFileSync(path);
    const firstBreak = good.indexOf(0x0a);
    // In a body line (the middle of the file), and in the header (the digest covers it too: `bytes` 10 → 11).
    for (const at of [good.length >> 1, firstBreak - 3]) {
      const bad = Buffer.from(good);
      bad[at] = bad[at] === 0x31 ? 0x32 : 0x31;
      writeFileSync(path, bad);
      const file = await readCheckpointFile(dir, 'r');
      await assert.rejects(file!.bodyLines(), (error: unknown) => error instanceof CheckpointFileError && /digest/.test(error.message));
    }
    writeFileSync(path, good.subarray(0, good.lastIndexOf(0x0a, good.length - 2) + 1));
    await assert.rejects((await readCheckpointFile(dir, 'r'))!.bodyLines(), CheckpointFileError);
    writeFileSync(path, good);
    assert.deepEqual(await (await readCheckpointFile(dir, 'r'))!.bodyLines(), LINES);
  } finally {
    cleanup();
  }
});

test('a body line with a line break in it is refused, and no file is left', async () => {
  const { dir, cleanup } = tempDir();
  try {
    await assert.rejects(writeCheckpointFile(dir, 'r', { v: 2 }, ['[1]', '"a\nb"']), CheckpointFileError);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    cleanup();
  }
});

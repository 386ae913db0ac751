import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { JournalLine } from '../../../extension/storage/runJournal';
import { RunJournal, safeFileName } from '../../../extension/storage/runJournal';

async function linesOf(journal: RunJournal, runId: string): Promise<JournalLine[]> {
  const lines: JournalLine[] = [];
  await journal.readLines(runId, (line) => lines.push(line));
  return lines;
}

test('records survive a reopen, in order; the index keeps run metadata', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const a = new RunJournal(dir);
    await a.saveRun({ runId: 'run/1', title: 'Fix', state: 'running', createdAt: 5 });
    await Promise.all(Array.from({ length: 200 }, (_, i) => a.append('run/1', { s: i + 1 })));
    await a.close();
    const b = new RunJournal(dir);
    assert.deepEqual((await b.loadRuns()).map((r) => r.runId), ['run/1']);
    const records = await linesOf(b, 'run/1');
    assert.deepEqual(records, Array.from({ length: 200 }, (_, i) => ({ ok: true, value: { s: i + 1 } })));
    assert.deepEqual(await b.removeRun('run/1'), { kind: 'removed' });
    assert.deepEqual(await new RunJournal(dir).loadRuns(), []);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('a torn last line (crash mid-write) is ignored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const j = new RunJournal(dir);
    await j.append('r', { s: 1 });
    await j.close();
    const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
    appendFileSync(join(dir, file), '{"s":2,"e":{"ty');
    assert.deepEqual(await linesOf(new RunJournal(dir), 'r'), [{ ok: true, value: { s: 1 } }, { ok: false, torn: true }]);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('append after close is refused, not silently dropped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const j = new RunJournal(dir);
    await j.close();
    await assert.rejects(j.append('r', {}), /closed/);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('a line that is not JSON before the last is reported as unreadable, not torn, and reading goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const j = new RunJournal(dir);
    await j.append('r', { s: 1 });
    await j.close();
    const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
    appendFileSync(join(dir, file), 'not json\n\n{"s":3}\n');
    assert.deepEqual(await linesOf(new RunJournal(dir), 'r'), [{ ok: true, value: { s: 1 } }, { ok: false, torn: false }, { ok: true, value: { s: 3 } }]);
    assert.deepEqual(await linesOf(new RunJournal(dir), 'never-written'), []);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('a journal larger than one read chunk comes back whole, multi-byte characters split across chunks included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const j = new RunJournal(dir);
    const records = Array.from({ length: 3000 }, (_, i) => ({ i, text: `été ✓ 🎉 ${'x'.repeat(i % 97)}` }));
    await Promise.all(records.map((r) => j.append('big', r)));
    await j.close();
    const lines = await linesOf(new RunJournal(dir), 'big');
    assert.deepEqual(lines, records.map((value) => ({ ok: true, value })));
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('settledSize: the bytes on disk when nothing is queued; unknown after a failed write until the next one reopens the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const journal = new RunJournal(dir);
    await journal.append('r', { n: 1 });
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
    assert.equal(journal.settledSize('r'), statSync(file).size);
    const pending = journal.append('r', { n: 2 });
    assert.equal(journal.settledSize('r'), 'busy');
    await pending;
    // A write that fails part-way (disk full): a line may be half on disk.
    const handles = (journal as unknown as { appends: { handles: Map<string, { appendFile(text: string): Promise<void> }> } }).appends.handles;
    const handle = handles.get('r')!;
    handle.appendFile = async (text: string) => {
      appendFileSync(file, text.slice(0, 3));
      throw new Error('ENOSPC');
    };
    await assert.rejects(journal.append('r', { n: 3 }), /ENOSPC/);
    assert.equal(journal.settledSize('r'), undefined, 'no checkpoint may trust a length it does not know');
    await journal.append('r', { n: 4 });
    assert.equal(journal.settledSize('r'), statSync(file).size, 'known again once the file is reopened');
    await journal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a record for a removed run, during its removal or after it, brings no file back (a late close, a turn ending)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const journal = new RunJournal(dir);
    await journal.append('r', { n: 1 });
    await journal.saveRun({ runId: 'r', title: 'r', state: 'completed', createdAt: 1 });
    const files = (): string[] => readdirSync(dir).filter((f) => f.startsWith(`${safeFileName('r')}.`));
    assert.equal(files().length, 1);
    const removing = journal.removeRun('r');
    const during = journal.append('r', { n: 2 }); // queued while the removal runs
    assert.deepEqual(await removing, { kind: 'removed' });
    await during;
    await journal.append('r', { n: 3 });
    await journal.flush();
    assert.deepEqual(files(), []);
    assert.equal(await journal.loadRun('r'), undefined);
    await journal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

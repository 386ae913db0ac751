import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RunJournal } from '../../../extension/storage/runJournal';

test('records survive a reopen, in order; the index keeps run metadata', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  try {
    const a = new RunJournal(dir);
    await a.saveRun({ runId: 'run/1', title: 'Fix', state: 'running', createdAt: 5 });
    await Promise.all(Array.from({ length: 200 }, (_, i) => a.append('run/1', { s: i + 1 })));
    await a.close();
    const b = new RunJournal(dir);
    assert.deepEqual((await b.loadRuns()).map((r) => r.runId), ['run/1']);
    const records = (await b.readRecords('run/1')) as { s: number }[];
    assert.deepEqual(records.map((r) => r.s), Array.from({ length: 200 }, (_, i) => i + 1));
    await b.forgetRun('run/1');
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
    assert.deepEqual(await new RunJournal(dir).readRecords('r'), [{ s: 1 }]);
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

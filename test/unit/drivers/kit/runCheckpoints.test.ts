/**
 * Run checkpoints (kit/runCheckpoints.ts): a reload from a checkpoint and the journal lines after it gives exactly
 * what replaying the whole journal gives; a checkpoint that is damaged, foreign or no longer matches its journal is
 * not used (the run is replayed whole, and the log says why); none is taken mid-decision, for a small run, or for a
 * driver that keeps books it cannot save. Time is a ManualClock: nothing waits for real time.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as z from 'zod/mini';
import type { RunInput } from '../../../../extension/drivers/kit/journalRecords';
import { runInput } from '../../../../extension/drivers/kit/journalRecords';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import { MIN_RECORDS, QUIET_MS } from '../../../../extension/drivers/kit/runCheckpoints';
import { RunRecorder } from '../../../../extension/drivers/kit/runRecorder';
import type { ReplayHandlers } from '../../../../extension/drivers/kit/runRecorder';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { safeFileName } from '../../../../extension/storage/runJournal';

const cursor = z.object({ through: z.number() });
type Cursor = z.infer<typeof cursor>;
type Rec = RunInput<Cursor>;
const C = 'c';

/** `n` records of a busy run from sequence `first`: prompts, streamed text, tools, approvals, gaps, panels, cursors. */
function script(first: number, n: number, tag: string): Rec[] {
  const out: Rec[] = [];
  let q = first;
  for (let step = 0; out.length < n; step++) {
    out.push(runInput.event({ kind: 'userPrompt', text: `${tag} prompt ${step}` }));
    out.push(runInput.folded({ kind: 'textDelta', text: `${tag} answer ${step}, ` }, q, q + 2), runInput.event({ kind: 'textDelta', text: 'more' }, q + 3));
    q += 4;
    const call = `${tag}-call-${step}`;
    out.push(runInput.event({ kind: 'toolCall', callId: call, name: 'Bash', input: { command: `ls ${step}` } }, q++));
    out.push(runInput.event({ kind: 'toolOutputDelta', callId: call, delta: 'out' }, q++));
    if (step % 3 !== 2) {
      out.push(runInput.event({ kind: 'toolResult', callId: call, ok: true, output: `done ${step}` }, q++)); // every third one stays open
    }
    if (step % 7 === 0) {
      out.push(runInput.event({ kind: 'approvalRequested', approvalId: `${tag}-a${step}`, title: 'Edit', detail: { step }, options: ['allow_once', 'deny'] }, q++));
    }
    if (step % 7 === 3) {
      out.push(runInput.event({ kind: 'approvalSettled', approvalId: `${tag}-a${step - 3}`, decision: 'allow_once', by: 'daemon' }, q++));
    }
    if (step % 50 === 49) {
      out.push(runInput.gap({ from: q - 1, to: q + 4, reason: 'acked away' }));
      q += 5;
    }
    if (step % 40 === 5) {
      out.push(runInput.panels([{ id: 'p', title: `Panel ${step}`, entries: [] }]), runInput.fields({ model: `m${step}` }));
    }
    out.push(runInput.cursor({ through: q - 1 }), runInput.event({ kind: 'messageBoundary' }));
  }
  return out;
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'rckpt-'));
  const clock = new ManualClock(1_000);
  const warnings: string[] = [];
  const recorder = (store: RunStore): RunRecorder<Cursor> => new RunRecorder({ store, connectionId: C, dir, cursor, clock, warn: (m) => warnings.push(m) });
  const checkpointOf = (runId: string) => join(dir, `${safeFileName(runId)}.ckpt`);
  return { dir, clock, warnings, recorder, checkpointOf, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 20 }) };
}

/** What a driver with no books of its own does at replay: opens each stored run as the index says. */
const plainReplay: ReplayHandlers<Cursor> = { open: (stored) => ({ title: stored.title, state: 'running', createdAt: stored.createdAt }) };

/** Everything of the model a reload restores for `runIds`. */
function modelOf(store: RunStore, runIds: readonly string[]) {
  return runIds.map((runId) => {
    const key = runKeyOf(C, runId);
    const { openTools, ...run } = store.state.runs.get(key)!;
    const approvals = [...store.state.approvals.values()].filter((a) => a.runKey === key).map(({ requestedAt: _at, ...a }) => a);
    const transcript = store.transcript(key)!;
    return { run: { ...run, openTools: [...openTools] }, approvals, items: transcript.snapshot(), kinds: transcript.kinds };
  });
}

/** A fresh store and recorder replaying the journal (the checkpoints removed first when `whole`). */
async function reload(s: ReturnType<typeof setup>, runIds: readonly string[], whole: boolean, handlers = plainReplay) {
  if (whole) {
    runIds.forEach((runId) => rmSync(s.checkpointOf(runId), { force: true }));
  }
  const store = new RunStore(() => 7);
  const recorder = s.recorder(store);
  const stats = await recorder.replay(handlers);
  return { store, stats, recorder };
}

/** A run started in this window: indexed and in the store (as a driver does), then its records. */
async function startRun(recorder: RunRecorder<Cursor>, runId: string, records: readonly Rec[]): Promise<void> {
  await recorder.saveRun({ runId, title: runId, state: 'running', createdAt: 5 });
  await recorder.record(runId, [runInput.fields({ title: runId, state: 'running', createdAt: 5 })]);
  await recordAll(recorder, runId, records);
}

/** A run of a little over MIN_RECORDS records, recorded in a window that then closes (writing its checkpoint). */
async function closedAfterARun(s: ReturnType<typeof setup>): Promise<void> {
  const live = s.recorder(new RunStore(() => 7));
  await live.replay(plainReplay);
  await startRun(live, 'r', script(1, MIN_RECORDS + 10, 'r'));
  await live.close();
}

async function recordAll(recorder: RunRecorder<Cursor>, runId: string, records: readonly Rec[]): Promise<void> {
  await Promise.all(records.map((record) => recorder.record(runId, [record])));
}

test('a reload from a checkpoint and the lines after it restores what a whole replay restores', async () => {
  const s = setup();
  try {
    const store = new RunStore(() => 7);
    const live = s.recorder(store);
    await live.replay(plainReplay); // as every driver does first
    const runs = ['r1', 'r2'];
    for (const runId of runs) {
      await startRun(live, runId, script(1, MIN_RECORDS + 500, runId));
    }
    assert.equal(s.clock.pendingCount, 1, 'one timer while runs have records not checkpointed');
    s.clock.advance(QUIET_MS);
    await live.flush();
    assert.ok(runs.every((runId) => existsSync(s.checkpointOf(runId))), 'checkpointed once quiet');
    assert.equal(s.clock.pendingCount, 0, 'no timer once everything is checkpointed');
    // More after the checkpoint (a pending approval among them), then the window dies: no close, no new checkpoint.
    for (const runId of runs) {
      await recordAll(live, runId, script(100_000, 300, `${runId}-tail`));
    }
    await live.flush();
    const liveModel = modelOf(store, runs);

    const fromCheckpoint = await reload(s, runs, false);
    assert.equal(fromCheckpoint.stats.checkpoints, 2);
    assert.ok(fromCheckpoint.stats.records < 700, `only the lines after the checkpoints are replayed (${fromCheckpoint.stats.records})`);
    const whole = await reload(s, runs, true);
    assert.equal(whole.stats.checkpoints, 0);
    assert.ok(whole.stats.records > 2 * MIN_RECORDS);
    assert.deepEqual(modelOf(fromCheckpoint.store, runs), modelOf(whole.store, runs));
    // And what the live window had, but for approvals being live (a restored request waits for its driver).
    assert.deepEqual(modelOf(whole.store, runs).map((m) => m.items), liveModel.map((m) => m.items));
    assert.ok([...fromCheckpoint.store.state.approvals.values()].every((a) => !a.live));
    assert.ok([...fromCheckpoint.store.state.approvals.values()].some((a) => a.status === 'pending'));
    assert.deepEqual(s.warnings, []);
    await Promise.all([live.close(), fromCheckpoint.recorder.close(), whole.recorder.close()]);
  } finally {
    s.cleanup();
  }
});

test('close checkpoints a run with records since its last; the reload after it replays no line', async () => {
  const s = setup();
  try {
    await closedAfterARun(s);
    assert.equal(s.clock.pendingCount, 0, 'no timer after close');
    const again = await reload(s, ['r'], false);
    assert.deepEqual([again.stats.checkpoints, again.stats.records], [1, 0]);
    assert.equal(s.clock.pendingCount, 0, 'nothing new: no timer after the reload');
    await again.recorder.close();
  } finally {
    s.cleanup();
  }
});

const damages: { name: string; damage: (s: ReturnType<typeof setup>, journal: string) => void; why: RegExp }[] = [
  { name: 'a byte of its body flipped', why: /digest/, damage: (s) => {
    const bytes = readFileSync(s.checkpointOf('r'));
    bytes[bytes.length >> 1] ^= 1; // in a line of items
    writeFileSync(s.checkpointOf('r'), bytes);
  } },
  { name: 'the format before this one (v1: the body one JSON value, its digest in the header)', why: /another format/, damage: (s) => {
    const [header, ...lines] = readFileSync(s.checkpointOf('r'), 'utf8').split('\n').slice(0, -2);
    const head = JSON.parse(lines[0]!) as Record<string, unknown>;
    const body = JSON.stringify({ ...head, items: lines.slice(1).flatMap((line) => JSON.parse(line) as unknown[]) });
    const digest = createHash('sha256').update(body).digest('hex');
    writeFileSync(s.checkpointOf('r'), `${JSON.stringify({ ...(JSON.parse(header!) as object), v: 1, digest })}\n${body}`);
  } },
  { name: 'another format', why: /another format/, damage: (s) => {
    const text = readFileSync(s.checkpointOf('r'), 'utf8');
    writeFileSync(s.checkpointOf('r'), text.replace('"v":2', '"v":99'));
  } },
  { name: 'a journal cut shorter than it', why: /no longer holds/, damage: (_s, journal) => writeFileSync(journal, readFileSync(journal).subarray(0, 1000)) },
  { name: 'a journal rewritten under it (same length)', why: /no longer holds/, damage: (_s, journal) => {
    const bytes = readFileSync(journal);
    bytes.write('{"v":2,"e":{"kind":"textDelta","text":"other"}}\n'.padEnd(bytes.length - 1, ' '), 0);
    writeFileSync(journal, bytes);
  } },
];

for (const { name, damage, why } of damages) {
  test(`a checkpoint with ${name} is not used: the run is replayed whole and the log says why`, async () => {
    const s = setup();
    try {
      await closedAfterARun(s);
      const journal = join(s.dir, `${safeFileName('r')}.jsonl`);
      appendFileSync(journal, ''); // the journal is there
      damage(s, journal);
      const damaged = await reload(s, ['r'], false);
      assert.equal(damaged.stats.checkpoints, 0);
      assert.match(s.warnings.join('\n'), why);
      assert.match(s.warnings.join('\n'), /replaying its whole journal/);
      await damaged.recorder.flush();
      const whole = await reload(s, ['r'], true);
      assert.deepEqual(modelOf(damaged.store, ['r']), modelOf(whole.store, ['r']));
      await Promise.all([damaged.recorder.close(), whole.recorder.close()]);
    } finally {
      s.cleanup();
    }
  });
}

test('no checkpoint while an approval is mid-decision, one once it settles; none for a small run', async () => {
  const s = setup();
  try {
    const store = new RunStore(() => 7);
    const live = s.recorder(store);
    await live.replay(plainReplay);
    await startRun(live, 'small', script(1, 50, 'small'));
    assert.equal(s.clock.pendingCount, 0, 'no timer for a small run');
    await startRun(live, 'r', [...script(1, MIN_RECORDS, 'r'), runInput.event({ kind: 'approvalRequested', approvalId: 'x', title: 'Run', detail: null, options: ['deny'] }, 99_999)]);
    store.dispatch({ type: 'approvalChange', runKey: runKeyOf(C, 'r'), approvalId: 'x', change: { kind: 'deciding', decision: 'deny', by: 'palette' } });
    s.clock.advance(QUIET_MS);
    await live.flush();
    assert.equal(existsSync(s.checkpointOf('r')), false, 'not mid-decision');
    assert.equal(s.clock.pendingCount, 0, 'no timer while a person may take hours: the next record tries again');
    await live.record('r', [runInput.event({ kind: 'approvalSettled', approvalId: 'x', decision: 'deny', by: 'palette' })]);
    s.clock.advance(QUIET_MS);
    await live.flush();
    assert.ok(existsSync(s.checkpointOf('r')));
    assert.equal(existsSync(s.checkpointOf('small')), false);
    await live.close();
  } finally {
    s.cleanup();
  }
});

test('a driver that rebuilds books per record but cannot save them gets no checkpoint; one that can gets its books back', async () => {
  const s = setup();
  try {
    const books = new Map<string, number>();
    const counting: ReplayHandlers<Cursor> = { ...plainReplay, record: (runId, record) => 'cursor' in record && books.set(runId, record.cursor.through) };
    const live = s.recorder(new RunStore(() => 7));
    await live.replay(counting);
    await startRun(live, 'r', script(1, MIN_RECORDS + 10, 'r'));
    await live.close();
    assert.equal(existsSync(s.checkpointOf('r')), false);

    const saving: ReplayHandlers<Cursor> = { ...counting, books: { save: (runId) => ({ through: books.get(runId) }), restore: (runId, saved) => (books.set(runId, (saved as { through: number }).through), true) } };
    const second = await reload(s, ['r'], false, saving);
    assert.equal(second.stats.checkpoints, 0);
    const through = books.get('r');
    await second.recorder.close();
    assert.ok(existsSync(s.checkpointOf('r')), 'written after a replay that found none');
    books.clear();
    const third = await reload(s, ['r'], false, saving);
    assert.deepEqual([third.stats.checkpoints, books.get('r')], [1, through]);
    await third.recorder.close();
  } finally {
    s.cleanup();
  }
});

test('a checkpoint covers complete lines only: one pointing mid-line is refused at restore, and none is written over a journal another writer grew', async () => {
  const s = setup();
  try {
    await closedAfterARun(s);
    // The header moved one byte into the last line, its tail digest made to match: only the line check can tell.
    const file = readFileSync(s.checkpointOf('r'), 'utf8');
    const newline = file.indexOf('\n');
    const header = JSON.parse(file.slice(0, newline)) as { bytes: number; tail: string };
    const journalFile = join(s.dir, `${safeFileName('r')}.jsonl`);
    const journal = readFileSync(journalFile);
    const bytes = header.bytes - 2;
    const { createHash } = await import('node:crypto');
    const tail = createHash('sha256').update(journal.subarray(Math.max(0, bytes - 4096), bytes)).digest('hex');
    writeFileSync(s.checkpointOf('r'), `${JSON.stringify({ ...header, bytes, tail })}\n${file.slice(newline + 1)}`);
    const reloaded = await reload(s, ['r'], false);
    assert.equal(reloaded.stats.checkpoints, 0, 'not used');
    assert.ok(s.warnings.some((w) => /does not end at a line/.test(w)), s.warnings.join('\n'));

    // A writer that counts its own bytes while another process appends to the file: its count is no line end.
    rmSync(s.checkpointOf('r'), { force: true });
    const live = s.recorder(new RunStore(() => 7));
    await live.replay(plainReplay);
    await live.record('r', [runInput.event({ kind: 'textDelta', text: 'opened' }, 900_000)]); // opens the file, counting
    appendFileSync(journalFile, `${JSON.stringify({ foreign: 'x'.repeat(37) })}\n`);
    await recordAll(live, 'r', script(1_000_000, 50, 'more'));
    await live.close();
    assert.ok(!existsSync(s.checkpointOf('r')), 'no checkpoint written');
    assert.ok(s.warnings.some((w) => /no line end at byte/.test(w)), s.warnings.join('\n'));
  } finally {
    s.cleanup();
  }
});

/** The kit's journal: one call folds and journals, one replay restores, bad lines are skipped and counted. */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as z from 'zod/mini';
import type { RunInput } from '../../../../extension/drivers/kit/journalRecords';
import { runInput } from '../../../../extension/drivers/kit/journalRecords';
import { RunRecorder } from '../../../../extension/drivers/kit/runRecorder';
import type { ModelAction } from '../../../../extension/model/modelActions';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { safeFileName } from '../../../../extension/storage/runJournal';

const cursor = z.object({ through: z.number() });
type Cursor = z.infer<typeof cursor>;

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'rrec-'));
  const store = new RunStore(() => 1);
  const actions: ModelAction[] = [];
  const warnings: string[] = [];
  const recorder = (): RunRecorder<Cursor> =>
    new RunRecorder({ store: { dispatch: (a) => (actions.push(a), store.dispatch(a)) }, connectionId: 'c', dir, cursor, warn: (m) => warnings.push(m) });
  return { dir, store, actions, warnings, recorder, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 20 }) };
}

test('recording dispatches to the store and resolves once the lines are on disk; replay dispatches them again, restored', async () => {
  const s = setup();
  try {
    const live = s.recorder();
    await live.saveRun({ runId: 'r', title: 'T', state: 'running', createdAt: 5 });
    s.store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'T' } });
    await live.record('r', [runInput.event({ kind: 'userPrompt', text: 'hi' })]);
    await live.record('r', [{ sequence: 1, event: { kind: 'textDelta', text: 'a' } }, { event: { kind: 'textDelta', text: 'b' } }, { cursor: { through: 1 } }]);
    await live.record('r', [runInput.fields({ model: 'm' })]);
    await live.record('r', [runInput.gap({ from: 1, to: 3, reason: 'lost' })]);
    await live.record('r', [runInput.panels([{ id: 'p', title: 'P', entries: [] }])]);
    const liveItems = s.store.transcript(runKeyOf('c', 'r'))!.snapshot();
    assert.equal(s.store.state.runs.get(runKeyOf('c', 'r'))?.lastSequence, 3);
    await live.close();
    // On disk before close resolved: one line per record, cursor included, nothing else.
    const file = readdirSync(s.dir).find((f) => f.endsWith('.jsonl'))!;
    assert.equal(readFileSync(join(s.dir, file), 'utf8').trim().split('\n').length, 7);
    assert.deepEqual(await s.recorder().sequencesOf('r'), [1]);

    const reloaded = new RunStore(() => 1);
    const seen: RunInput<Cursor>[] = [];
    const stats = await new RunRecorder({ store: reloaded, connectionId: 'c', dir: s.dir, cursor }).replay({
      open: (stored) => ({ title: stored.title, state: 'running', createdAt: stored.createdAt }),
      record: (_runId, record) => seen.push(record),
    });
    assert.deepEqual(stats, { runs: 1, records: 7, invalid: 0, torn: 0, checkpoints: 0, summarized: 0, archived: 0, older: 0, quiet: 0 });
    assert.deepEqual(reloaded.transcript(runKeyOf('c', 'r'))!.snapshot(), liveItems);
    const run = reloaded.state.runs.get(runKeyOf('c', 'r'))!;
    assert.deepEqual([run.title, run.model, run.lastSequence, run.createdAt, run.panels?.[0]?.id], ['T', 'm', 3, 5, 'p']);
    assert.deepEqual(seen.filter((r) => 'cursor' in r), [{ cursor: { through: 1 } }], 'the cursor is handed back, not dispatched');
  } finally {
    s.cleanup();
  }
});

test('replay: events carry restored and their sequence; a line that fits no shape is skipped and counted; a torn last line is ignored', async () => {
  const s = setup();
  try {
    const live = s.recorder();
    await live.saveRun({ runId: 'r', title: 'T', state: 'running', createdAt: 5 });
    await live.close();
    // Written by hand: a v2 event, garbage, a v2 line of an unknown kind, a bad cursor, a 0.1.0-style line, a v2
    // event, and a torn last line.
    const lines = [
      '{"v":2,"q":4,"e":{"kind":"approvalRequested","approvalId":"a","title":"Edit","detail":null,"options":["deny"],"hasDiff":false}}',
      'not json',
      '{"v":2,"e":{"kind":"teleport"}}',
      '{"v":2,"c":{"through":"x"}}',
      '{"old":true}',
      '{"v":2,"e":{"kind":"textDelta","text":"after"}}',
      '{"v":2,"e":{"kind":"te',
    ];
    appendFileSync(join(s.dir, `${safeFileName('r')}.jsonl`), lines.join('\n'));
    s.actions.length = 0;
    const stats = await s.recorder().replay({ open: () => ({ title: 'T' }), legacy: () => (line) => ((line as { old?: unknown }).old ? [{ event: { kind: 'notice', text: 'from 0.1.0', level: 'info' } }] : undefined) });
    assert.deepEqual(stats, { runs: 1, records: 3, invalid: 3, torn: 1, checkpoints: 0, summarized: 0, archived: 0, older: 0, quiet: 0 });
    assert.deepEqual(s.warnings, ['Skipped 3 unreadable journal lines of run r.']);
    const events = s.actions.filter((a): a is Extract<ModelAction, { type: 'runEvent' }> => a.type === 'runEvent');
    assert.deepEqual(
      events.map((a) => [a.event.kind, a.sequence, a.restored]),
      [
        ['approvalRequested', 4, true],
        ['notice', undefined, true],
        ['textDelta', undefined, true],
      ],
    );
    const approval = s.store.state.approvals.get(`${runKeyOf('c', 'r')}::a`);
    assert.equal(approval?.live, false, 'a restored request is not live until its daemon confirms it');
  } finally {
    s.cleanup();
  }
});

test('replay leaves out the runs `open` declines, and reads nothing of them', async () => {
  const s = setup();
  try {
    const live = s.recorder();
    await live.saveRun({ runId: 'mine', title: 'Mine', state: 'running', createdAt: 1 });
    await live.saveRun({ runId: 'other', title: 'Other', state: 'running', createdAt: 1 });
    s.store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'mine', fields: {} });
    s.store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'other', fields: {} });
    await live.record('mine', [runInput.event({ kind: 'textDelta', text: 'm' })]);
    await live.record('other', [runInput.event({ kind: 'textDelta', text: 'o' })]);
    await live.close();
    const reloaded = new RunStore();
    const stats = await new RunRecorder({ store: reloaded, connectionId: 'c', dir: s.dir, cursor: z.never() }).replay({
      open: (stored) => (stored.runId === 'mine' ? { title: stored.title } : undefined),
    });
    assert.deepEqual([stats.runs, stats.records], [1, 1]);
    assert.deepEqual([...reloaded.state.runs.keys()], [runKeyOf('c', 'mine')]);
  } finally {
    s.cleanup();
  }
});

test('recording after close is refused (the store still got the event: it is folded, only not kept)', async () => {
  const s = setup();
  try {
    const live = s.recorder();
    s.store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: {} });
    await live.close();
    await assert.rejects(live.record('r', [runInput.event({ kind: 'textDelta', text: 'late' })]), /closed/);
    assert.equal(s.store.transcript(runKeyOf('c', 'r'))?.snapshot()[0]?.kind, 'text');
  } finally {
    s.cleanup();
  }
});

test('slash commands recorded as run fields come back on replay', async () => {
  const s = setup();
  try {
    const live = s.recorder();
    await live.saveRun({ runId: 'r', title: 'T', state: 'running', createdAt: 5 });
    const slashCommands = [{ name: 'plan', description: 'Make a plan', hint: 'what to plan' }, { name: 'review', description: 'Review' }];
    await live.record('r', [runInput.fields({ slashCommands })]);
    await live.close();
    const reloaded = new RunStore(() => 1);
    await new RunRecorder({ store: reloaded, connectionId: 'c', dir: s.dir, cursor }).replay({
      open: (stored) => ({ title: stored.title, state: 'running', createdAt: stored.createdAt }),
      record: () => undefined,
    });
    assert.deepEqual(reloaded.state.runs.get(runKeyOf('c', 'r'))?.slashCommands, slashCommands);
  } finally {
    s.cleanup();
  }
});

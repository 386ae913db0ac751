/**
 * The SCV driver folds the streamed chunks of one socket read (`assistant.delta`, `tool.progress`) into one model
 * step each run: a scripted server writes a whole turn in one write, and the transcript gets one patch per run of
 * chunks. Every other event breaks a run of chunks, and so do a line that is not JSON (it is reported in place) and
 * a seq gap (its item sits exactly where the lost events were).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { TranscriptPatch } from '../../../../extension/protocol/transcriptTypes';
import { until } from '../driverKit';
import { fakeScvServer } from './fakeScvServer';
import { CONNECTION, connected, makeDriver } from './scvDriverKit';

const turn = { request_id: 'q1', session_id: 's1', turn_id: 't1' };
const line = (seq: number, type: string, fields: Record<string, unknown> = {}): string => JSON.stringify({ type, ...turn, seq, ...fields });

test('one read of deltas and progress is one patch per run of chunks; other events, bad lines and gaps break it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scvf-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const script = [
    line(2, 'turn.started'),
    line(3, 'assistant.delta', { content: 'a' }), line(4, 'assistant.delta', { content: 'b' }), line(5, 'assistant.delta', { content: 'c' }),
    line(6, 'tool.proposed', { call_id: 'c1', name: 'bash', arguments: { command: 'ls' } }),
    line(7, 'tool.started', { call_id: 'c1', name: 'bash' }),
    line(8, 'tool.progress', { call_id: 'c1', text: '10%' }), line(9, 'tool.progress', { call_id: 'c1', text: '20%' }),
    line(10, 'tool.progress', { call_id: 'c1', text: '30%' }),
    line(11, 'tool.completed', { call_id: 'c1', name: 'bash', success: true, output: 'done', truncated: false }),
    line(12, 'assistant.delta', { content: 'd' }), line(13, 'assistant.delta', { content: 'e' }),
    '{"type":"assistant.delta", not json',
    // seq 14 never arrives
    line(15, 'assistant.delta', { content: 'f' }), line(16, 'assistant.delta', { content: 'g' }),
    line(17, 'assistant.completed', { content: 'defg' }),
    line(18, 'turn.completed', { steps: 1, usage: { input_tokens: 12345, output_tokens: 6 } }),
  ];
  const server = await fakeScvServer(dir, { mode: 'script', script });
  const s = makeDriver(server.socketPath, join(dir, 'storage'), workspace);
  // The script arrives with the session: listen before connecting, keep the session's patches.
  const all: { runKey: string; patch: TranscriptPatch }[] = [];
  s.store.onDidPatch((p) => all.push(p));
  try {
    const runId = await connected(s);
    const key = runKeyOf(CONNECTION, runId);
    await until('the turn completed', () => s.store.transcript(key)?.snapshot().some((i) => i.kind === 'turn' && i.phase === 'completed'));
    const items = s.store.transcript(key)!.snapshot();
    const patches = all.filter((p) => p.runKey === key).map((p) => p.patch);
    const texts = patches.flatMap((p) => (p.op === 'add' && p.item.kind === 'text' ? [p.item.text] : p.op === 'append' ? [p.chunk] : []));
    // 'd'+'e' are cut by the bad line (an error item), 'f'+'g' start after the gap; `assistant.completed` then
    // replaces the open text with its canonical content (an update, not a chunk).
    assert.deepEqual(texts, ['abc', 'de', 'fg']);
    const progress = patches.filter((p) => p.op === 'update' && typeof p.changes['progress'] === 'string');
    assert.deepEqual(progress.map((p) => p.op === 'update' && p.changes['progress']), ['30%'], 'three progress lines, one update');
    const order = items.map((i) => i.kind).filter((k) => k !== 'notice');
    assert.deepEqual(order, ['turn', 'text', 'tool', 'text', 'error', 'gap', 'text', 'usage', 'turn']);
    const gap = items.find((i) => i.kind === 'gap');
    assert.ok(gap?.kind === 'gap' && gap.from === 14 && gap.to === 14, JSON.stringify(gap));
    assert.deepEqual(items.filter((i) => i.kind === 'text').map((i) => i.kind === 'text' && i.text), ['abc', 'de', 'defg']);
  } finally {
    await s.driver.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

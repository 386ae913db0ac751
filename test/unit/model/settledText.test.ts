/**
 * extension/model/settledText.ts: an item that stopped growing holds its text flat, not as the rope of its deltas.
 * Seen in a heap snapshot: the deltas (strings of a shape nothing else makes) are still in the heap while the rope
 * holds them, and gone once it was flattened and collected. The snapshot collects garbage itself.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSnapshot } from 'node:v8';
import type { RunEvent } from '../../../extension/model/modelActions';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';

const DELTA = /^"?qz\d+zq "?$/;

/** How many strings in the heap look like one of our deltas. */
async function deltasInHeap(): Promise<number> {
  let json = '';
  for await (const chunk of getHeapSnapshot()) {
    json += String(chunk);
  }
  const snapshot = JSON.parse(json) as { strings: string[] };
  return snapshot.strings.filter((s) => DELTA.test(s)).length;
}

function streamed(kind: 'textDelta' | 'reasoningDelta' | 'toolOutputDelta', close: RunEvent): { store: RunStore; text: () => unknown } {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'Fix it', state: 'running' } });
  const key = runKeyOf('c', 'r1');
  let seq = 0;
  const ev = (event: RunEvent): void => store.dispatch({ type: 'runEvent', runKey: key, sequence: ++seq, event });
  if (kind === 'toolOutputDelta') {
    ev({ kind: 'toolCall', callId: 'call', name: 'Bash', input: {} });
  }
  for (let i = 0; i < 300; i++) {
    const text = `qz${i}zq `;
    ev(kind === 'toolOutputDelta' ? { kind, callId: 'call', delta: text } : { kind, text });
  }
  ev(close);
  const item = store.transcript(key)!.at(0) as unknown as Record<string, unknown>;
  return { store, text: () => item[kind === 'toolOutputDelta' ? 'output' : 'text'] };
}

const expected = Array.from({ length: 300 }, (_, i) => `qz${i}zq `).join('');

test('a closed text stream, a closed reasoning stream and a tool call ended without result keep one flat string', async () => {
  const held = [
    streamed('textDelta', { kind: 'messageBoundary' }),
    streamed('reasoningDelta', { kind: 'textDelta', text: 'and now the answer' }),
    streamed('toolOutputDelta', { kind: 'turn', turnId: 't', phase: 'completed' }),
  ];
  assert.equal(await deltasInHeap(), 0, 'no delta survives the streams');
  for (const { text } of held) {
    assert.equal(text(), expected, 'the text is unchanged');
  }
});

test('an item still streaming holds its deltas (the check above sees them)', async () => {
  const open = streamed('textDelta', { kind: 'toolProgress', callId: 'none', text: 'unrelated' });
  const n = await deltasInHeap();
  assert.ok(n > 250, `${n} deltas in the heap`); // all but the first few, which V8 copies flat while short
  assert.equal(open.text(), expected);
});

/**
 * PatchCoalescer: streaming bursts go out as one `patches` message per frame; a burst too big for that (catch-up,
 * journal replay) goes out as one snapshot once it pauses — at most once a second while it goes on.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import type { TranscriptPatch } from '../../../../extension/protocol/transcriptTypes';
import { BURST_AS_SNAPSHOT, PatchCoalescer } from '../../../../extension/ui/transcript/patchCoalescer';
import type { CoalescedOutput } from '../../../../extension/ui/transcript/patchCoalescer';

const append = (i: number): TranscriptPatch => ({ op: 'append', id: 'x1', field: 'text', chunk: String(i) });

beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
afterEach(() => mock.timers.reset());

function rig(): { coalescer: PatchCoalescer; sent: CoalescedOutput[] } {
  const sent: CoalescedOutput[] = [];
  const coalescer: PatchCoalescer = new PatchCoalescer(() => sent.push(coalescer.take()));
  return { coalescer, sent };
}

test('streaming at any agent rate is patches only: 200 deltas a second for 10 s', () => {
  const { coalescer, sent } = rig();
  for (let seq = 1; seq <= 2_000; seq++) {
    coalescer.add(seq, append(seq));
    mock.timers.tick(5);
  }
  mock.timers.tick(16);
  assert.ok(sent.every((o) => o.kind === 'patches'));
  assert.equal(sent.reduce((n, o) => n + (o.kind === 'patches' ? o.patches.length : 0), 0), 2_000);
});

test('a burst of deltas is one patches message per 16 ms, in order, from its first sequence', () => {
  const { coalescer, sent } = rig();
  for (let seq = 5; seq < 10; seq++) {
    coalescer.add(seq, append(seq));
  }
  mock.timers.tick(15);
  assert.deepEqual(sent, []);
  mock.timers.tick(1);
  assert.deepEqual(sent, [{ kind: 'patches', firstSeq: 5, patches: [5, 6, 7, 8, 9].map(append) }]);
  coalescer.add(10, append(10));
  mock.timers.tick(16);
  assert.deepEqual(sent.at(-1), { kind: 'patches', firstSeq: 10, patches: [append(10)] });
});

/** `perMs` appends every millisecond for `ms` milliseconds, from sequence 1; returns the next sequence. */
function flood(coalescer: ReturnType<typeof rig>['coalescer'], ms: number, perMs: number): number {
  let seq = 1;
  for (let t = 0; t < ms; t++) {
    for (let k = 0; k < perMs; k++) {
      coalescer.add(seq, append(seq));
      seq++;
    }
    mock.timers.tick(1);
  }
  return seq;
}

test('a burst bigger than BURST_AS_SNAPSHOT becomes one snapshot after it pauses, not a flood of patches', () => {
  const { coalescer, sent } = rig();
  // A replay: 5,000 patches arriving over 400 ms without a pause.
  const seq = flood(coalescer, 400, 13);
  // The first frames went out as patches before the rate gave the flood away; then nothing while it goes on.
  const before = sent.length;
  assert.ok(sent.every((o) => o.kind === 'patches') && before <= 6, JSON.stringify(sent.map((o) => o.kind)));
  mock.timers.tick(100);
  assert.deepEqual(sent.slice(before), [{ kind: 'snapshot' }]);
  // Once the flood is over, small bursts are patches again.
  mock.timers.tick(300);
  coalescer.add(seq, append(seq));
  mock.timers.tick(16);
  assert.deepEqual(sent.at(-1), { kind: 'patches', firstSeq: seq, patches: [append(seq)] });
});

test('a burst that never pauses still gets a snapshot about once a second', () => {
  const { coalescer, sent } = rig();
  flood(coalescer, 3_500, 5);
  const snapshots = sent.filter((o) => o.kind === 'snapshot').length;
  assert.ok(snapshots >= 2 && snapshots <= 4, `${snapshots} snapshots in 3.5 s (${sent.length} outputs)`);
  assert.ok(sent.every((o) => o.kind === 'snapshot' || (o.kind === 'patches' && o.patches.length <= BURST_AS_SNAPSHOT)));
});

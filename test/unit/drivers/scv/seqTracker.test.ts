import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeqTracker } from '../../../../extension/drivers/scv/seqTracker';

describe('SeqTracker', () => {
  it('takes the first seq as baseline and accepts consecutive seqs', () => {
    const t = new SeqTracker();
    assert.deepEqual(t.observe(7), { kind: 'baseline', seq: 7 });
    assert.deepEqual(t.observe(8), { kind: 'ok', seq: 8 });
    assert.deepEqual(t.observe(9), { kind: 'ok', seq: 9 });
    assert.equal(t.lastSeq, 9);
  });

  it('reports a jump as lost events from..to', () => {
    const t = new SeqTracker();
    t.observe(1);
    assert.deepEqual(t.observe(5), { kind: 'gap', seq: 5, from: 2, to: 4 });
    assert.deepEqual(t.observe(6), { kind: 'ok', seq: 6 });
  });

  it('lets an unknown event without seq excuse exactly one gap', () => {
    const t = new SeqTracker();
    t.observe(1);
    assert.equal(t.observeUnknown(), undefined);
    assert.deepEqual(t.observe(3), { kind: 'ok', seq: 3 });
    // The excuse is used up: the next jump is a real gap.
    assert.deepEqual(t.observe(5), { kind: 'gap', seq: 5, from: 4, to: 4 });
  });

  it('one unknown event does not excuse a jump of two', () => {
    const t = new SeqTracker();
    t.observe(10);
    t.observeUnknown();
    assert.deepEqual(t.observe(13), { kind: 'gap', seq: 13, from: 12, to: 12 });
  });

  it('two unknown events excuse two numbers', () => {
    const t = new SeqTracker();
    t.observe(10);
    t.observeUnknown();
    t.observeUnknown();
    assert.deepEqual(t.observe(13), { kind: 'ok', seq: 13 });
  });

  it('advances to the seq an unknown event carries', () => {
    const t = new SeqTracker();
    t.observe(1);
    assert.deepEqual(t.observeUnknown(2), { kind: 'ok', seq: 2 });
    assert.deepEqual(t.observe(3), { kind: 'ok', seq: 3 });
    // An unknown event whose own seq jumps still reveals the events before it as lost.
    assert.deepEqual(t.observeUnknown(6), { kind: 'gap', seq: 6, from: 4, to: 5 });
  });

  it('an unknown event with seq can be the baseline', () => {
    const t = new SeqTracker();
    assert.deepEqual(t.observeUnknown(4), { kind: 'baseline', seq: 4 });
    assert.deepEqual(t.observe(5), { kind: 'ok', seq: 5 });
  });

  it('flags repeated or reordered seqs without moving back', () => {
    const t = new SeqTracker();
    t.observe(5);
    assert.deepEqual(t.observe(5), { kind: 'stale', seq: 5, last: 5 });
    assert.deepEqual(t.observe(3), { kind: 'stale', seq: 3, last: 5 });
    assert.deepEqual(t.observe(6), { kind: 'ok', seq: 6 });
  });

  it('reset starts a new baseline (new session)', () => {
    const t = new SeqTracker();
    t.observe(50);
    t.observeUnknown();
    t.reset();
    assert.deepEqual(t.observe(1), { kind: 'baseline', seq: 1 });
    assert.deepEqual(t.observe(3), { kind: 'gap', seq: 3, from: 2, to: 2 });
  });
});

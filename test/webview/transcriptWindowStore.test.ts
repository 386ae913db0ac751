/**
 * The webview store as a window (pure; Node): ranges load only "as of" our sequence, merge with the window next to
 * them or replace it, trim around where the user looks; patches to items outside are skipped exactly (a later
 * range brings them), adds past an unloaded tail only count; and what the loader asks for (`missingSpan`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Transcript } from '../../extension/model/transcript';
import { rangeOf, tailWindow } from '../../extension/model/transcriptWindow';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { TRANSCRIPT_WINDOW } from '../../extension/protocol/webviewMessages';
import { missingSpan } from '../../webview/rangeLoader';
import { TranscriptStore, WINDOW_CAP } from '../../webview/transcriptStore';
import { sampleRun } from './fixtures';

const text = (i: number): TranscriptItem => ({ id: `t${i}`, kind: i % 10 === 0 ? 'user' : 'text', text: `p${i}`, ...(i % 10 === 0 ? {} : { streaming: false }) }) as TranscriptItem;

function pair(count: number): { host: Transcript; view: TranscriptStore } {
  const host = new Transcript();
  for (let i = 0; i < count; i++) {
    host.apply({ op: 'add', item: text(i) });
  }
  const view = new TranscriptStore();
  view.reset(sampleRun(), tailWindow(host));
  view.takeChanges();
  return { host, view };
}

/** Loads `[start, end)` from the host, as a `range` answer would. */
function load(host: Transcript, view: TranscriptStore, start: number, end: number): boolean {
  const range = rangeOf(host, start, end)!;
  return view.load(range.start, range.items, host.seq);
}

test('a snapshot of the tail: the count and kinds of all, the items of the window only', () => {
  const { view } = pair(5_000);
  assert.equal(view.length, 5_000);
  assert.deepEqual(view.loaded, { start: 5_000 - TRANSCRIPT_WINDOW.snapshotItems, end: 5_000 });
  assert.equal(view.at(0), undefined);
  assert.equal(view.kindAt(0), 'user');
  assert.equal(view.kindAt(1), 'text');
  assert.equal(view.at(4_999)?.id, 't4999');
});

test('ranges: adjacent ones merge, far ones replace, stale ones (another seq) are refused', () => {
  const { host, view } = pair(5_000);
  assert.equal(load(host, view, 4_600, 4_850), true);
  assert.deepEqual(view.loaded, { start: 4_600, end: 5_000 });
  assert.deepEqual(view.takeChanges().loaded, [{ start: 4_600, end: 4_850 }]);
  assert.equal(load(host, view, 0, 100), true);
  assert.deepEqual(view.loaded, { start: 0, end: 100 });
  assert.equal(view.indexOf('t4999'), -1, 'the old window is gone');
  assert.equal(view.at(42)?.id, 't42');
  host.apply({ op: 'append', id: 't5', field: 'text', chunk: '!' });
  assert.equal(load(host, view, 100, 200), false, 'the host is one patch ahead: the view has not seen it');
  assert.deepEqual(view.loaded, { start: 0, end: 100 });
});

test('patches to items outside the window are skipped exactly: the next range has them as the host does', () => {
  const { host, view } = pair(3_000);
  const patch = { op: 'append' as const, id: 't10', field: 'text' as const, chunk: ' grown' };
  host.apply(patch);
  assert.deepEqual(view.applyPatches(host.seq, [patch]), { ok: true });
  assert.equal(load(host, view, 0, 50), true);
  assert.deepEqual(view.get('t10'), host.get('t10'), 'appended once, not twice or never');
  const inside = { op: 'append' as const, id: 't10', field: 'text' as const, chunk: ' again' };
  host.apply(inside);
  assert.deepEqual(view.applyPatches(host.seq, [inside]), { ok: true });
  assert.deepEqual(view.get('t10'), host.get('t10'));
});

test('adds: into the window while it holds the tail, only counted while the user reads elsewhere', () => {
  const { host, view } = pair(3_000);
  const add = (i: number) => {
    const patch = { op: 'add' as const, item: text(i) };
    host.apply(patch);
    assert.deepEqual(view.applyPatches(host.seq, [patch]), { ok: true });
  };
  add(3_000);
  assert.equal(view.at(3_000)?.id, 't3000');
  load(host, view, 0, 100);
  add(3_001);
  assert.equal(view.length, 3_002);
  assert.equal(view.at(3_001), undefined);
  assert.equal(view.kindAt(3_001), 'text');
  assert.equal(view.takeChanges().added, 2);
});

test('the window never holds more than WINDOW_CAP (+ streaming slack), and keeps what the user looks at', () => {
  const { host, view } = pair(10_000);
  // Scrolling down from 4,000 to 7,000, then back up to 3,000, as the loader asks: next to the window, at the focus.
  const step = TRANSCRIPT_WINDOW.rangeMax;
  load(host, view, 4_000, 4_000 + step);
  for (let end = 4_000 + step; end < 7_000; end += step) {
    view.focus = end - 100;
    assert.equal(load(host, view, end, end + step), true);
    assert.ok(view.loaded.end - view.loaded.start <= WINDOW_CAP, JSON.stringify(view.loaded));
    assert.ok(view.at(view.focus), `the focus ${view.focus} stays loaded`);
  }
  for (let start = view.loaded.start; start > 3_000; start -= step) {
    view.focus = start + 100;
    assert.equal(load(host, view, start - step, start), true);
    assert.ok(view.loaded.end - view.loaded.start <= WINDOW_CAP, JSON.stringify(view.loaded));
    assert.ok(view.at(view.focus - 300) && view.at(view.focus + 300), `around the focus ${view.focus}: ${JSON.stringify(view.loaded)}`);
  }
  // Streaming at the tail with the user at the bottom: the window follows, bounded.
  const tail = pair(1_000);
  for (let i = 1_000; i < 4_000; i++) {
    tail.view.focus = i;
    const patch = { op: 'add' as const, item: text(i) };
    tail.host.apply(patch);
    tail.view.applyPatches(tail.host.seq, [patch]);
    assert.ok(tail.view.loaded.end - tail.view.loaded.start <= WINDOW_CAP + 250);
  }
  assert.equal(tail.view.loaded.end, 4_000);
});

test('a patch for an unknown item is still refused while the whole transcript is loaded', () => {
  const view = new TranscriptStore();
  view.reset(sampleRun(), { items: [text(0)], seq: 1 });
  assert.equal(view.applyPatches(2, [{ op: 'append', id: 'nope', field: 'text', chunk: 'x' }]).ok, false);
});

test('missingSpan: nothing when loaded; next to the window when it touches; around the screen when far', () => {
  const loaded = { start: 1_000, end: 2_000 };
  assert.equal(missingSpan({ start: 1_400, end: 1_450 }, loaded, 5_000), null);
  assert.deepEqual(missingSpan({ start: 1_010, end: 1_050 }, loaded, 5_000), { start: 890, end: 1_000 });
  assert.deepEqual(missingSpan({ start: 1_950, end: 1_990 }, loaded, 5_000), { start: 2_000, end: 2_110 });
  assert.deepEqual(missingSpan({ start: 3_000, end: 3_040 }, loaded, 5_000), { start: 2_880, end: 3_160 });
  assert.deepEqual(missingSpan({ start: 0, end: 30 }, { start: 0, end: 0 }, 30), { start: 0, end: 30 });
  const long = missingSpan({ start: 100, end: 900 }, { start: 0, end: 0 }, 5_000)!;
  assert.ok(long.end - long.start <= TRANSCRIPT_WINDOW.rangeMax && long.start <= 100 && long.end > 100);
});

/**
 * The host's real patch stream into the webview's store: every golden stream (recorded from the reference daemons,
 * replayed through the drivers' own mappings into a RunStore, goldenReplay.ts) is posted as the transcript view
 * posts it — a snapshot, then `patches` messages, serialised and validated with the host→webview schema as
 * webview/main.ts does — into webview/transcriptStore.ts. The store must take every patch (a refused patch is a
 * resync in the real webview) and end with the host's items.
 *
 * Three ways to post: one patch per message, the whole stream in one message, and a snapshot taken halfway (the
 * webview opened mid-run) followed by the rest.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PatchEvent } from '../../../extension/model/runStore';
import { runSummaryOf } from '../../../extension/ui/runSummary';
import type { TranscriptItem, TranscriptPatch } from '../../../extension/protocol/transcriptTypes';
import { hostToWebviewSchema } from '../../../extension/protocol/webviewMessages';
import type { HostToWebview } from '../../../extension/protocol/webviewMessages';
import { TranscriptStore } from '../../../webview/transcriptStore';
import { readFrames } from './goldenKit';
import { goldenStore, goldens } from './goldenReplay';

/** What crosses postMessage: JSON, then the webview's validation (an invalid message is dropped there). */
function deliver(message: HostToWebview): HostToWebview {
  const parsed = hostToWebviewSchema.safeParse(JSON.parse(JSON.stringify(message)));
  assert.ok(parsed.success, `the webview would drop this ${message.type} message: ${parsed.success ? '' : parsed.error.message}`);
  return parsed.data;
}

interface RunStream {
  readonly patches: PatchEvent[];
  /** The host's items at the end. */
  items: TranscriptItem[];
  /** The host's items and sequence right after patch number `snapshotAt` (when asked for). */
  midway?: { readonly seq: number; readonly items: TranscriptItem[] };
}

/** Replays a golden stream into a fresh RunStore and records each run's patches as the store fires them. */
function record(daemon: string, name: string, replay: (typeof goldens)[number]['replay'], snapshotAt?: ReadonlyMap<string, number>) {
  const store = goldenStore();
  const byRun = new Map<string, RunStream>();
  store.onDidPatch((event) => {
    let run = byRun.get(event.runKey);
    if (!run) {
      run = { patches: [], items: [] };
      byRun.set(event.runKey, run);
    }
    run.patches.push(event);
    // The store fires after applying, so its transcript is exactly what a snapshot posted now would carry.
    if (snapshotAt?.get(event.runKey) === run.patches.length) {
      run.midway = { seq: event.seq, items: store.transcript(event.runKey)?.snapshot() ?? [] };
    }
  });
  replay(readFrames(daemon, name), store);
  for (const [runKey, run] of byRun) {
    run.items = store.transcript(runKey)?.snapshot() ?? [];
  }
  return { byRun, store };
}

function feed(webview: TranscriptStore, runKey: string, batches: readonly (readonly PatchEvent[])[]): string[] {
  const refused: string[] = [];
  for (const batch of batches) {
    if (batch.length === 0) {
      continue;
    }
    const message = deliver({ type: 'patches', runKey, firstSeq: batch[0]!.seq, patches: batch.map((e) => e.patch) });
    assert.equal(message.type, 'patches');
    if (message.type !== 'patches') {
      continue;
    }
    const result = webview.applyPatches(message.firstSeq, message.patches);
    if (!result.ok) {
      refused.push(result.reason);
      break;
    }
  }
  return refused;
}

/** The webview's items after a JSON round trip of the host's, which is what a snapshot would carry. */
const asSent = (items: readonly TranscriptItem[]): TranscriptItem[] => JSON.parse(JSON.stringify(items)) as TranscriptItem[];

for (const { daemon, name, replay } of goldens) {
  test(`golden ${daemon}/${name}: the webview store takes the host's whole patch stream (no resync) and ends equal`, () => {
    const { byRun, store } = record(daemon, name, replay);
    assert.ok(byRun.size > 0, 'the stream produced transcript patches');
    for (const [runKey, run] of byRun) {
      const summary = runSummaryOf(store.state, runKey);
      const kinds = new Set(run.items.map((i) => i.kind));
      const ops = new Set(run.patches.map((e) => e.patch.op));

      const oneByOne = new TranscriptStore();
      oneByOne.reset(summary, { items: [], seq: 0 });
      assert.deepEqual(feed(oneByOne, runKey, run.patches.map((e) => [e])), [], `${runKey}: patches refused (each would resync)`);
      assert.equal(oneByOne.seq, run.patches.at(-1)?.seq);
      assert.deepEqual(oneByOne.loadedItems, asSent(run.items), `${runKey}: the webview's items equal the host's`);

      const batched = new TranscriptStore();
      batched.reset(summary, { items: [], seq: 0 });
      assert.deepEqual(feed(batched, runKey, [run.patches]), [], `${runKey}: one coalesced batch refused`);
      assert.deepEqual(batched.loadedItems, asSent(run.items));

      assert.ok(ops.has('add'), `${runKey}: ${[...ops].join(', ')} (kinds ${[...kinds].join(', ')})`);
    }
  });

  test(`golden ${daemon}/${name}: a webview opened mid-run (snapshot, then the rest) also needs no resync`, () => {
    const counts = new Map([...record(daemon, name, replay).byRun].map(([runKey, run]) => [runKey, Math.floor(run.patches.length / 2)]));
    const { byRun, store } = record(daemon, name, replay, counts);
    for (const [runKey, run] of byRun) {
      const half = counts.get(runKey) ?? 0;
      const midway = run.midway ?? { seq: 0, items: [] };
      const snapshot = deliver({ type: 'snapshot', run: runSummaryOf(store.state, runKey), items: midway.items, seq: midway.seq });
      assert.equal(snapshot.type, 'snapshot');
      if (snapshot.type !== 'snapshot') {
        continue;
      }
      const webview = new TranscriptStore();
      webview.reset(snapshot.run, { items: snapshot.items, seq: snapshot.seq });
      assert.deepEqual(feed(webview, runKey, run.patches.slice(half).map((e) => [e])), [], `${runKey}: patches after the snapshot refused`);
      assert.deepEqual(webview.loadedItems, asSent(run.items));
    }
  });
}

/** Sanity: the comparison is not vacuous — a patch the host would never send is refused by the webview store. */
test('a patch for an item the webview does not have is refused (what a resync looks like here)', () => {
  const webview = new TranscriptStore();
  webview.reset(null, { items: [], seq: 0 });
  const patch: TranscriptPatch = { op: 'append', id: 'nope', field: 'text', chunk: 'x' };
  assert.equal(webview.applyPatches(1, [patch]).ok, false);
});

/**
 * Every store a driver test builds (driverSetup) also feeds the webview's TranscriptStore, as the transcript view
 * would: each patch event serialised, validated with the host→webview schema and applied in sequence. A refused
 * patch (a resync in the real webview) or a final item list that differs from the host's fails the test file, so
 * every event kind every driver test produces, against the reference daemons, is checked to fold in the webview
 * exactly as on the host.
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { PatchEvent, RunStore } from '../../../extension/model/runStore';
import type { Transcript } from '../../../extension/model/transcript';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { hostToWebviewSchema } from '../../../extension/protocol/webviewMessages';
import { TranscriptStore } from '../../../webview/transcriptStore';

export class WebviewMirror {
  private readonly views = new Map<string, TranscriptStore>();
  /** The host transcript each view follows (a restored run gets a new one). */
  private readonly hosts = new Map<string, Transcript>();
  /** Why a patch was refused, one entry per would-be resync. */
  readonly refused: string[] = [];
  patches = 0;

  constructor(private readonly store: RunStore) {
    store.onDidPatch((event) => this.take(event));
  }

  private take(event: PatchEvent): void {
    this.patches++;
    let view = this.views.get(event.runKey);
    const host = this.store.transcript(event.runKey);
    if (host && host !== this.hosts.get(event.runKey) && event.seq > 1) {
      // A transcript restored whole (a run checkpoint): the view starts from its snapshot, which has this patch.
      this.hosts.set(event.runKey, host);
      view = new TranscriptStore();
      view.reset(null, { items: JSON.parse(JSON.stringify(host.snapshot())) as TranscriptItem[], seq: event.seq });
      this.views.set(event.runKey, view);
      return;
    }
    if (host) {
      this.hosts.set(event.runKey, host);
    }
    // A transcript starts at seq 1 (a new run, or one removed and added again): a fresh view, as after a snapshot.
    if (!view || event.seq === 1) {
      view = new TranscriptStore();
      view.reset(null, { items: [], seq: 0 });
      this.views.set(event.runKey, view);
    }
    const message = hostToWebviewSchema.safeParse(JSON.parse(JSON.stringify({ type: 'patches', runKey: event.runKey, firstSeq: event.seq, patches: [event.patch] })));
    const result =
      !message.success || message.data.type !== 'patches'
        ? { ok: false as const, reason: `the webview drops the message: ${message.success ? message.data.type : message.error.message}` }
        : view.applyPatches(message.data.firstSeq, message.data.patches);
    if (!result.ok) {
      this.refused.push(`${event.runKey} seq ${event.seq} ${JSON.stringify(event.patch).slice(0, 200)}: ${result.reason}`);
      // What the real webview ends up with after its resync: the host's snapshot.
      view.reset(null, { items: this.store.transcript(event.runKey)?.snapshot() ?? [], seq: event.seq });
    }
  }

  /** Runs whose webview items differ from the host's (after a JSON round trip, which is what a snapshot carries). */
  differences(): string[] {
    const out: string[] = [];
    for (const [runKey, view] of this.views) {
      const host = this.store.transcript(runKey);
      if (!host) {
        continue; // The run was removed: the view would be closed.
      }
      const expected = JSON.parse(JSON.stringify(host.snapshot())) as TranscriptItem[];
      try {
        assert.deepEqual(view.loadedItems, expected);
      } catch {
        out.push(`${runKey}: webview items differ from the host's`);
      }
    }
    return out;
  }
}

const mirrors: WebviewMirror[] = [];

// Registered when this module loads, i.e. at the top level of the test file that imports it: the hook then belongs
// to the file's root and runs once after all its tests, over every mirror they made. Only under node --test (a
// script such as recordGolden.ts also builds drivers and must not start a test run).
if (process.env.NODE_TEST_CONTEXT !== undefined) {
  after(() => {
    const refused = mirrors.flatMap((m) => m.refused);
    const differences = mirrors.flatMap((m) => m.differences());
    assert.deepEqual(refused, [], `the webview's TranscriptStore refused patches the host applied (each is a resync)`);
    assert.deepEqual(differences, []);
  });
}

/** Mirrors `store` into a webview store; the file fails at its end if any mirror disagreed with the host. */
export function mirrorIntoWebview(store: RunStore): WebviewMirror {
  const mirror = new WebviewMirror(store);
  mirrors.push(mirror);
  return mirror;
}

/**
 * The host side of the windowed transcript for the webview tier: a real host `Transcript` (extension/model), its
 * snapshot built by the host's own `tailWindow`, and the webview's `range` / `find` / `locate` requests answered by
 * the surface's own `answerViewRequest` — so these tests run the code the extension host runs, minus VS Code.
 */
import { Transcript } from '../../extension/model/transcript';
import { tailWindow } from '../../extension/model/transcriptWindow';
import type { TranscriptItem, TranscriptPatch } from '../../extension/protocol/transcriptTypes';
import type { RunSummary, WebviewToHost } from '../../extension/protocol/webviewMessages';
import { answerViewRequest, isViewRequest } from '../../extension/ui/transcript/viewRequests';
import type { Harness } from './harness';

export class FakeHost {
  readonly transcript = new Transcript();
  /** Requests answered, by type (tests assert the view asked for ranges rather than holding everything). */
  readonly answered: WebviewToHost[] = [];
  private delivering: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly harness: Harness,
    readonly run: RunSummary,
    items: Iterable<TranscriptItem> = [],
  ) {
    for (const item of items) {
      this.transcript.apply({ op: 'add', item });
    }
    this.unsubscribe = harness.onPost((message) => this.receive(message));
  }

  /** Stops answering (another host, e.g. after a reload, takes over). */
  close(): void {
    this.unsubscribe();
  }

  /** The snapshot the surface would send now (the tail window). */
  async sendSnapshot(): Promise<void> {
    const window = tailWindow(this.transcript);
    await this.deliver({ type: 'snapshot', run: this.run, items: window.items, start: window.start, total: window.total, kinds: window.kinds, seq: window.seq });
  }

  /** Applies `patches` here and delivers them, as the surface forwards the store's patches. */
  async patch(patches: readonly TranscriptPatch[]): Promise<void> {
    const firstSeq = this.transcript.seq + 1;
    for (const patch of patches) {
      this.transcript.apply(patch);
    }
    await this.deliver({ type: 'patches', runKey: this.run.key, firstSeq, patches: [...patches] });
  }

  /** Waits until every answer so far has been delivered (answers are delivered in order). */
  async idle(): Promise<void> {
    for (let before = this.delivering; ; before = this.delivering) {
      await before;
      if (before === this.delivering) {
        return;
      }
    }
  }

  private receive(message: WebviewToHost): void {
    if (!isViewRequest(message)) {
      return;
    }
    this.answered.push(message);
    // In the order asked (a search answers turns later), and `idle` waits for it.
    this.delivering = this.delivering
      .then(() => answerViewRequest(message, this.run.key, this.transcript))
      .then((answer) => (answer ? this.harness.page.evaluate((m) => window.postMessage(m, '*'), answer) : undefined))
      .catch(() => undefined);
  }

  private deliver(message: unknown): Promise<void> {
    this.delivering = this.delivering.then(() => this.harness.page.evaluate((m) => window.postMessage(m, '*'), message)).catch(() => undefined);
    return this.delivering;
  }
}

/** The mixed items the 100k tests use (the same shapes as bench/webview.ts): `count` of them from index `from`. */
export function mixedItems(count: number, from = 0): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (let i = from; i < from + count; i++) {
    const id = `item-${i}`;
    switch (i % 5) {
      case 0:
        items.push({ id, kind: 'user', text: `prompt ${i}` });
        break;
      case 1:
        items.push({ id, kind: 'text', text: `answer ${i} `.repeat(1 + (i % 13) * 4), streaming: false });
        break;
      case 2:
        items.push({ id, kind: 'tool', callId: `c${i}`, name: 'bash', input: { command: `echo ${i}` }, status: 'succeeded', output: `out ${i}\n`.repeat(1 + (i % 7)), truncated: false });
        break;
      case 3:
        items.push({ id, kind: 'usage', data: {}, summary: `usage ${i}` });
        break;
      default:
        items.push({ id, kind: 'notice', text: `notice ${i}`, level: 'info' });
    }
  }
  return items;
}

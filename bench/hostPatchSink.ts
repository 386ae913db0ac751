/**
 * What the host does with transcript patches before the webview sees them, without VS Code: the same steps as
 * `TranscriptViewProvider.onPatch` / `flush` (extension/ui, which imports vscode): collect the selected run's patches,
 * coalesce them into one `patches` message per 16 ms tick (or on demand), and hand the message to `postMessage`,
 * which serialises it — here JSON.stringify, to count the bytes.
 */
import type { Disposable } from '../extension/base/emitter';
import type { RunStore } from '../extension/model/runStore';
import type { TranscriptPatch } from '../extension/protocol/transcriptTypes';
import type { HostToWebview } from '../extension/protocol/webviewMessages';

export class HostPatchSink implements Disposable {
  private pending: TranscriptPatch[] = [];
  private firstSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: Disposable;
  messages = 0;
  bytes = 0;
  patches = 0;
  /** Sequence of the last patch posted. */
  lastSeq = 0;

  constructor(
    store: RunStore,
    private readonly runKey: string,
    /** Coalesce on a 16 ms timer like the provider; false = the caller flushes. */
    private readonly timed: boolean,
    private readonly onPost?: (message: HostToWebview, json: string) => void,
  ) {
    this.subscription = store.onDidPatch((event) => {
      if (event.runKey !== this.runKey) {
        return;
      }
      if (this.pending.length === 0) {
        this.firstSeq = event.seq;
      }
      this.pending.push(event.patch);
      if (this.timed) {
        this.timer ??= setTimeout(() => this.flush(), 16);
      }
    });
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) {
      return;
    }
    const message: HostToWebview = { type: 'patches', runKey: this.runKey, firstSeq: this.firstSeq, patches: this.pending };
    const json = JSON.stringify(message);
    this.messages += 1;
    this.bytes += Buffer.byteLength(json);
    this.patches += this.pending.length;
    this.lastSeq = this.firstSeq + this.pending.length - 1;
    this.pending = [];
    this.onPost?.(message, json);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
  }
}

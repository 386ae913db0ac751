/**
 * A `vscode.WebviewView` for the extension's TranscriptViewProvider under the bench stub: what the surface posts goes
 * to `onPost` (a bench forwards it to headless Chromium, or only records it), and `receive` delivers what the page
 * posts back (`ready`, range requests). It tracks how far the view has been brought for one run: the sequence the
 * latest snapshot of that run carried, advanced by each patch message after it.
 */
import type { HostToWebview } from '../extension/protocol/webviewMessages';

type Listener = (message: unknown) => void;

export class BenchWebviewView {
  /** Messages the surface posted. */
  messages = 0;
  /** The run the view shows (its latest snapshot's), and the transcript sequence it has been sent up to. */
  shownRun: string | undefined;
  shownSeq = -1;
  private receivers: Listener[] = [];
  private disposeListeners: (() => void)[] = [];

  constructor(private readonly onPost: (message: HostToWebview) => void) {}

  /** The object handed to `resolveWebviewView`. */
  readonly view = {
    visible: true,
    title: 'Transcript',
    show: (): void => undefined,
    onDidDispose: (listener: () => void) => {
      this.disposeListeners.push(listener);
      return { dispose: () => (this.disposeListeners = this.disposeListeners.filter((l) => l !== listener)) };
    },
    onDidChangeVisibility: () => ({ dispose: () => undefined }),
    webview: {
      options: {},
      html: '',
      cspSource: 'https://bench.invalid',
      asWebviewUri: (uri: unknown) => uri,
      onDidReceiveMessage: (listener: Listener) => {
        this.receivers.push(listener);
        return { dispose: () => (this.receivers = this.receivers.filter((l) => l !== listener)) };
      },
      postMessage: (message: HostToWebview): Promise<boolean> => {
        this.track(message);
        this.onPost(message);
        return Promise.resolve(true);
      },
    },
  };

  /** A message from the page to the host. */
  receive(message: unknown): void {
    for (const listener of this.receivers) {
      listener(message);
    }
  }

  /** The view goes away (the window reloads). */
  dispose(): void {
    for (const listener of this.disposeListeners) {
      listener();
    }
  }

  private track(message: HostToWebview): void {
    this.messages += 1;
    if (message.type === 'snapshot') {
      this.shownRun = message.run?.key;
      this.shownSeq = message.seq;
    } else if (message.type === 'patches' && message.runKey === this.shownRun) {
      this.shownSeq = message.firstSeq + message.patches.length - 1;
    }
  }
}

/**
 * The extension host's end of bench/webviewPageProcess.ts: the transcript page in headless Chromium, in a child
 * process. `deliver` is VS Code's `webview.postMessage` (serialized here, painted there); what the page posts comes
 * to `onPost`.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

type ChildMessage =
  | { op: 'open' }
  | { op: 'reloaded' }
  | { op: 'posted'; message: unknown }
  | { op: 'painted'; bytes: number; errors: string[] }
  | { op: 'failed'; error: string };

export class WebviewPage {
  /** What the page posts (ready, range requests): the host's `onDidReceiveMessage`. */
  onPost: (message: unknown) => void = () => undefined;
  /** One answer awaited per op (a reload and a paint may be awaited at once). */
  private readonly waiting = new Map<string, { resolve: (m: ChildMessage) => void; reject: (e: Error) => void }>();
  private failure: string | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: ChildMessage) => {
      if (message.op === 'posted') {
        this.onPost(message.message);
        return;
      }
      if (message.op === 'failed') {
        this.failure = message.error;
        this.rejectAll(new Error(`the webview page failed: ${message.error}`));
        return;
      }
      const waiter = this.waiting.get(message.op);
      this.waiting.delete(message.op);
      waiter?.resolve(message);
    });
    child.once('exit', (code) => this.rejectAll(new Error(`the webview page process exited (${String(code)})`)));
  }

  static async open(): Promise<WebviewPage> {
    const child = fork(join(__dirname, 'webviewPageProcess.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    process.once('exit', () => child.kill('SIGKILL'));
    const page = new WebviewPage(child);
    await page.expect('open', () => undefined);
    return page;
  }

  /** A fresh page (the webview of a reloaded window); resolves once it has loaded and posted `ready`. */
  reload(): Promise<unknown> {
    return this.expect('reloaded', () => this.child.send({ op: 'reload' }));
  }

  deliver(message: unknown): void {
    this.child.send({ op: 'deliver', message });
  }

  /** Resolves once everything delivered is in and the item `id` is painted: the bytes delivered since the reload, and page errors. */
  async painted(id: string): Promise<{ bytes: number; errors: string[] }> {
    const reply = (await this.expect('painted', () => this.child.send({ op: 'painted', id }))) as Extract<ChildMessage, { op: 'painted' }>;
    return { bytes: reply.bytes, errors: reply.errors };
  }

  private expect(op: string, request: () => void): Promise<ChildMessage> {
    if (this.failure !== undefined) {
      return Promise.reject(new Error(`the webview page failed: ${this.failure}`));
    }
    if (this.waiting.has(op)) {
      return Promise.reject(new Error(`already waiting for ${op}`));
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(op, { resolve, reject });
      request();
    });
  }

  private rejectAll(error: Error): void {
    for (const waiter of this.waiting.values()) {
      waiter.reject(error);
    }
    this.waiting.clear();
  }
}

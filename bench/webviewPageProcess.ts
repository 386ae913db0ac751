/**
 * The transcript webview page in a process of its own, as VS Code keeps a webview out of the extension host: this
 * child (`fork`ed with `--import tsx`) opens the real webview bundle in headless Chromium (test/webview/harness.ts)
 * and bridges it to its parent over Node IPC, whose JSON serialization stands in for VS Code's. The parent's
 * process stays free of Playwright (its async hooks would tax every promise the extension makes). Messages:
 *   parent → child  {op:'reload'}              a fresh page (a new webview); its posts come back as {op:'posted'}
 *                   {op:'deliver', message}    posted to the page, in order
 *                   {op:'painted', id}         answered {op:'painted', bytes, errors} once every delivered message
 *                                              is in and the item `id` is on screen, a frame later
 *   child → parent  {op:'open'} once the browser is up, {op:'reloaded'}, {op:'posted', message}, {op:'failed', error}
 */
import { join } from 'node:path';

interface Page {
  evaluate<R>(expression: string): Promise<R>;
}
interface Harness {
  readonly page: Page;
  readonly errors: string[];
  onPost(listener: (message: unknown) => void): () => void;
  reload(): Promise<void>;
  close(): Promise<void>;
}
type ParentMessage = { op: 'reload' } | { op: 'deliver'; message: unknown } | { op: 'painted'; id: string };

function send(message: unknown): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const { openHarness } = (await import(join(__dirname, '..', 'test', 'webview', 'harness.ts'))) as { openHarness(o: { width: number; height: number }): Promise<Harness> };
  const harness = await openHarness({ width: 420, height: 800 });
  harness.onPost((message) => send({ op: 'posted', message }));
  let chain: Promise<unknown> = Promise.resolve();
  let bytes = 0;
  const queue = (step: () => Promise<unknown>): void => {
    chain = chain.then(step).catch((error: unknown) => send({ op: 'failed', error: String(error) }));
  };
  process.on('message', (raw: ParentMessage) => {
    switch (raw.op) {
      case 'reload':
        bytes = 0;
        queue(async () => {
          await harness.reload();
          send({ op: 'reloaded' });
        });
        return;
      case 'deliver':
        queue(() => {
          // Page-side expressions, as bench/webview.ts uses (this project has no DOM types).
          const json = JSON.stringify(raw.message);
          bytes += json.length;
          return harness.page.evaluate(`window.postMessage(${json}, '*')`);
        });
        return;
      case 'painted':
        queue(async () => {
          // Checked every frame in the page (waitForFunction would eval a string, which the page's CSP forbids).
          await harness.page.evaluate(`new Promise((resolve) => {
            const selector = '[data-item-id="' + CSS.escape(${JSON.stringify(raw.id)}) + '"]';
            const check = () => requestAnimationFrame(document.querySelector(selector) ? () => resolve() : check);
            check();
          })`);
          send({ op: 'painted', bytes, errors: harness.errors });
        });
        return;
    }
  });
  process.on('disconnect', () => void harness.close().finally(() => process.exit(0)));
  send({ op: 'open' });
}

main().catch((error: unknown) => {
  send({ op: 'failed', error: String(error) });
  process.exit(1);
});

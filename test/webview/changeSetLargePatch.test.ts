/** A 100k-line patch in the change set view: the first screen comes quickly and the DOM stays bounded. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openChangeSetHarness, RUN } from './changeSetKit';
import { everyKind, RUN_KEY, snapshot } from './fixtures';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

describe('a 100k-line patch', () => {
  const FILES = 100;
  const LINES_PER_FILE = 1_000;
  let stats: { ms: number; bytes: number };

  before(async () => {
    await harness.deliver(snapshot(everyKind(), RUN));
    // Built and posted inside the page (faster than shipping 4 MiB over CDP); timed until the first screen.
    stats = await harness.page.evaluate(
      ({ files, perFile, runKey }) => {
        const list: unknown[] = [];
        let bytes = 0;
        for (let f = 0; f < files; f++) {
          const lines: string[] = [];
          for (let i = 0; i < perFile; i++) {
            const kind = i % 10 < 6 ? ' ' : i % 10 < 8 ? '-' : '+';
            lines.push(`${kind}    const value${i} = compute(${f}, ${i}, "some text");`);
          }
          const body = lines.join('\n');
          bytes += body.length;
          list.push({ index: f, path: `src/module${f}/file${f}.ts`, status: 'modified', additions: 200, deletions: 200, binary: false, hunks: [{ header: `@@ -1,800 +1,800 @@ file ${f}`, oldStart: 1, newStart: 1, lines: body }] });
        }
        const started = performance.now();
        window.postMessage({ type: 'changeSet', runKey, title: 'big', source: 'daemon', files: list }, '*');
        return new Promise<{ ms: number; bytes: number }>((resolve) =>
          setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve({ ms: performance.now() - started, bytes }))), 0),
        );
      },
      { files: FILES, perFile: LINES_PER_FILE, runKey: RUN_KEY },
    );
    await harness.settle();
    console.log(`100k-line change set (${(stats.bytes / 1048576).toFixed(1)} MiB of hunk text): first screen after ${stats.ms.toFixed(0)} ms`);
  });

  async function screen() {
    return harness.page.evaluate(() => {
      const scroller = document.getElementById('cs-diff') as HTMLElement;
      const box = scroller.getBoundingClientRect();
      const rows = [...scroller.querySelectorAll<HTMLElement>('.cs-row')];
      const visible = rows.filter((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });
      return {
        nodes: document.getElementsByTagName('*').length,
        rows: rows.length,
        first: visible[0]?.innerText.replace(/\s+/g, ' ').trim() ?? '',
        coversTop: (visible[0]?.getBoundingClientRect().top ?? 1) <= box.top + 0.5,
        coversBottom: (visible[visible.length - 1]?.getBoundingClientRect().bottom ?? 0) >= box.bottom - 0.5,
        scrollHeight: scroller.scrollHeight,
      };
    });
  }

  test('renders the first screen with a bounded DOM', async () => {
    const s = await screen();
    assert.ok(s.nodes < 3_000, `${s.nodes} DOM elements`);
    assert.ok(s.rows > 20 && s.rows < 400, `${s.rows} rows mounted`);
    assert.match(s.first, /src\/module0\/file0\.ts/);
    assert.equal(s.coversTop && s.coversBottom, true);
    assert.ok(s.scrollHeight > 100 * 1000 * 15, `scroll height ${s.scrollHeight}`);
    assert.equal(await harness.page.locator('#cs-summary').innerText(), '100 files changed · +20000 −20000');
    assert.ok(stats.ms < 5_000, `took ${stats.ms.toFixed(0)} ms`);
  });

  test('clicking a file deep in the list shows its rows, still bounded', async () => {
    await harness.page.locator('#cs-files').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await harness.settle();
    await harness.page.locator('#cs-files [data-file-index="97"] .cs-file-link').click();
    await harness.settle();
    await harness.settle();
    const s = await screen();
    assert.match(s.first, /src\/module97\/file97\.ts/);
    assert.equal(s.coversTop && s.coversBottom, true);
    assert.ok(s.nodes < 3_000, `${s.nodes} DOM elements`);
    const numbers = await harness.page.$$eval('#cs-diff .cs-file-row[data-file-index="97"] ~ .cs-line', (rows) =>
      rows.slice(0, 3).map((row) => [...row.querySelectorAll('.cs-ln')].map((c) => c.textContent).join('/')),
    );
    assert.deepEqual(numbers, ['1/1', '2/2', '3/3']);
    assert.deepEqual(harness.errors, []);
  });
});

/**
 * The change set in the transcript view: the file list with +/− counts and badges, the rendered diff (line numbers,
 * notes for binary and mode-only files, no-newline markers), the buttons' messages, Back/Escape, hostile names
 * and lines kept as text, and a 100k-line patch with a bounded DOM. Screenshots: test-results/webview-changeset.png
 * and webview-changeset-narrow.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseGitPatch } from '../../extension/changeSets/patchParser';
import type { ChangeSetMessage } from '../../extension/protocol/webviewMessages';
import { changeSetMessage } from '../../extension/ui/changeSets/changeSetWebview';
import { HOSTILE_NAME, SAMPLE_PATCH } from '../unit/changeSets/samplePatch';
import { everyKind, RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';

const RUN = sampleRun({ title: 'Bump the retries', protocol: 'a3s', connectionName: 'A3S (local)' });
const SAMPLE: ChangeSetMessage = changeSetMessage(RUN, { source: 'daemon' }, parseGitPatch(SAMPLE_PATCH).files);

let harness: Harness;
before(async () => {
  harness = await openHarness({ width: 480, height: 900 });
});
after(async () => {
  await harness?.close();
});

async function openSample(message: ChangeSetMessage = SAMPLE): Promise<void> {
  await harness.deliver(snapshot(everyKind(), RUN));
  await harness.deliver(message);
  await harness.settle();
}

const texts = (selector: string) => harness.page.locator(selector).allInnerTexts();

describe('a small change set', () => {
  before(async () => {
    await openSample();
  });

  test('replaces the transcript and the side panels', async () => {
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    assert.equal(await harness.page.locator('#transcript').isVisible(), false);
    assert.equal(await harness.page.locator('#run-header').isVisible(), true);
    assert.equal(await harness.page.locator('#cs-summary').innerText(), '8 files changed · +8 −6');
    assert.equal(await harness.page.locator('#change-set').getAttribute('aria-label'), 'Change set of Bump the retries');
  });

  test('file list: one entry per file with badge, name, folder and counts', async () => {
    const entries = harness.page.locator('#cs-files .cs-file-entry');
    assert.equal(await entries.count(), 8);
    assert.deepEqual(await texts('#cs-files .cs-status'), ['M', 'A', 'D', 'R', 'M', 'A', 'M', 'M']);
    assert.deepEqual(await texts('#cs-files .cs-file-name'), ['config.ts', 'new.md', 'removed.txt', 'renamed.ts', 'logo.png', 'café 🍵.txt', 'run.sh', HOSTILE_NAME]);
    const renamed = harness.page.locator('#cs-files [data-file-index="3"]');
    assert.equal(await renamed.locator('.cs-file-dir').innerText(), 'lib · from lib/ren.ts');
    assert.equal((await renamed.locator('.cs-counts').innerText()).replace(/\s+/g, ' '), '+1 −1');
    assert.equal(await harness.page.locator('#cs-files [data-file-index="4"] .cs-counts').innerText(), 'binary');
    assert.match((await renamed.locator('.cs-file-link').getAttribute('aria-label')) ?? '', /^Show in the diff: lib\/ren\.ts → lib\/renamed\.ts, renamed, 1 addition, 1 deletion$/);
  });

  test('diff: file headers, hunk headers, numbered lines, notes and no-newline markers', async () => {
    assert.equal(await harness.page.locator('#cs-diff .cs-file-row').count(), 8);
    assert.deepEqual((await texts('#cs-diff .cs-file-path')).slice(0, 6), [
      'src/config.ts',
      'docs/new.md',
      'old/removed.txt',
      'lib/ren.ts → lib/renamed.ts',
      'img/logo.png',
      'été/café 🍵.txt',
    ]);
    const firstLines = await harness.page.$$eval('#cs-diff .cs-line', (rows) =>
      rows.slice(0, 4).map((row) => [...row.querySelectorAll('.cs-ln, .cs-sign, .cs-text')].map((cell) => cell.textContent).join('|')),
    );
    assert.deepEqual(firstLines, [
      "1|1| |import { readFileSync } from 'node:fs';",
      '2||−|const retries = 3;',
      '|2|+|const retries = 5;',
      "|3|+|const html = '<script>window.__pwned = 1</script>';",
    ]);
    assert.deepEqual((await texts('#cs-diff .cs-hunk .cs-text')).slice(0, 2), ['@@ -1,4 +1,5 @@ export function loadConfig() {', '@@ -10,2 +11,2 @@ export function loadConfig() {']);
    assert.deepEqual(await texts('#cs-diff .cs-noeol .cs-text'), ['No newline at end of file', 'No newline at end of file']);
    assert.deepEqual(await texts('#cs-diff .cs-note'), ['Binary file — not shown here; open it in the diff editor.', 'File mode 100644 → 100755']);
    assert.equal(await harness.page.locator('#cs-diff .cs-add').count(), 8);
    assert.equal(await harness.page.locator('#cs-diff .cs-del').count(), 6);
  });

  test('theme colours: added and removed lines use the diff editor backgrounds', async () => {
    const colours = await harness.page.evaluate(() => ({
      add: getComputedStyle(document.querySelector('#cs-diff .cs-add') as Element).backgroundColor,
      del: getComputedStyle(document.querySelector('#cs-diff .cs-del') as Element).backgroundColor,
      font: getComputedStyle(document.querySelector('#cs-diff .cs-text') as Element).fontFamily,
    }));
    assert.equal(colours.add, 'rgba(155, 185, 85, 0.2)');
    assert.equal(colours.del, 'rgba(255, 0, 0, 0.2)');
    assert.match(colours.font, /Droid Sans Mono/);
  });

  test('"Open all changes" and "Open in diff editor" (list and diff header) post their messages', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-open-all').click();
    await harness.page.locator('#cs-files [data-file-index="3"] .cs-open-file').click();
    await harness.page.locator('#cs-diff [data-file-index="5"] .cs-open-file').click();
    assert.deepEqual(await harness.posted(), [
      { type: 'openAllChanges', runKey: RUN_KEY },
      { type: 'openChangeSetFile', runKey: RUN_KEY, fileIndex: 3 },
      { type: 'openChangeSetFile', runKey: RUN_KEY, fileIndex: 5 },
    ]);
    assert.equal(await harness.page.locator('#cs-open-all').getAttribute('aria-label'), 'Open all changes in the diff editor');
    assert.equal(await harness.page.locator('#cs-files [data-file-index="3"] .cs-open-file').getAttribute('aria-label'), 'Open lib/ren.ts → lib/renamed.ts in the diff editor');
  });

  test('keyboard: Up/Down move through the files, Enter scrolls the diff to one', async () => {
    await harness.page.locator('#cs-files [data-file-index="0"] .cs-file-link').focus();
    await harness.page.keyboard.press('ArrowDown');
    await harness.page.keyboard.press('ArrowDown');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.closest('[data-file-index]')?.getAttribute('data-file-index')), '2');
    await harness.page.keyboard.press('ArrowUp');
    await harness.page.keyboard.press('Enter');
    await harness.settle();
    await harness.settle();
    const top = await harness.page.evaluate(() => {
      const scroller = document.getElementById('cs-diff') as HTMLElement;
      const header = scroller.querySelector('.cs-file-row[data-file-index="1"]') as HTMLElement;
      return header.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    });
    assert.ok(Math.abs(top) < 1, `file 1's header is ${top}px from the top`);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'cs-diff');
  });

  test('Back returns to the transcript; the header button is focused again', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-back').click();
    await harness.settle();
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
    assert.ok((await harness.page.locator('[data-item-id]').count()) > 0);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'run-change-set');
    assert.deepEqual(await harness.posted(), []);
    assert.equal(await harness.page.locator('#cs-diff .cs-row').count(), 0, 'rows are dropped when closed');
  });

  test('Escape also returns to the transcript', async () => {
    await harness.deliver(SAMPLE);
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    await harness.page.keyboard.press('Escape');
    await harness.settle();
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
  });

  test('the header button asks the host to show the change set', async () => {
    await harness.clearPosted();
    await harness.page.locator('#run-change-set').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'showChangeSet'), { type: 'showChangeSet', runKey: RUN_KEY });
  });

  test('a change set of another run is ignored; showing another run closes it', async () => {
    await harness.deliver({ ...SAMPLE, runKey: 'other::run' });
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    await harness.deliver(SAMPLE);
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'other run' }], sampleRun({ key: 'other::run' })));
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
  });

  test('a locally computed, empty change set', async () => {
    await harness.deliver(snapshot(everyKind(), RUN));
    await harness.deliver({ ...SAMPLE, source: 'local', files: [] });
    assert.equal(await harness.page.locator('#cs-title').innerText(), 'Change set (computed locally)');
    assert.equal(await harness.page.locator('#cs-summary').innerText(), 'No files changed');
    assert.equal(await harness.page.locator('.cs-files-section').isVisible(), false);
    await harness.page.locator('#cs-back').click();
  });
});

describe('hostile file names and lines', () => {
  let dialogs = 0;
  before(async () => {
    await harness.reload();
    harness.page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const hostile = { ...SAMPLE, title: '<img src=x onerror=window.__pwned=9>' };
    await openSample(hostile);
    await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-link').hover();
    await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-link').click();
    await harness.settle();
    await harness.page.locator('#cs-diff .cs-file-row[data-file-index="7"] .cs-file-path').hover();
    await harness.page.waitForTimeout(300); // give any (wrongly) injected handler a chance to fire
  });

  test('are shown literally', async () => {
    assert.equal(await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-name').innerText(), HOSTILE_NAME);
    assert.equal(await harness.page.locator('#cs-diff .cs-file-row[data-file-index="7"] .cs-file-path').innerText(), HOSTILE_NAME);
    const lines = await texts('#cs-diff .cs-file-row[data-file-index="7"] ~ .cs-line .cs-text');
    assert.deepEqual(lines, ['<script>window.__pwned = 4</script>', '<b onmouseover="window.__pwned = 5">bold</b>']);
  });

  test('never execute, add elements or trip the CSP', async () => {
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.equal(dialogs, 0);
    assert.deepEqual(await harness.cspViolations(), []);
    assert.deepEqual(harness.errors, []);
    const report = await harness.page.evaluate(() => {
      const all = [...document.querySelectorAll('#change-set *')];
      return {
        foreign: all.filter((el) => ['IMG', 'SCRIPT', 'B', 'SVG', 'IFRAME', 'A'].includes(el.tagName.toUpperCase())).length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        scripts: document.querySelectorAll('script').length,
      };
    });
    assert.deepEqual(report, { foreign: 0, handlers: [], scripts: 1 });
  });
});

describe('a 100k-line patch', () => {
  const FILES = 100;
  const LINES_PER_FILE = 1_000;
  let stats: { ms: number; bytes: number };

  before(async () => {
    await harness.reload();
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

describe('screenshots', () => {
  test('dark theme change set', async () => {
    await harness.reload();
    await harness.page.setViewportSize({ width: 480, height: 900 });
    await openSample();
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-changeset.png') });
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('narrow sidebar: lines scroll sideways, line numbers stay', async () => {
    await harness.page.setViewportSize({ width: 260, height: 700 });
    await harness.settle();
    await harness.settle();
    const overflow = await harness.page.evaluate(() => {
      const diff = document.getElementById('cs-diff') as HTMLElement;
      diff.scrollLeft = 120;
      return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, diff: diff.scrollWidth - diff.clientWidth };
    });
    await harness.settle();
    assert.equal(overflow.page, 0, 'the page itself must not scroll sideways');
    assert.ok(overflow.diff > 0, 'long lines scroll inside the diff');
    const gutterLeft = await harness.page.evaluate(() => {
      const diff = document.getElementById('cs-diff') as HTMLElement;
      return (diff.querySelector('.cs-line .cs-gutter') as HTMLElement).getBoundingClientRect().left - diff.getBoundingClientRect().left;
    });
    assert.ok(Math.abs(gutterLeft) < 1, `gutter at ${gutterLeft}px`);
    await harness.page.screenshot({ path: join(ROOT, 'test-results', 'webview-changeset-narrow.png') });
  });
});

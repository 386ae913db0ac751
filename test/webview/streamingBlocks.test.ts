/**
 * A streaming answer's open block is re-parsed on every pass but reconciled into what is shown
 * (webview/domReconcile.ts): finished blocks and the unchanged part of the open one keep their nodes, a code block
 * is cut into chunks of lines that look, select and copy as one block, and the reconciled DOM is still exactly what
 * a fresh render of the hostile text gives — a dangerous construct completed across patches never becomes markup.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { TranscriptPatch } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

type Stamped = Element & { __stamp?: string };

/** `count` lines of code, with empty lines at and around every chunk boundary (CODE_CHUNK_LINES = 50). */
function codeLines(count: number, from = 1): string[] {
  return Array.from({ length: count }, (_, i) => (((i + from) % 50 === 0 || (i + from) % 50 === 1) ? '' : `  const line${i + from} = ${i + from};`));
}

describe('streaming blocks', () => {
  let harness: Harness;
  let seq = 10;
  let dialogs = 0;
  const patches = (list: TranscriptPatch[]) => harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: ++seq, patches: list });
  const append = (chunk: string) => patches([{ op: 'append', id: 's', field: 'text', chunk }]);
  /** Waits until the streaming row's open block (re-rendered by the throttled pass) satisfies `check`. */
  const openBlock = (check: string) =>
    harness.page.waitForFunction((selector) => document.querySelector(selector) !== null, check, { timeout: 10_000 });

  before(async () => {
    harness = await openHarness({ height: 3000 });
    harness.page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
  });
  beforeEach(async () => {
    seq = 10;
    await harness.deliver(snapshot([{ id: 's', kind: 'text', text: '', streaming: true }], undefined, seq));
    await harness.clearPosted();
  });
  after(async () => {
    await harness?.close();
  });

  test('finished blocks and the unchanged start of a growing code block keep their nodes', async () => {
    await append('First paragraph.\n\nSecond paragraph.\n\n```ts\n' + codeLines(60).join('\n') + '\n');
    await openBlock('[data-item-id="s"] .md-open .code-chunk:nth-child(2)');
    await harness.page.$$eval('[data-item-id="s"] .text-body > p, [data-item-id="s"] .code-chunk', (nodes) =>
      nodes.forEach((node, i) => ((node as Stamped).__stamp = `n${i}`)),
    );
    await append(codeLines(60, 61).join('\n') + '\n');
    await openBlock('[data-item-id="s"] .md-open .code-chunk:nth-child(3)');
    const state = await harness.page.$eval('[data-item-id="s"]', (row) => ({
      paragraphs: [...row.querySelectorAll('.text-body > p')].map((p) => (p as Stamped).__stamp ?? 'new'),
      chunks: [...row.querySelectorAll('.code-chunk')].map((c) => (c as Stamped).__stamp ?? 'new'),
    }));
    assert.deepEqual(state.paragraphs, ['n0', 'n1'], 'committed paragraphs were re-created');
    assert.equal(state.chunks[0], 'n2', 'the first 50 lines were re-created');
    assert.equal(state.chunks.length, 3);

    // Copy reads the code as it is now, not as it was when the button was made.
    await harness.page.locator('[data-item-id="s"] .code-copy').click();
    const copy = await harness.waitForPost((m) => m.type === 'copy');
    assert.equal(copy.type === 'copy' && copy.text, codeLines(120).join('\n'));
  });

  test('a chunked code block shows, selects and copies as one block', async () => {
    const code = codeLines(130).join('\n');
    await patches([{ op: 'update', id: 's', changes: { text: `\`\`\`\n${code}\n\`\`\``, streaming: false } }]);
    const shown = await harness.page.$eval('[data-item-id="s"] .code-pre', (pre) => {
      const chunked = pre.querySelector('code') as HTMLElement;
      const selection = getSelection() as Selection;
      selection.selectAllChildren(chunked);
      const selected = selection.toString();
      selection.removeAllRanges();
      // The same code as one text node in a pre of the same class: the height it must match.
      const whole = document.createElement('pre');
      whole.className = 'code-pre';
      whole.appendChild(document.createElement('code')).textContent = chunked.textContent === null ? '' : [...chunked.children].map((c) => c.textContent).join('\n');
      pre.after(whole);
      const heights = [pre.getBoundingClientRect().height, whole.getBoundingClientRect().height];
      whole.remove();
      return { chunks: chunked.children.length, selected, heights };
    });
    assert.equal(shown.chunks, 3);
    assert.equal(shown.selected, code);
    assert.equal(shown.heights[0], shown.heights[1]);
  });

  test('a dangerous construct completed across patches, each pass reconciled, stays text', async () => {
    const chunks = [
      'Safe [ok](https://ok.example/a) then [x](javas',
      'cript:window.__pwned=1) and <img src=x on',
      'error="window.__pwned=2"> and https://ok.example/b',
      '"onmouseover="window.__pwned=3 and <scr',
      'ipt>window.__pwned=4</script>\n\n```html\n<svg onload=window.__pwned=5>\n',
      '</svg>\n```\n\n[y](https://ok.example/c',
      ' "t" onclick="window.__pwned=6") <a href="javascript:window.__pwned=7">a</a>',
    ];
    // Each chunk is rendered by a pass (the raw tail is gone) before the next arrives, so every pass reconciles
    // into the nodes of the one before; after each, nothing foreign may exist.
    for (const chunk of chunks) {
      await append(chunk);
      await harness.page.waitForFunction(() => document.querySelector('[data-item-id="s"] .md-tail') === null, undefined, { timeout: 10_000 });
      assert.deepEqual(await inertReport(harness), { pwned: null, foreign: [], handlers: [], badHrefs: [] }, `after ${JSON.stringify(chunk)}`);
    }
    await patches([{ op: 'update', id: 's', changes: { streaming: false } }]);
    await harness.page.waitForFunction(() => document.querySelector('[data-item-id="s"] [aria-live]') === null, undefined, { timeout: 10_000 });
    // The same text rendered from scratch in a row of its own: the reconciled row must be node for node the same.
    await patches([{ op: 'add', item: { id: 'fresh', kind: 'text', text: chunks.join(''), streaming: false } }]);
    const same = await harness.page.evaluate(() => {
      const body = (id: string) => document.querySelector(`[data-item-id="${id}"] .text-body`);
      return body('s')?.isEqualNode(body('fresh')) ?? false;
    });
    assert.equal(same, true, 'the reconciled answer differs from a fresh render of its text');
    assert.deepEqual(await inertReport(harness), { pwned: null, foreign: [], handlers: [], badHrefs: [] });
    const text = await harness.page.locator('[data-item-id="s"] .text-body').innerText();
    for (const literal of ['[x](javascript:window.__pwned=1)', '<img src=x onerror="window.__pwned=2">', '<script>window.__pwned=4</script>', '<svg onload=window.__pwned=5>', '<a href="javascript:window.__pwned=7">']) {
      assert.ok(text.includes(literal), `${literal} is shown literally`);
    }
    assert.equal(dialogs, 0);
    assert.deepEqual(await harness.cspViolations(), []);
    assert.deepEqual(harness.errors, []);
  });
});

/** What must never exist in the transcript: a run canary, foreign elements, on* attributes, non-http(s) links. */
async function inertReport(harness: Harness): Promise<{ pwned: unknown; foreign: string[]; handlers: string[]; badHrefs: string[] }> {
  return harness.page.evaluate(() => {
    const all = [...document.querySelectorAll('#transcript *')];
    return {
      pwned: window.__pwned ?? null,
      foreign: all.filter((el) => ['IMG', 'SVG', 'SCRIPT', 'IFRAME', 'OBJECT', 'EMBED'].includes(el.tagName.toUpperCase())).map((el) => el.tagName),
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
      badHrefs: [...document.querySelectorAll('#transcript a')].map((a) => a.getAttribute('href') ?? '').filter((href) => !/^https:\/\/ok\.example\//.test(href)),
    };
  });
}

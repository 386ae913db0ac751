/**
 * Patches: applied strictly in sequence, coalesced into one render per frame; a gap or an unknown id asks for a
 * resync; 1,000 streamed appends produce the right text without re-rendering other rows.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { TranscriptItem, TranscriptPatch } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const base = (): TranscriptItem[] => [
  { id: 'u', kind: 'user', text: 'hello' },
  { id: 'a', kind: 'text', text: 'first', streaming: false },
];

describe('patches', () => {
  let harness: Harness;
  const patches = (firstSeq: number, list: TranscriptPatch[], runKey = RUN_KEY) => harness.deliver({ type: 'patches', runKey, firstSeq, patches: list });
  const ids = () => harness.page.$$eval('[data-item-id]', (rows) => rows.map((r) => r.getAttribute('data-item-id')));
  const resyncs = async () => (await harness.posted()).filter((m) => m.type === 'resync');

  before(async () => {
    harness = await openHarness({ height: 3000 });
  });
  beforeEach(async () => {
    await harness.deliver(snapshot(base(), undefined, 10));
    await harness.clearPosted();
  });
  after(async () => {
    await harness?.close();
  });

  test('in-sequence patches apply in order', async () => {
    await patches(11, [
      { op: 'add', item: { id: 'b', kind: 'text', text: 'second', streaming: true } },
      { op: 'append', id: 'b', field: 'text', chunk: ' part' },
    ]);
    await patches(13, [
      { op: 'update', id: 'a', changes: { text: 'first (edited)' } },
      { op: 'add', item: { id: 'c', kind: 'notice', text: 'third', level: 'info' } },
    ]);
    assert.deepEqual(await ids(), ['u', 'a', 'b', 'c']);
    assert.match(await harness.page.locator('[data-item-id="b"]').innerText(), /second part/);
    assert.equal(await harness.page.locator('[data-item-id="a"]').innerText(), 'first (edited)');
    assert.deepEqual(await resyncs(), []);
  });

  test('a running tool call that ends cancelled stops spinning and says so', async () => {
    await patches(11, [{ op: 'add', item: { id: 't', kind: 'tool', callId: 'c1', name: 'bash', input: null, status: 'running', output: '', truncated: false, progress: 'step 2' } }]);
    const status = harness.page.locator('[data-item-id="t"] .tool-status');
    assert.equal(await status.locator('xpath=self::*[contains(@class, "codicon-modifier-spin")]').count(), 1);
    await patches(12, [{ op: 'update', id: 't', changes: { status: 'cancelled', progress: null } }]);
    assert.equal(await status.getAttribute('aria-label'), 'Cancelled');
    assert.doesNotMatch((await status.getAttribute('class')) ?? '', /spin/);
    assert.equal(await harness.page.locator('[data-item-id="t"] .tool-progress').count(), 0);
    assert.deepEqual(await resyncs(), []);
  });

  test('a gap in sequence posts resync and ignores later patches until a snapshot', async () => {
    await patches(13, [{ op: 'add', item: { id: 'x', kind: 'text', text: 'x', streaming: false } }]);
    assert.deepEqual(await resyncs(), [{ type: 'resync', runKey: RUN_KEY }]);
    await patches(14, [{ op: 'add', item: { id: 'y', kind: 'text', text: 'y', streaming: false } }]);
    assert.deepEqual(await ids(), ['u', 'a']);
    assert.equal((await resyncs()).length, 1, 'resync is not repeated while the snapshot is outstanding');
    await harness.deliver(snapshot([...base(), { id: 'x', kind: 'text', text: 'x', streaming: false }], undefined, 13));
    await patches(14, [{ op: 'add', item: { id: 'y', kind: 'text', text: 'y', streaming: false } }]);
    assert.deepEqual(await ids(), ['u', 'a', 'x', 'y']);
  });

  test('a replayed (old) sequence number also resyncs', async () => {
    await patches(10, [{ op: 'add', item: { id: 'x', kind: 'text', text: 'x', streaming: false } }]);
    assert.equal((await resyncs()).length, 1);
  });

  for (const [name, patch] of [
    ['append to an unknown id', { op: 'append', id: 'nope', field: 'text', chunk: 'x' }],
    ['update of an unknown id', { op: 'update', id: 'nope', changes: { text: 'x' } }],
    ['a duplicate add', { op: 'add', item: { id: 'a', kind: 'text', text: 'dup', streaming: false } }],
    ['an update that changes the kind', { op: 'update', id: 'a', changes: { kind: 'user' } }],
    ['an update that breaks the item', { op: 'update', id: 'a', changes: { streaming: 'yes' } }],
    ['append to a field the item lacks', { op: 'append', id: 'a', field: 'output', chunk: 'x' }],
  ] as const) {
    test(`${name} posts resync`, async () => {
      await patches(11, [patch as TranscriptPatch]);
      assert.deepEqual(await resyncs(), [{ type: 'resync', runKey: RUN_KEY }]);
    });
  }

  test('patches for another run are ignored', async () => {
    await patches(11, [{ op: 'add', item: { id: 'z', kind: 'text', text: 'z', streaming: false } }], 'other:run');
    assert.deepEqual(await ids(), ['u', 'a']);
    assert.deepEqual(await resyncs(), []);
  });

  test('many patch messages in one frame render in one DOM pass', async () => {
    const batches = await harness.page.evaluate((runKey) => {
      const rowsRoot = document.querySelector('.vl-window') as HTMLElement;
      let callbacks = 0;
      const observer = new MutationObserver(() => callbacks++);
      observer.observe(rowsRoot, { childList: true, subtree: true, characterData: true });
      for (let i = 0; i < 50; i++) {
        window.postMessage({ type: 'patches', runKey, firstSeq: 11 + i, patches: [{ op: 'append', id: 'a', field: 'text', chunk: ` w${i}` }] }, '*');
      }
      return new Promise<number>((resolve) =>
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
          observer.disconnect();
          resolve(callbacks);
        })), 0),
      );
    }, RUN_KEY);
    assert.ok(batches <= 2, `${batches} separate DOM mutation batches`);
    assert.match(await harness.page.locator('[data-item-id="a"]').innerText(), /first w0 w1 .* w49$/s);
  });

  test('1,000 streamed appends: right text, O(chunk) DOM work, no other row re-rendered', async () => {
    await patches(11, [{ op: 'add', item: { id: 's', kind: 'text', text: '', streaming: true } }]);
    // Stamp every mounted row: a re-created row would lose its stamp.
    await harness.page.$$eval('[data-item-id]', (rows) => rows.forEach((row) => ((row as HTMLElement & { __stamp?: number }).__stamp = 1)));
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    await harness.page.evaluate(
      async ({ runKey, words }) => {
        for (let i = 0; i < words.length; i++) {
          window.postMessage({ type: 'patches', runKey, firstSeq: 12 + i, patches: [{ op: 'append', id: 's', field: 'text', chunk: `${words[i]} ` }] }, '*');
          if (i % 25 === 24) {
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
        }
      },
      { runKey: RUN_KEY, words },
    );
    await harness.settle();
    const expected = words.join(' ');
    const streaming = await harness.page.locator('[data-item-id="s"]').evaluate((row) => ({
      text: (row.textContent ?? '').replace(/\s+/g, ' ').trim(),
      live: row.querySelector('[aria-live="polite"]') !== null,
      stamped: [...document.querySelectorAll('[data-item-id]')].every((r) => (r as HTMLElement & { __stamp?: number }).__stamp === 1),
    }));
    assert.equal(streaming.text, expected);
    assert.equal(streaming.live, true, 'the streaming item is an aria-live region');
    assert.equal(streaming.stamped, true, 'rows were re-created during streaming');

    await patches(1012, [{ op: 'update', id: 's', changes: { streaming: false } }]);
    const finalState = () =>
      harness.page.locator('[data-item-id="s"]').evaluate((row) => ({
        text: (row.textContent ?? '').replace(/\s+/g, ' ').trim(),
        paragraphs: row.querySelectorAll('p').length,
        tails: row.querySelectorAll('.md-tail, .md-open').length,
        live: row.querySelector('[aria-live]') !== null,
      }));
    // Streaming ended: the text is complete at once; the live region is dropped shortly after (see StreamingMarkdown).
    assert.deepEqual(await finalState(), { text: expected, paragraphs: 1, tails: 0, live: true });
    await harness.page.waitForFunction(() => document.querySelector('[data-item-id="s"] [aria-live]') === null, undefined, { timeout: 3_000 });
    assert.deepEqual(await finalState(), { text: expected, paragraphs: 1, tails: 0, live: false });
    assert.deepEqual(await resyncs(), []);
  });

  test('streamed markdown commits complete blocks and renders the open one', async () => {
    await patches(11, [{ op: 'add', item: { id: 'md', kind: 'text', text: '', streaming: true } }]);
    const chunks = ['# Title\n\nSome **bold', '** text.\n\n```js\nconst a = 1;\n\n', 'const b = 2;\n```\n\nTail para', 'graph'];
    let seq = 12;
    for (const chunk of chunks) {
      await patches(seq++, [{ op: 'append', id: 'md', field: 'text', chunk }]);
    }
    await harness.page.waitForTimeout(300); // let the throttled pass run
    const row = harness.page.locator('[data-item-id="md"]');
    const state = await row.evaluate((el) => ({
      committed: [...el.querySelectorAll('.text-body > :not(.md-open)')].map((n) => n.tagName + ':' + (n.textContent ?? '').trim()),
      open: el.querySelector('.md-open')?.textContent,
      hidden: el.querySelector('.md-open')?.getAttribute('aria-hidden'),
    }));
    assert.deepEqual(state.committed, ['H1:Title', 'P:Some bold text.', 'DIV:jsconst a = 1;\n\nconst b = 2;']);
    assert.equal(state.open, 'Tail paragraph');
    assert.equal(state.hidden, 'true');
  });

  test('streamed tool output folds past 20 lines', async () => {
    await patches(11, [{ op: 'add', item: { id: 't', kind: 'tool', callId: null, name: 'sh', input: {}, status: 'running', output: '', truncated: false } }]);
    await harness.page.evaluate((runKey) => {
      for (let i = 0; i < 30; i++) {
        window.postMessage({ type: 'patches', runKey, firstSeq: 12 + i, patches: [{ op: 'append', id: 't', field: 'output', chunk: `line ${i}\n` }] }, '*');
      }
    }, RUN_KEY);
    await harness.settle();
    const tool = harness.page.locator('[data-item-id="t"]');
    assert.equal((await tool.locator('.tool-output').textContent())?.trimEnd().split('\n').length, 20);
    assert.match(await tool.locator('.tool-show-all').innerText(), /Show all \(30 lines\)/);
    await tool.locator('.tool-show-all').click();
    await patches(42, [{ op: 'append', id: 't', field: 'output', chunk: 'line 30\n' }]);
    assert.equal((await tool.locator('.tool-output').textContent())?.trimEnd().split('\n').length, 31);
  });
});

/**
 * Every item kind of the transcript renders (fixtures.ts everyKind): user text, markdown with copyable code and
 * links that only post openLink, folded reasoning, tool calls, the compact lines, hive messages and raw items.
 * Approval cards are approvalCardDecisions.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openEveryKindHarness } from './everyKindKit';
import { FakeHost } from './fakeHost';
import { everyKind, sampleRun } from './fixtures';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openEveryKindHarness();
});
after(async () => {
  await harness?.close();
});

describe('transcript items', () => {
  const text = (selector: string) => harness.page.locator(selector).first().innerText();

  test('renders one row per item, of every kind', async () => {
    const kinds = await harness.page.$$eval('[data-item-id]', (rows) => rows.map((row) => row.getAttribute('data-kind')));
    const expected = everyKind().map((item) => item.kind);
    assert.deepEqual(kinds, expected);
  });

  test('user prompt is plain text with its line breaks', async () => {
    assert.equal(await text('[data-item-id="u1"] .user-text'), 'Please refactor loadConfig()\nand add tests.');
  });

  test('assistant text is markdown: lists, code block with copy, table, links', async () => {
    const row = harness.page.locator('[data-item-id="t1"]');
    assert.equal(await row.locator('li').count(), 2);
    assert.match(await row.locator('.code-block code').innerText(), /export function loadConfig/);
    assert.equal(await row.locator('.code-lang').innerText(), 'ts');
    assert.equal(await row.locator('td.align-right').innerText(), '3');
    const hrefs = await row.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://example.com/docs', 'https://example.org/faq']);

    await harness.clearPosted();
    await row.locator('.code-copy').click();
    const copy = await harness.waitForPost((m) => m.type === 'copy');
    assert.equal(copy.type === 'copy' && copy.text, 'export function loadConfig(path: string) {\n  return JSON.parse(readFileSync(path, "utf8"));\n}');
  });

  test('links never navigate; clicking posts openLink', async () => {
    await harness.clearPosted();
    const url = harness.page.url();
    await harness.page.locator('[data-item-id="t1"] a').first().click();
    const open = await harness.waitForPost((m) => m.type === 'openLink');
    assert.deepEqual(open, { type: 'openLink', href: 'https://example.com/docs' });
    assert.equal(harness.page.url(), url);
  });

  test('reasoning is collapsed by default and expands', async () => {
    const details = harness.page.locator('[data-item-id="r1"] details');
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await details.locator('summary').click();
    await harness.settle();
    assert.match(await details.innerText(), /three/);
  });

  test('tool calls: name, input JSON, status, folded output with Show all, errorKind, truncated, progress', async () => {
    const tool = harness.page.locator('[data-item-id="tool1"]');
    assert.equal(await tool.locator('.tool-name').innerText(), 'bash');
    assert.equal(await tool.locator('.tool-status').getAttribute('aria-label'), 'Succeeded');
    const inputJson = await tool.locator('.tool-input pre').textContent();
    assert.deepEqual(JSON.parse(inputJson ?? ''), { command: 'npm test -- --grep config', timeout: 120 });
    assert.equal((await tool.locator('.tool-output').textContent())?.split('\n').length, 20);
    const showAll = tool.locator('.tool-show-all');
    assert.match(await showAll.innerText(), /Show all \(45 lines\)/);
    await showAll.click();
    await harness.settle();
    assert.equal((await tool.locator('.tool-output').textContent())?.split('\n').length, 45);

    const failed = harness.page.locator('[data-item-id="tool2"]');
    assert.equal(await failed.locator('.tool-status').getAttribute('aria-label'), 'Failed');
    assert.equal(await failed.locator('.tool-error-kind').innerText(), 'patch_conflict');
    assert.equal(await failed.locator('.tool-truncated').count(), 1);
    const running = harness.page.locator('[data-item-id="tool3"]');
    assert.match(await running.locator('.tool-progress').innerText(), /12\/40 tests/);
    assert.ok(await running.locator('.tool-status.codicon-modifier-spin').count());
  });

  test('compact lines: usage, rate limit, compaction, error, notice, gap, turn', async () => {
    assert.match(await text('[data-item-id="usage1"]'), /1\.2k in · 350 out tokens/);
    assert.match(await text('[data-item-id="rl1"]'), /10 requests left/);
    assert.match(await text('[data-item-id="cmp1"]'), /compacted/);
    assert.match(await text('[data-item-id="e1"]'), /529.*overloaded/s);
    assert.match(await text('[data-item-id="n2"]'), /Older events were dropped/);
    assert.match(await text('[data-item-id="g1"]'), /17 events lost \(41–57\): retention/);
    assert.match(await text('[data-item-id="turn1-end"]'), /Turn completed · 3 files changed/);
  });

  test('hive messages: sender, time, markdown body, reply link reveals the original', async () => {
    const reply = harness.page.locator('[data-item-id="m2"]');
    assert.equal(await reply.locator('.message-from').innerText(), 'operator');
    assert.equal(await reply.locator('time').getAttribute('datetime'), '2025-01-02T10:31:00.000Z');
    assert.equal(await harness.page.locator('[data-item-id="m1"] .message-body strong').innerText(), 'empty');
    // The view asks the host where the original is (it may be outside the loaded window); the host answers.
    const host = new FakeHost(harness, sampleRun(), everyKind());
    try {
      await reply.locator('.message-reply').click();
      await harness.waitForPost((m) => m.type === 'locate');
      await host.idle();
      await harness.settle();
      await harness.settle();
      assert.ok(await harness.page.locator('[data-item-id="m1"].flash').count());
    } finally {
      host.close();
    }
  });

  test('raw items are pretty JSON', async () => {
    const json = await harness.page.locator('[data-item-id="raw1"] pre').textContent();
    assert.deepEqual(JSON.parse(json ?? ''), { type: 'x.y', payload: { a: 1 } });
  });
});

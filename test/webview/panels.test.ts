/** Side panels (hive loose ends, SCV jobs, change-set files): rendered as text, actions post panelAction, XSS-safe. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Panel } from '../../extension/protocol/webviewMessages';
import { buildChangeSetPanel } from '../../extension/ui/changeSets/changeSetFiles';
import { readChangeSet } from '../../extension/ui/changeSets/changeSetReading';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const PANELS: Panel[] = [
  {
    id: 'looseEnds',
    title: 'Loose ends',
    entries: [
      { id: 'todo:101', icon: 'checklist', label: 'Write the <b>release</b> notes', description: 'todo · 2h', actions: [{ id: 'done', label: 'Mark done' }] },
      { id: 'q:11', icon: 'question" onmouseover="window.__pwned=1', label: '<img src=x onerror="window.__pwned=1">', actions: [] },
      { id: 'raw:1', label: 'unknown shape', raw: { kind: 'merge_window', note: '<script>window.__pwned=1</script>' }, actions: [{ id: 'cancel', label: 'Cancel', confirm: true }] },
    ],
  },
  { id: 'reminders', title: 'Reminders', emptyText: 'No reminders pending.', entries: [] },
];

describe('side panels', () => {
  let harness: Harness;
  before(async () => {
    harness = await openHarness();
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'hi' }], sampleRun({ panels: PANELS })));
    await harness.settle();
  });
  after(async () => {
    await harness?.close();
  });

  test('each panel shows its entries as text', async () => {
    const titles = await harness.page.locator('#panels .panel > summary').allInnerTexts();
    assert.deepEqual(titles.map((t) => t.replace(/\s+/g, ' ').trim()), ['Loose ends 3', 'Reminders 0']);
    assert.equal(await harness.page.locator('.panel-entry-label').first().innerText(), 'Write the <b>release</b> notes');
    assert.equal(await harness.page.locator('#panels b, #panels img, #panels script').count(), 0);
    assert.equal(await harness.page.locator('.panel-empty').innerText(), 'No reminders pending.');
  });

  test('an action posts panelAction with the ids', async () => {
    await harness.clearPosted();
    await harness.page.locator('[data-entry-id="todo:101"] .panel-action').click();
    const posted = await harness.waitForPost((m) => m.type === 'panelAction');
    assert.deepEqual(posted, { type: 'panelAction', runKey: RUN_KEY, panelId: 'looseEnds', entryId: 'todo:101', actionId: 'done' });
  });

  test('hostile labels, icons and raw data never execute', async () => {
    await harness.page.locator('[data-entry-id="q:11"]').hover();
    await harness.page.locator('.panel-entry-raw > summary').click();
    assert.match(await harness.page.locator('.panel-entry-raw pre').innerText(), /<script>/);
    assert.equal(await harness.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.deepEqual(await harness.cspViolations(), []);
    assert.equal(await harness.page.locator('#panels [onmouseover], #panels [onerror]').count(), 0);
  });

  test('panels disappear when the run has none', async () => {
    await harness.deliver({ type: 'run', run: sampleRun() });
    await harness.settle();
    assert.equal(await harness.page.locator('#panels').isHidden(), true);
  });

  test('the change-set badge counts files, not the "N files changed" entry above them', async () => {
    const patch = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n';
    const info = { runKey: RUN_KEY, source: 'daemon', status: 'ready', patch } as const;
    await readChangeSet(info); // the host reads a patch before its panel lists files ("reading…" until then)
    const panel = buildChangeSetPanel(info);
    await harness.deliver({ type: 'run', run: sampleRun({ panels: [panel] }) });
    await harness.settle();
    assert.equal(await harness.page.locator('[data-panel-id="changeSet"] .panel-entry-label').first().innerText(), '1 file changed');
    assert.equal(await harness.page.locator('[data-panel-id="changeSet"] .panel-count').innerText(), '1');
  });

  test('a refused change set shows as an error, not grey text', async () => {
    const panel = buildChangeSetPanel({ runKey: RUN_KEY, source: 'daemon', status: 'refused', reason: 'patch_digest: the digest does not match' });
    await harness.deliver({ type: 'run', run: sampleRun({ panels: [panel] }) });
    await harness.settle();
    const root = harness.page.locator('[data-panel-id="changeSet"]');
    assert.equal(await root.locator('.panel-title-error .codicon-error').count(), 1);
    assert.equal(await root.locator('.panel-count').innerText(), 'Error');
    const empty = root.locator('.panel-empty.panel-error');
    assert.match(await empty.innerText(), /Refused: patch_digest/);
    assert.equal(await empty.getAttribute('role'), 'alert');
    const [text, error] = await harness.page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--vscode-errorForeground)';
      document.body.appendChild(probe);
      const colours = [getComputedStyle(document.querySelector('.panel-empty.panel-error')!).color, getComputedStyle(probe).color];
      probe.remove();
      return colours;
    });
    assert.equal(text, error, 'in the error colour');
  });
});

/**
 * What an ACP agent reports besides the conversation, in the transcript view: context use and cost in the run header
 * (replaced in place by each report, never a row), a subagent's parent named in its header, a notice as a row with
 * its level, and a compaction as one row whose summary is folded under it until opened (and stays open as it grows).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

describe('session reports', () => {
  let harness: Harness;

  before(async () => {
    harness = await openHarness();
  });
  after(async () => {
    await harness?.close();
  });

  test('the header shows the context use and cost, replaced by each report', async () => {
    // The host words it (ui/runSummary.ts, the board's wording; tested in test/unit/ui/runSummary.test.ts).
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'hi' }], sampleRun({ usage: { short: '12.3k/200k (6%)', long: 'Context: 12.3k of 200k tokens (6%)' } })));
    const usage = harness.page.locator('#run-usage');
    assert.equal((await usage.innerText()).trim(), '12.3k/200k (6%)');
    assert.equal(await usage.getAttribute('title'), 'Context: 12.3k of 200k tokens (6%)');
    await harness.deliver({ type: 'run', run: sampleRun({ usage: { short: '150k/200k (75%) · $0.42', long: 'Context: 150k of 200k tokens (75%) · cost so far $0.42' } }) });
    assert.equal((await usage.innerText()).trim(), '150k/200k (75%) · $0.42');
    assert.equal(await harness.page.locator('#run-usage').count(), 1, 'one place, updated in place');
    assert.equal(await harness.page.locator('[data-kind="usage"]').count(), 0, 'no transcript row');
    await harness.deliver({ type: 'run', run: sampleRun() });
    assert.equal(await usage.count(), 0, 'none reported, none shown');
  });

  test('a subagent\'s header names its parent', async () => {
    await harness.deliver({ type: 'run', run: sampleRun({ title: 'Explore the workspace', parentTitle: 'Fix the build' }) });
    assert.equal((await harness.page.locator('#run-parent').innerText()).trim(), '↳ Fix the build');
  });

  test('a notice is a row with its level; a compaction\'s summary is folded under its line and grows in place', async () => {
    await harness.deliver(
      snapshot(
        [
          { id: 'n0', kind: 'notice', text: 'Usage limit approaching: You have used 80% of your plan this week.', level: 'warning' },
          { id: 'k1', kind: 'compaction', data: { compactionId: 'c1', status: 'in_progress' }, summary: 'Compacting the context…', text: '' },
        ],
        sampleRun(),
      ),
    );
    const notice = harness.page.locator('[data-item-id="n0"]');
    assert.match((await notice.getAttribute('class')) ?? '', /notice-warning/);
    assert.equal((await notice.innerText()).trim(), 'Usage limit approaching: You have used 80% of your plan this week.');
    const compaction = harness.page.locator('[data-item-id="k1"]');
    assert.equal((await compaction.innerText()).trim(), 'Compacting the context…');
    assert.equal(await compaction.locator('details').count(), 0, 'nothing to fold yet');

    await harness.deliver({ type: 'patches', runKey: sampleRun().key, firstSeq: 1, patches: [{ op: 'append', id: 'k1', field: 'text', chunk: 'The user asked for ' }] });
    await harness.deliver({ type: 'patches', runKey: sampleRun().key, firstSeq: 2, patches: [{ op: 'update', id: 'k1', changes: { summary: 'Context compacted', data: { compactionId: 'c1', status: 'completed' } } }] });
    const details = compaction.locator('details');
    assert.equal((await details.locator('summary').innerText()).trim(), 'Context compacted');
    assert.equal(await details.locator('.line-body').isVisible(), false, 'folded until asked for');
    await details.locator('summary').click();
    assert.equal((await details.locator('.line-body').innerText()).trim(), 'The user asked for');
    await harness.deliver({ type: 'patches', runKey: sampleRun().key, firstSeq: 3, patches: [{ op: 'append', id: 'k1', field: 'text', chunk: 'a reference answer.' }] });
    assert.equal(await compaction.locator('details').getAttribute('open'), '', 'still open after it grew');
    assert.equal((await compaction.locator('.line-body').innerText()).trim(), 'The user asked for a reference answer.');
  });
});

/**
 * *Continue from here* on the transcript's checkpoint markers (issue #26): offered after a turn (not at the start of
 * the run, not where no snapshot was taken, not on a rewind's marker); it only posts `continueFromCheckpoint` (the
 * host shows the first message, previews and asks); where the run's connection cannot start the new run the button
 * is disabled and says why, and follows the header when that changes. Every marker is one line: in the narrow
 * sidebar the buttons show only their icons (their titles name them), in a wide view their words too.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';

const MARKERS: TranscriptItem[] = [
  { id: 'u0', kind: 'user', text: 'Fix the readme' },
  { id: 'k1', kind: 'checkpoint', checkpointId: 'c1', mark: 'turn', turn: 0, files: 0, rewindable: true },
  { id: 'x2', kind: 'text', text: 'Done: README.md now carries the edit.', streaming: false },
  { id: 'k3', kind: 'checkpoint', checkpointId: 'c2', mark: 'turn', turn: 1, files: 12, rewindable: true },
  { id: 'k4', kind: 'checkpoint', checkpointId: 'c3', mark: 'turn', turn: 2, rewindable: false, unavailable: 'No checkpoint of /home/someone/projects/a-rather-long-folder-name: the folder does not exist' },
  { id: 'k5', kind: 'checkpoint', checkpointId: 'r4', mark: 'rewound', rewindable: false, summary: 'to turn 1: 12 files restored, 1 not restored (docs/very/long/path/to/a/file.md: denied)', redo: true },
];
const SCREENSHOTS = join(ROOT, 'test-results');

let harness: Harness;
before(async () => {
  harness = await openHarness({ width: 300, height: 600 });
  await harness.deliver(snapshot(MARKERS, sampleRun({ state: 'completed' })));
  mkdirSync(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await harness?.close();
});

const row = (id: string) => harness.page.locator(`[data-item-id="${id}"]`);

test('Continue from here is offered after a turn only, and only asks the host', async () => {
  assert.equal(await row('k1').locator('.checkpoint-continue').count(), 0, 'not at the start of the run');
  assert.equal(await row('k4').locator('.checkpoint-continue').count(), 0, 'not without a snapshot');
  assert.equal(await row('k5').locator('.checkpoint-continue').count(), 0, 'not on a rewind');
  const button = row('k3').locator('.checkpoint-continue');
  assert.equal(await button.isEnabled(), true);
  assert.match((await button.getAttribute('title')) ?? '', /^Continue from here in a new run: rewind the files to Checkpoint · turn 1/);
  await harness.clearPosted();
  await button.click();
  assert.deepEqual(await harness.waitForPost((m) => m.type === 'continueFromCheckpoint'), { type: 'continueFromCheckpoint', runKey: RUN_KEY, checkpointId: 'c2' });
});

test('every marker is one compact line in the narrow sidebar: icon-only buttons named by their titles', async () => {
  for (const id of ['k1', 'k3', 'k4', 'k5']) {
    const box = await row(id).boundingBox();
    assert.ok(box !== null && box.height <= 32, `${id} is ${box?.height}px high (one line is at most 32)`);
    const texts = row(id).locator('.btn .btn-text');
    for (let i = 0; i < (await texts.count()); i++) {
      assert.equal(await texts.nth(i).isVisible(), false, `${id}: a button's words are hidden when narrow`);
    }
  }
  assert.match((await row('k3').locator('.checkpoint-rewind').getAttribute('title')) ?? '', /^Rewind files to here/);
  // Why there is no snapshot stays in sight, cut like the label (whole in its title).
  assert.match(await row('k4').locator('.checkpoint-unavailable-text').innerText(), /^No checkpoint of/);
  assert.match((await row('k4').locator('.checkpoint-unavailable').getAttribute('title')) ?? '', /the folder does not exist/);
  // The label is cut, not wrapped: its title holds it whole.
  assert.match((await row('k5').locator('.checkpoint-label').getAttribute('title')) ?? '', /docs\/very\/long\/path\/to\/a\/file\.md: denied\)$/);
  await harness.page.screenshot({ path: join(SCREENSHOTS, 'webview-checkpoint-markers-narrow.png') });
});

test('where the connection cannot start the new run, the button is disabled and says why, following the header', async () => {
  const why = 'AgencyProxy (local) is not connected: connect it to continue in a new run';
  await harness.deliver({ type: 'run', run: sampleRun({ state: 'completed', noContinue: why }) });
  const blocked = row('k3').locator('.checkpoint-continue');
  assert.equal(await blocked.isDisabled(), true);
  assert.equal(await row('k3').locator('.checkpoint-continue-blocked').getAttribute('title'), `Continue from here: ${why}`);
  assert.equal(await blocked.getAttribute('aria-label'), `Continue from here: not available — ${why}`);
  await harness.clearPosted();
  await blocked.click({ force: true });
  await harness.settle();
  assert.deepEqual((await harness.posted()).filter((m) => m.type === 'continueFromCheckpoint'), []);
  await harness.deliver({ type: 'run', run: sampleRun({ state: 'completed' }) });
  assert.equal(await row('k3').locator('.checkpoint-continue').isEnabled(), true);
  assert.equal(await row('k3').locator('.checkpoint-continue-blocked').count(), 0);
});

test('in a wide view the buttons show their words, still on one line', async () => {
  const wide = await openHarness({ width: 900, height: 600 });
  try {
    await wide.deliver(snapshot(MARKERS, sampleRun({ state: 'completed' })));
    const wideRow = (id: string) => wide.page.locator(`[data-item-id="${id}"]`);
    assert.equal(await wideRow('k3').locator('.checkpoint-continue .btn-text').innerText(), 'Continue from here');
    assert.equal(await wideRow('k3').locator('.checkpoint-rewind .btn-text').isVisible(), true);
    for (const id of ['k1', 'k3', 'k4', 'k5']) {
      const box = await wideRow(id).boundingBox();
      assert.ok(box !== null && box.height <= 32, `${id} is ${box?.height}px high`);
    }
    await wide.page.screenshot({ path: join(SCREENSHOTS, 'webview-checkpoint-markers-wide.png') });
    assert.deepEqual(wide.errors, []);
  } finally {
    await wide.close();
  }
  assert.deepEqual(harness.errors, []);
});

/**
 * File-checkpoint markers (issue #26) in the transcript: a turn marker says its turn and how many files changed, and
 * its *Rewind files to here* only posts `rewindFiles` (the host previews and asks); a marker without a snapshot says
 * why and offers no rewind; a rewind's marker offers *Redo* until the host's patch takes it away. Paths in a summary
 * are text, never markup. A screenshot of the markers for the eye.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, snapshot } from './fixtures';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';

const MARKERS: TranscriptItem[] = [
  { id: 'u0', kind: 'user', text: 'Fix the readme' },
  { id: 'k1', kind: 'checkpoint', checkpointId: 'c1', mark: 'turn', turn: 0, files: 0, rewindable: true },
  { id: 'x2', kind: 'text', text: 'Done: README.md now carries the edit.', streaming: false },
  { id: 'k3', kind: 'checkpoint', checkpointId: 'c2', mark: 'turn', turn: 1, files: 2, rewindable: true },
  { id: 'k4', kind: 'checkpoint', checkpointId: 'c3', mark: 'turn', turn: 2, rewindable: false, unavailable: 'No checkpoint of /gone: the folder does not exist' },
  { id: 'k5', kind: 'checkpoint', checkpointId: 'r4', mark: 'rewound', rewindable: false, summary: 'to turn 1: 1 file restored, 1 not restored (<img src=x onerror=alert(1)>.md: denied)', redo: true },
];

let harness: Harness;
before(async () => {
  harness = await openHarness({ height: 900 });
  await harness.deliver(snapshot(MARKERS));
});
after(async () => {
  await harness?.close();
});

test('turn markers say their turn and changed files, and Rewind files to here only asks the host', async () => {
  const label = (id: string) => harness.page.locator(`[data-item-id="${id}"] .checkpoint-label`).innerText();
  assert.equal(await label('k1'), 'Checkpoint · start of the run · no files changed');
  assert.equal(await label('k3'), 'Checkpoint · turn 1 · files: 2 changed');
  await harness.clearPosted();
  await harness.page.locator('[data-item-id="k3"] .checkpoint-rewind').click();
  assert.deepEqual(await harness.waitForPost((m) => m.type === 'rewindFiles'), { type: 'rewindFiles', runKey: RUN_KEY, checkpointId: 'c2' });
});

test('a marker without a snapshot says why and offers no rewind', async () => {
  const row = harness.page.locator('[data-item-id="k4"]');
  assert.equal(await row.locator('.checkpoint-rewind').count(), 0);
  assert.match(await row.locator('.checkpoint-unavailable').innerText(), /No checkpoint of \/gone: the folder does not exist/);
});

test('the newest rewind offers Redo until the host takes it away; its summary is text', async () => {
  const row = harness.page.locator('[data-item-id="k5"]');
  assert.match(await row.locator('.checkpoint-label').innerText(), /^Files rewound · to turn 1: .*<img src=x onerror=alert\(1\)>\.md: denied/);
  assert.equal(await row.locator('img').count(), 0, 'no markup from a path');
  const dir = join(ROOT, 'test-results');
  mkdirSync(dir, { recursive: true });
  await harness.page.screenshot({ path: join(dir, 'webview-checkpoint-markers.png') });
  await harness.clearPosted();
  await row.locator('.checkpoint-redo').click();
  assert.deepEqual(await harness.waitForPost((m) => m.type === 'redoRewind'), { type: 'redoRewind', runKey: RUN_KEY, checkpointId: 'r4' });
  await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: 1, patches: [{ op: 'update', id: 'k5', changes: { redo: false } }] });
  assert.equal(await row.locator('.checkpoint-redo').count(), 0);
  assert.deepEqual(harness.errors, []);
});

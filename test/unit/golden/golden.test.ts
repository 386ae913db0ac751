/**
 * Golden streams: each daemon's recorded frames (test/golden/<daemon>/*.frames.jsonl, recorded from the reference
 * daemons by recordGolden.ts) go through that driver's own parser and event mapping (goldenReplay.ts) into a real
 * RunStore; the store rendered as text must equal <name>.transcript.txt. A mapping regression shows as a line diff of
 * the transcript; `UPDATE_GOLDEN=1` rewrites the expected files after an intended change.
 */
import { test } from 'node:test';
import { assertGolden, readFrames, renderStore } from './goldenKit';
import { goldenStore, goldens } from './goldenReplay';

for (const { daemon, name, replay } of goldens) {
  test(`golden ${daemon}/${name}: the recorded frames map to the expected transcript`, () => {
    assertGolden(daemon, name, renderStore(replay(readFrames(daemon, name), goldenStore())));
  });
}

/**
 * The page the rendering tests share: the transcript of every item kind (fixtures.ts everyKind) of the sample run, in
 * a page tall enough (4,000 px) that every row is mounted at once, so a test finds any row without scrolling.
 */
import { everyKind, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

export async function openEveryKindHarness(): Promise<Harness> {
  const harness = await openHarness({ height: 4000 });
  try {
    await harness.deliver(snapshot(everyKind()));
  } catch (error) {
    await harness.close();
    throw error;
  }
  return harness;
}

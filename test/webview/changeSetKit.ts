/**
 * What the change-set view's tests share: the sample change set (samplePatch.ts, eight files of every kind) of a run,
 * the page size they open (a sidebar-wide panel), and opening the sample over that run's transcript.
 */
import { parseGitPatch } from '../../extension/changeSets/patchParser';
import type { ChangeSetMessage } from '../../extension/protocol/webviewMessages';
import { changeSetMessage } from '../../extension/ui/changeSets/changeSetWebview';
import { SAMPLE_PATCH } from '../unit/changeSets/samplePatch';
import { everyKind, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

export const RUN = sampleRun({ title: 'Bump the retries', protocol: 'a3s', connectionName: 'A3S (local)' });
export const SAMPLE: ChangeSetMessage = changeSetMessage(RUN, { source: 'daemon' }, parseGitPatch(SAMPLE_PATCH).files);

export function openChangeSetHarness(): Promise<Harness> {
  return openHarness({ width: 480, height: 900 });
}

/** Shows the run's transcript, then the change set over it. */
export async function openSample(harness: Harness, message: ChangeSetMessage = SAMPLE): Promise<void> {
  await harness.deliver(snapshot(everyKind(), RUN));
  await harness.deliver(message);
  await harness.settle();
}

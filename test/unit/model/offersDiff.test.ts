/**
 * One rule for *Show diff*: the card's `hasDiff` (which the notification, the palette and the board read) is what
 * *Show diff* can open — `proposedFiles` finds a file in the detail — decided by the reducer for every daemon, not by
 * each driver. The details below are where the rules used to disagree: AgencyProxy's and SCV's cheap
 * `looksLikeFileEdit` offered a diff for a Codex `*** Begin Patch` body or an edit list it could not read, and then
 * *Show diff* said "does not edit files"; ACP offered one only when its own proposal was built.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapAgencyProxyEvent } from '../../../extension/drivers/agencyProxy/eventMapping';
import { offersDiff, proposedFiles } from '../../../extension/model/editProposal';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';

const read = async (): Promise<string> => 'const a = 1;\n';

const details: readonly (readonly [string, NonNullable<unknown>])[] = [
  ['a Codex apply_patch body', '*** Begin Patch\n*** Update File: a.ts\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch\n'],
  ['an edit list with an entry that is no replacement', { file_path: 'a.ts', edits: [{ old_string: 'a' }] }],
  ['an empty edit list', { file_path: 'a.ts', edits: [] }],
  ['a patch that names no file', { patch: '--- /dev/null\n+++ /dev/null\n' }],
  ['a Claude Edit', { file_path: 'a.ts', old_string: '1', new_string: '2' }],
  ['a write', { path: 'b.ts', content: 'new\n' }],
  ['a unified patch', { diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-const a = 1;\n+const a = 2;\n' }],
  ['a command', { command: 'ls' }],
];

for (const [name, detail] of details) {
  test(`${name}: the card offers Show diff exactly when Show diff finds a file`, async () => {
    const canOpen = (await proposedFiles(detail, read)).length > 0;
    assert.equal(offersDiff(detail), canOpen);
    // Through a driver's mapping and the reducer, as the card (and so the notification) gets it.
    const store = new RunStore(() => 1000);
    store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'Run', state: 'running' } });
    const runKey = runKeyOf('c', 'r');
    const mapped = mapAgencyProxyEvent({ type: 'approval_requested', payload: { approval_id: 'ap', title: 'apply_patch', detail } });
    for (const event of mapped.events) {
      store.dispatch({ type: 'runEvent', runKey, event });
    }
    const card = store.transcript(runKey)!.snapshot().find((item) => item.kind === 'approval');
    assert.equal(card?.kind === 'approval' && card.hasDiff, canOpen);
  });
}

test('the rule offers both sides of the table (it is no constant)', async () => {
  const answers = await Promise.all(details.map(async ([, detail]) => (await proposedFiles(detail, read)).length > 0));
  assert.deepEqual(answers, [false, false, false, false, true, true, true, false]);
});

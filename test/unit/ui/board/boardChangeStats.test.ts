/** `+N −M` of a change set on the board: counted from the parsed patch, once per change-set object. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangeSetInfo } from '../../../../extension/model/modelTypes';
import { changeStatsOf } from '../../../../extension/ui/board/boardChangeStats';
import { readChangeSet } from '../../../../extension/ui/changeSets/changeSetReading';

/** The stats once the patch is read (until then the board says "reading changes…"). */
async function statsRead(info: ChangeSetInfo): Promise<ReturnType<typeof changeStatsOf>> {
  await readChangeSet(info);
  return changeStatsOf(info);
}

const PATCH = [
  'diff --git a/README.md b/README.md',
  'index 1111111..2222222 100644',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1,3 +1,3 @@',
  ' # Title',
  '-old line',
  '+new line',
  ' end',
  'diff --git a/NOTES.md b/NOTES.md',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/NOTES.md',
  '@@ -0,0 +1,2 @@',
  '+--- not a header',
  '++++ nor this',
  '',
].join('\n');

test('added and removed lines of a ready change set, across files; marker-like content lines count', async () => {
  const info: ChangeSetInfo = { runKey: 'c::r', source: 'daemon', status: 'ready', patch: PATCH };
  assert.deepEqual(changeStatsOf(info), { added: 0, removed: 0, reading: true }, 'reading first');
  assert.deepEqual(await statsRead(info), { added: 3, removed: 1 });
  assert.equal(changeStatsOf(info), changeStatsOf(info), 'the same object gives the cached stats');
});

test('no stats while capturing, unavailable, refused, or when the patch cannot be read', async () => {
  for (const status of ['capturing', 'unavailable', 'refused'] as const) {
    assert.equal(changeStatsOf({ runKey: 'c::r', source: 'local', status, patch: PATCH }), undefined);
  }
  assert.equal(changeStatsOf(undefined), undefined);
  assert.equal(await statsRead({ runKey: 'c::r', source: 'daemon', status: 'ready', patch: 'diff --git a/x b/x\n@@ -1 +1 @@\n' }), undefined);
  assert.deepEqual(await statsRead({ runKey: 'c::r', source: 'daemon', status: 'ready', patch: '' }), { added: 0, removed: 0 });
});

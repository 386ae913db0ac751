/**
 * The proposal of an ACP tool call's diffs (drivers/acp/acpProposal.ts) read back the way *Show diff* reads it
 * (model/editProposal.ts): several paths give one patch with a part per file; a region found twice cannot be placed
 * (unless Claude's replace_all says every occurrence is meant); a patch that no longer applies shows its own lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTwoFilesPatch } from 'diff';
import type { AcpDiff } from '../../../../extension/drivers/acp/acpProposal';
import { acpProposal } from '../../../../extension/drivers/acp/acpProposal';
import { offersDiff, proposedFiles } from '../../../../extension/model/editProposal';

const files: Record<string, string> = {
  '/ws/a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
  '/ws/b.ts': 'x\ny\nx\n',
};
const current = (p: string): Promise<string | null> => Promise.resolve(files[p] ?? null);
const read = async (p: string): Promise<string> => files[p] ?? '';
const diff = (path: string, oldText: string | null, newText: string): AcpDiff => ({ type: 'diff', path, oldText, newText });

test('several paths: one patch, a part per file, each applied to its current text', async () => {
  const proposal = await acpProposal([diff('/ws/a.ts', 'const b = 2;', 'const b = 20;'), diff('/ws/new.ts', null, 'new\n'), diff('/ws/a.ts', 'const c = 3;\n', '')], current);
  assert.deepEqual(proposal.mismatched, []);
  assert.ok(offersDiff(proposal.patch));
  const shown = await proposedFiles(proposal.patch, read);
  assert.deepEqual(shown.map((f) => [f.path, f.original, f.proposed]), [
    ['/ws/a.ts', files['/ws/a.ts'], 'const a = 1;\nconst b = 20;\n'],
    ['/ws/new.ts', '', 'new\n'],
  ]);
});

test('a region found twice cannot be placed; replace_all places it everywhere', async () => {
  const twice = await acpProposal([diff('/ws/b.ts', 'x', 'z')], current);
  assert.deepEqual(twice.mismatched, [{ path: '/ws/b.ts', why: 'the region is in the file 2 times' }]);
  const [region] = await proposedFiles(twice.patch, read);
  assert.deepEqual([region!.regionOnly, region!.original, region!.proposed], [true, 'x\n', 'z\n']);
  const all = await acpProposal([diff('/ws/b.ts', 'x', 'z')], current, true);
  assert.deepEqual((await proposedFiles(all.patch, read)).map((f) => f.proposed), ['z\ny\nz\n']);
});

test('a region of a missing file, and one after a region that failed, are shown as regions, in order', async () => {
  const proposal = await acpProposal([diff('/ws/gone.ts', 'old', 'new'), diff('/ws/a.ts', 'nope', 'x'), diff('/ws/a.ts', 'const a = 1;', 'const a = 10;')], current);
  assert.deepEqual(proposal.mismatched.map((m) => m.path), ['/ws/gone.ts', '/ws/a.ts']);
  const shown = await proposedFiles(proposal.patch, read);
  assert.deepEqual(shown.map((f) => [f.path, f.regionOnly, f.original, f.proposed]), [
    ['/ws/gone.ts', true, 'old\n', 'new\n'],
    ['/ws/a.ts', true, 'nope\n⋯\nconst a = 1;\n', 'x\n⋯\nconst a = 10;\n'],
  ]);
});

test('a patch that no longer applies shows its own lines, not an unchanged file', async () => {
  const patch = createTwoFilesPatch('/ws/a.ts', '/ws/a.ts', 'const a = 1;\nconst q = 9;\n', 'const a = 1;\nconst q = 10;\n');
  const [f] = await proposedFiles(patch, read);
  assert.equal(f!.regionOnly, true);
  assert.deepEqual([f!.original, f!.proposed], ['const a = 1;\nconst q = 9;\n', 'const a = 1;\nconst q = 10;\n']);
  assert.match(f!.problem ?? '', /does not apply/);
});

test("codex-acp's deleted file ([file deleted], '') is the whole file going, not a region", async () => {
  const proposal = await acpProposal([diff('/ws/a.ts', '[file deleted]', '')], current);
  assert.deepEqual(proposal.mismatched, []);
  assert.match(proposal.patch, /^\+\+\+ \/dev\/null$/m);
  const [f] = await proposedFiles(proposal.patch, read);
  assert.deepEqual([f!.path, f!.original, f!.proposed], ['/ws/a.ts', files['/ws/a.ts'], '']);
});

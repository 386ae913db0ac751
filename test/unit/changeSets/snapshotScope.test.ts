/**
 * Where checkpoints live: a repository's own object store (kept from `git gc` by our refs, which removal deletes),
 * or a private git dir for a folder that is not a repository (bounded, and leaving no file in the folder).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { RewindOutcome } from '../../../extension/changeSets/fileCheckpointStore';
import { resolveSnapshotScope, runRefFolder } from '../../../extension/changeSets/snapshotScope';
import { fileCheckpointFileOf } from '../../../extension/storage/fileCheckpointLedger';
import { CheckpointStoreKit, folderState, userGitState } from './fileCheckpointKit';
import { TempGitRepo } from './tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));

function kitAndRepo(): { kit: CheckpointStoreKit; repo: TempGitRepo } {
  const kit = new CheckpointStoreKit();
  const repo = new TempGitRepo();
  cleanups.push(() => kit.dispose(), () => repo.dispose());
  repo.write('a.txt', 'one\n');
  repo.write('src/b.txt', 'two\n');
  repo.commitAll();
  return { kit, repo };
}

function plainFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-plain-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function checkpointRefs(repo: TempGitRepo): string[] {
  return repo.git('for-each-ref', '--format=%(refname) %(objecttype)', 'refs/agent-switchboard/').toString().split('\n').filter((l) => l !== '');
}

test('roots in one repository share one snapshot; a missing root is reported with its reason', async () => {
  const { kit, repo } = kitAndRepo();
  const missing = join(repo.dir, '..', 'no-such-folder-here');
  const outcome = await kit.store.record('run-1', 1, [repo.dir, join(repo.dir, 'src'), missing]);
  assert.ok(outcome.status === 'recorded');
  assert.equal(outcome.checkpoint.trees.length, 1);
  assert.equal(outcome.checkpoint.trees[0]!.gitDir, undefined, 'a repository keeps its own objects');
  assert.deepEqual(outcome.checkpoint.unavailable.map((u) => u.root), [missing]);
  assert.match(outcome.checkpoint.unavailable[0]!.reason, /not a folder/);
});

test('checkpoint trees survive git gc through refs that point at trees, and removal deletes the refs and the list', async () => {
  const { kit, repo } = kitAndRepo();
  const userBefore = userGitState(repo);
  repo.write('a.txt', 'uncommitted edit\n');
  const outcome = await kit.store.record('run-1', 1, [repo.dir]);
  assert.ok(outcome.status === 'recorded');
  const tree = outcome.checkpoint.trees[0]!.tree.slice('git-tree:'.length);
  await kit.store.record('other-run', 1, [repo.dir]);
  repo.git('gc', '--prune=now', '-q');
  assert.equal(repo.git('cat-file', '-t', tree).toString().trim(), 'tree');
  assert.deepEqual(checkpointRefs(repo).map((r) => r.split(' ')[1]), ['tree', 'tree']);
  assert.equal(repo.git('log', '--all', '--format=%H').toString().trim().split('\n').length, 1, 'git log --all shows no checkpoint');
  assert.equal(existsSync(fileCheckpointFileOf(kit.journalDir, 'run-1')), true);

  await kit.store.removeRun('run-1');
  const left = checkpointRefs(repo);
  assert.equal(left.length, 1, 'the other run keeps its checkpoint');
  assert.ok(!left[0]!.startsWith(runRefFolder('acp:test\0run-1')));
  assert.equal(existsSync(fileCheckpointFileOf(kit.journalDir, 'run-1')), false);
  assert.deepEqual(await kit.store.list('run-1'), []);
  repo.write('a.txt', 'one\n');
  assert.deepEqual(userGitState(repo), userBefore);
});

test('a folder that is not a git repository is checkpointed in a private git dir and rewound, leaving no file of ours in it', async () => {
  const kit = new CheckpointStoreKit();
  cleanups.push(() => kit.dispose());
  const dir = plainFolder();
  writeFileSync(join(dir, 'notes.md'), 'first\n');
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'excluded by default\n');
  writeFileSync(join(dir, '.gitignore'), 'secret.env\n');
  writeFileSync(join(dir, 'secret.env'), 'ignored by the folder’s own rules\n');
  const scope = await resolveSnapshotScope(dir, kit.privateRoot);
  assert.ok(scope.gitDir?.startsWith(kit.privateRoot));

  const one = await kit.store.record('run-1', 1, [dir]);
  assert.ok(one.status === 'recorded');
  assert.deepEqual(one.checkpoint.unavailable, []);
  const filesAtOne = folderState(dir);
  writeFileSync(join(dir, 'notes.md'), 'second\n');
  writeFileSync(join(dir, 'new.md'), 'added\n');
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'changed, but excluded\n');
  await kit.store.record('run-1', 2, [dir]);

  const preview = await kit.store.preview('run-1', one.checkpoint.id);
  assert.deepEqual(preview?.scopes[0]?.parsed?.files.map((f) => f.newPath).sort(), ['new.md', 'notes.md']);
  const outcome: RewindOutcome = await kit.store.rewind('run-1', one.checkpoint.id);
  assert.ok(outcome.status === 'rewound');
  assert.equal(readFileSync(join(dir, 'notes.md'), 'utf8'), 'first\n');
  assert.equal(existsSync(join(dir, 'new.md')), false);
  assert.equal(readFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'utf8'), 'changed, but excluded\n');
  const after1 = folderState(dir);
  delete after1['node_modules/dep/index.js'];
  delete filesAtOne['node_modules/dep/index.js'];
  assert.deepEqual(after1, filesAtOne);
  assert.deepEqual(readdirSync(dir).sort(), ['.gitignore', 'node_modules', 'notes.md', 'secret.env']);
  assert.throws(() => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: dir, stdio: 'pipe' }), 'the folder is still not a repository');

  await kit.store.removeRun('run-1');
  const refs = execFileSync('git', ['for-each-ref', 'refs/agent-switchboard/'], { env: { ...process.env, GIT_DIR: scope.gitDir! } }).toString();
  assert.equal(refs, '');
});

test('a folder past the private limits gets no checkpoint, with a reason the UI can show', async () => {
  const kit = new CheckpointStoreKit({ limits: { maxFiles: 3, maxBytes: 1024 } });
  cleanups.push(() => kit.dispose());
  const many = plainFolder();
  for (let i = 0; i < 5; i++) {
    writeFileSync(join(many, `f${i}.txt`), 'x\n');
  }
  const big = plainFolder();
  writeFileSync(join(big, 'large.bin'), Buffer.alloc(4096, 1));

  const outcome = await kit.store.record('run-1', 1, [many, big]);
  assert.ok(outcome.status === 'recorded');
  assert.deepEqual(outcome.checkpoint.trees, []);
  const reasons = Object.fromEntries(outcome.checkpoint.unavailable.map((u) => [u.root, u.reason]));
  assert.match(reasons[many]!, /holds 5 files, more than 3/);
  assert.match(reasons[big]!, /more than 1 KiB of files/);
});

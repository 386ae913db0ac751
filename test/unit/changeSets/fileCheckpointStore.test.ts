/**
 * File checkpoints against real git repositories in temp dirs: record at turn ends, preview, rewind (with and
 * without later edits), redo, every kind of file change, hostile names, protected paths — and the user's index,
 * HEAD and branches byte-identical throughout.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { RewindOutcome } from '../../../extension/changeSets/fileCheckpointStore';
import { CheckpointStoreKit, folderState, userGitState } from './fileCheckpointKit';
import { TempGitRepo } from './tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));

function setup(): { repo: TempGitRepo; kit: CheckpointStoreKit } {
  const repo = new TempGitRepo();
  const kit = new CheckpointStoreKit();
  cleanups.push(() => repo.dispose(), () => kit.dispose());
  repo.write('.gitignore', 'ignored.log\n');
  repo.write('README.md', '# Demo\n\nline one\nline two\n');
  repo.write('gone.txt', 'deleted in turn 2\n');
  repo.write('script.sh', '#!/bin/sh\necho hi\n');
  repo.write('bin.dat', Buffer.from([0, 1, 2, 3, 255, 0, 10, 13]));
  repo.commitAll();
  return { repo, kit };
}

function rewound(outcome: RewindOutcome): Extract<RewindOutcome, { status: 'rewound' }> {
  assert.equal(outcome.status, 'rewound', JSON.stringify(outcome));
  return outcome as Extract<RewindOutcome, { status: 'rewound' }>;
}

async function recorded(kit: CheckpointStoreKit, runId: string, turn: number, roots: string[]): Promise<string> {
  const outcome = await kit.store.record(runId, turn, roots);
  assert.equal(outcome.status, 'recorded');
  assert.ok(outcome.status === 'recorded');
  return outcome.checkpoint.id;
}

/** Turn 2 of the sample: every kind of change a rewind has to undo. */
function turnTwoEdits(repo: TempGitRepo): void {
  repo.write('README.md', '# Demo\n\nline one, edited\nline two\n');
  repo.remove('gone.txt');
  chmodSync(join(repo.dir, 'script.sh'), 0o755);
  repo.write('bin.dat', Buffer.from([9, 9, 0, 255]));
  repo.write('added.txt', 'new in turn 2\n');
  repo.write('deep/nested/file.txt', 'in a new folder\n');
  repo.write('ignored.log', 'ignored: never snapshotted nor restored\n');
}

test('rewind restores modified, added, deleted, binary and mode-changed files; the user index, HEAD and branches stay byte-identical', async () => {
  const { repo, kit } = setup();
  // Something staged and something untracked: the user's state to keep.
  repo.write('README.md', '# Demo\n\nline one\nline two\nstaged line\n');
  repo.git('add', 'README.md');
  repo.write('untracked.txt', 'untracked before the run\n');
  const userBefore = userGitState(repo);
  const filesAtOne = folderState(repo.dir);

  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  turnTwoEdits(repo);
  await recorded(kit, 'run-1', 2, [repo.dir]);
  assert.notDeepEqual(folderState(repo.dir), filesAtOne);

  const preview = await kit.store.preview('run-1', c1);
  assert.ok(preview);
  assert.deepEqual(preview.questions, [], 'nothing changed since the last checkpoint: nothing to ask');
  const byPath = Object.fromEntries(preview.scopes[0]!.entries.map((e) => [e.path, e.change]));
  assert.deepEqual(byPath, {
    'README.md': 'modify',
    'added.txt': 'delete',
    'bin.dat': 'modify',
    'deep/nested/file.txt': 'delete',
    'gone.txt': 'add',
    'script.sh': 'mode',
  });
  const parsedPaths = preview.scopes[0]!.parsed!.files.map((f) => f.newPath).sort();
  assert.deepEqual(parsedPaths, ['README.md', 'added.txt', 'bin.dat', 'deep/nested/file.txt', 'gone.txt', 'script.sh']);
  assert.equal(preview.scopes[0]!.parsed!.files.find((f) => f.newPath === 'bin.dat')!.binary, true);

  const done = rewound(await kit.store.rewind('run-1', c1));
  assert.equal(done.restored, 6);
  assert.deepEqual(done.failures, []);
  const filesAfter = folderState(repo.dir);
  assert.equal(filesAfter['ignored.log'] !== undefined, true, 'an ignored file is left alone');
  delete filesAfter['ignored.log'];
  assert.deepEqual(filesAfter, filesAtOne, 'every file as at checkpoint 1, and the emptied folders gone');
  assert.deepEqual(userGitState(repo), userBefore);
});

test('redo restores exactly what the rewind replaced, and can itself be undone', async () => {
  const { repo, kit } = setup();
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  turnTwoEdits(repo);
  await recorded(kit, 'run-1', 2, [repo.dir]);
  const filesAtTwo = folderState(repo.dir);
  const userBefore = userGitState(repo);

  const first = rewound(await kit.store.rewind('run-1', c1));
  assert.notDeepEqual(folderState(repo.dir), filesAtTwo);
  const redo = rewound(await kit.store.redo('run-1', first.rewindId));
  assert.deepEqual(folderState(repo.dir), filesAtTwo);
  const undo = rewound(await kit.store.redo('run-1', redo.rewindId));
  assert.equal(existsSync(join(repo.dir, 'added.txt')), false, 'undoing the redo rewinds again');
  assert.equal(undo.restored, 6);
  assert.deepEqual(userGitState(repo), { ...userBefore, status: userGitState(repo).status });
  assert.deepEqual((await kit.store.list('run-1')).map((c) => c.kind), ['turn', 'turn', 'beforeRewind', 'beforeRewind', 'beforeRewind']);
  assert.equal((await kit.store.redo('run-1', 'c1')).status, 'unknown checkpoint', 'redo takes a rewind, not a turn');
});

test('a file changed since the last checkpoint is asked about; keep leaves it, restore overwrites it', async () => {
  const { repo, kit } = setup();
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  repo.write('README.md', '# Demo\n\nthe run edited this\n');
  repo.write('other.txt', 'the run added this\n');
  await recorded(kit, 'run-1', 2, [repo.dir]);
  // After the run's last turn: the user (or another run) edits a file the rewind would touch, and one it would not.
  repo.write('README.md', '# Demo\n\nthe user edited this afterwards\n');
  repo.write('unrelated.txt', 'the user added this\n');

  const asked = await kit.store.rewind('run-1', c1);
  assert.equal(asked.status, 'needs decision');
  assert.ok(asked.status === 'needs decision');
  assert.deepEqual(asked.questions.map((q) => [q.path, q.reason]), [['README.md', 'changed since'], ['unrelated.txt', 'changed since']]);
  assert.equal(readFileSync(join(repo.dir, 'README.md'), 'utf8'), '# Demo\n\nthe user edited this afterwards\n', 'nothing written before the answer');
  assert.equal(existsSync(join(repo.dir, 'other.txt')), true);

  const keep = asked.questions.map((q) => ({ top: q.top, path: q.path, decision: 'keep' as const }));
  const kept = rewound(await kit.store.rewind('run-1', c1, keep));
  assert.deepEqual(kept.kept.map((k) => k.path), ['README.md', 'unrelated.txt']);
  assert.equal(readFileSync(join(repo.dir, 'README.md'), 'utf8'), '# Demo\n\nthe user edited this afterwards\n');
  assert.equal(existsSync(join(repo.dir, 'other.txt')), false, 'the run’s own addition is rewound');
  assert.equal(existsSync(join(repo.dir, 'unrelated.txt')), true, 'the user’s addition is kept');

  // Redo, then rewind again answering "restore": the user's edit is replaced by the checkpoint's version.
  rewound(await kit.store.redo('run-1', kept.rewindId));
  const again = await kit.store.rewind('run-1', c1);
  assert.ok(again.status === 'needs decision');
  const decisions = again.questions.map((q) => ({ top: q.top, path: q.path, decision: 'restore' as const }));
  rewound(await kit.store.rewind('run-1', c1, decisions));
  assert.equal(readFileSync(join(repo.dir, 'README.md'), 'utf8'), '# Demo\n\nline one\nline two\n');
});

test('a protected path is never written without a decision', async () => {
  const { repo, kit } = setup();
  repo.write('.vscode/settings.json', '{}\n');
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  repo.write('.vscode/settings.json', '{"terminal.integrated.shell.linux": "/tmp/x"}\n');
  repo.write('README.md', 'changed\n');
  await recorded(kit, 'run-1', 2, [repo.dir]);

  const asked = await kit.store.rewind('run-1', c1);
  assert.ok(asked.status === 'needs decision');
  assert.deepEqual(asked.questions.map((q) => [q.path, q.reason]), [['.vscode/settings.json', 'protected']]);
  assert.match(asked.questions[0]!.detail, /\.vscode folder/);
  const done = rewound(await kit.store.rewind('run-1', c1, [{ top: asked.questions[0]!.top, path: '.vscode/settings.json', decision: 'keep' }]));
  assert.equal(done.restored, 1);
  assert.match(readFileSync(join(repo.dir, '.vscode/settings.json'), 'utf8'), /terminal/);
  assert.equal(readFileSync(join(repo.dir, 'README.md'), 'utf8'), '# Demo\n\nline one\nline two\n');
});

test('hostile file names (spaces, newlines, leading dashes, quotes, unicode) are snapshotted and restored', async () => {
  const { repo, kit } = setup();
  const names = ['with space.txt', 'new\nline.txt', '-leading-dash', '--force', 'quo"te\'s.txt', 'ünïcødé/日本語.txt', 'tab\there.txt', 'back\\slash.txt'];
  names.forEach((n, i) => repo.write(n, `original ${i}\n`));
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  const filesAtOne = folderState(repo.dir);
  names.forEach((n, i) => (i % 2 === 0 ? repo.write(n, `changed ${i}\n`) : rmSync(join(repo.dir, n))));
  repo.write('-rf', 'a file named like an option\n');
  await recorded(kit, 'run-1', 2, [repo.dir]);

  const done = rewound(await kit.store.rewind('run-1', c1));
  assert.deepEqual(done.failures, []);
  assert.deepEqual(folderState(repo.dir), filesAtOne);
});

test('a symbolic link is restored as a link, and a deletion never follows a linked parent folder', async () => {
  const { repo, kit } = setup();
  const outside = new CheckpointStoreKit();
  cleanups.push(() => outside.dispose());
  mkdirSync(join(outside.storage, 'victim'), { recursive: true });
  writeFileSync(join(outside.storage, 'victim', 'keep.txt'), 'outside the repository\n');
  symlinkSync('README.md', join(repo.dir, 'link'));
  repo.write('sub/keep.txt', 'in the repository\n');
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  rmSync(join(repo.dir, 'link'));
  repo.write('link', 'now a file\n');
  repo.write('sub/added.txt', 'x\n');
  await recorded(kit, 'run-1', 2, [repo.dir]);
  // Someone swaps the folder for a link to a folder outside: "delete sub/added.txt" must not reach through it.
  rmSync(join(repo.dir, 'sub'), { recursive: true });
  symlinkSync(join(outside.storage, 'victim'), join(repo.dir, 'sub'));
  writeFileSync(join(outside.storage, 'victim', 'added.txt'), 'must survive\n');

  const asked = await kit.store.rewind('run-1', c1);
  assert.ok(asked.status === 'needs decision');
  const done = rewound(await kit.store.rewind('run-1', c1, asked.questions.map((q) => ({ top: q.top, path: q.path, decision: 'restore' as const }))));
  assert.deepEqual(done.failures, []);
  assert.equal(folderState(repo.dir)['link'], 'link -> README.md');
  // The link itself went (git saw a link, not a folder); nothing behind it was touched, and the folder is back.
  assert.equal(readFileSync(join(outside.storage, 'victim', 'added.txt'), 'utf8'), 'must survive\n');
  assert.equal(readFileSync(join(outside.storage, 'victim', 'keep.txt'), 'utf8'), 'outside the repository\n');
  assert.equal(folderState(repo.dir)['sub/'], 'dir');
  assert.equal(readFileSync(join(repo.dir, 'sub', 'keep.txt'), 'utf8'), 'in the repository\n');
});

test('a window that does not hold the run’s writer lease neither records nor rewinds', async () => {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.commitAll();
  const kit = new CheckpointStoreKit({ writer: { pid: process.pid, window: 'w', token: 't' } });
  cleanups.push(() => kit.dispose());
  assert.deepEqual(await kit.store.record('run-1', 1, [repo.dir]), { status: 'not writer' });
  assert.deepEqual(await kit.store.rewind('run-1', 'c1'), { status: 'not writer' });
  assert.equal(repo.git('for-each-ref', 'refs/agent-switchboard/').toString(), '', 'no ref was written either');
});

test('a file git ignores now, standing where the checkpoint has a file, is asked about before it is overwritten', async () => {
  const { repo, kit } = setup();
  repo.write('build.txt', 'tracked at checkpoint 1\n');
  const c1 = await recorded(kit, 'run-1', 1, [repo.dir]);
  repo.write('.gitignore', 'ignored.log\nbuild.txt\n');
  repo.git('rm', '-q', '--cached', '--ignore-unmatch', 'build.txt');
  repo.write('build.txt', 'precious output, ignored now\n');
  await recorded(kit, 'run-1', 2, [repo.dir]);

  const asked = await kit.store.rewind('run-1', c1);
  assert.ok(asked.status === 'needs decision');
  assert.deepEqual(asked.questions.map((q) => [q.path, q.reason]), [['build.txt', 'ignored file']]);
  const done = rewound(await kit.store.rewind('run-1', c1, [{ top: asked.questions[0]!.top, path: 'build.txt', decision: 'keep' }]));
  assert.equal(readFileSync(join(repo.dir, 'build.txt'), 'utf8'), 'precious output, ignored now\n');
  assert.equal(readFileSync(join(repo.dir, '.gitignore'), 'utf8'), 'ignored.log\n');
  assert.equal(done.kept.length, 1);
});

/** Local change sets against a real temporary git repository: snapshots never touch the user's index or HEAD. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { diffTrees, gitTopLevel, hasGitTree, readTreeBlob, snapshotWorkingTree } from '../../../extension/changeSets/gitTrees';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../../../extension/changeSets/localChangeSet';
import { DriverRuns } from '../../../extension/drivers/kit/driverRuns';
import { runsChangeSetSink } from '../../../extension/drivers/kit/localChangeSetSink';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { TempGitRepo } from './tempGitRepo';

const repos: TempGitRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

function newRepo(): TempGitRepo {
  const repo = new TempGitRepo();
  repos.push(repo);
  repo.write('.gitignore', 'ignored.log\n');
  repo.write('README.md', '# Demo\n\nline one\nline two\n');
  repo.write('old.txt', 'a\nb\nc\nd\ne\n');
  repo.write('gone.txt', 'to be deleted\n');
  repo.commitAll();
  return repo;
}

function gitState(repo: TempGitRepo): { index: Buffer; head: Buffer; headCommit: string; status: string } {
  const gitDir = join(repo.dir, '.git');
  return {
    index: readFileSync(join(gitDir, 'index')),
    head: readFileSync(join(gitDir, 'HEAD')),
    headCommit: repo.git('rev-parse', 'HEAD').toString().trim(),
    status: repo.git('status', '--porcelain=v1', '--untracked-files=all').toString(),
  };
}

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

function storeWithRun(runId: string): { store: RunStore; key: string } {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'c', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId, fields: { title: runId } });
  return { store, key: runKeyOf('c', runId) };
}

test('begin/finish publish a local change set and leave the index and HEAD byte-identical', async () => {
  const repo = newRepo();
  // The user has something staged and something untracked: both must survive untouched.
  repo.write('README.md', '# Demo\n\nline one (staged)\nline two\n');
  repo.git('add', 'README.md');
  repo.write('untracked-before.txt', 'present before the run\n');
  const before = gitState(repo);

  const { store, key } = storeWithRun('r1');
  const changes = new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log));
  const record = await changes.begin('r1', join(repo.dir));
  assert.ok(record, 'a git workspace gets a baseline');
  assert.match(record.baseTree, /^git-tree:[0-9a-f]{40}$/);
  assert.equal(store.state.changeSets.get(key)?.status, 'capturing');

  // The "agent" works: modify, create, delete, rename, binary, ignored.
  repo.write('README.md', '# Demo\n\nline one (staged)\nline two\nline three\n');
  repo.write('src/new.ts', 'export const x = 1;\n');
  repo.remove('gone.txt');
  repo.remove('old.txt');
  repo.write('renamed.txt', 'a\nb\nc\nd\ne\n');
  repo.write('blob.bin', Buffer.from([0, 1, 2, 255]));
  repo.write('ignored.log', 'noise\n');
  const midState = gitState(repo);

  const finished = await changes.finish('r1', record);
  assert.match(finished.resultTree ?? '', /^git-tree:[0-9a-f]{40}$/);
  const info = store.state.changeSets.get(key);
  assert.equal(info?.status, 'ready');
  assert.equal(info?.source, 'local');
  assert.equal(info?.baseTree, record.baseTree);
  const files = parseGitPatch(info?.patch ?? '').files;
  const byPath = new Map(files.map((f) => [f.newPath, f]));
  assert.equal(byPath.get('README.md')?.status, 'modified');
  assert.equal(byPath.get('src/new.ts')?.status, 'added');
  assert.equal(byPath.get('gone.txt')?.status, 'deleted');
  assert.equal(byPath.get('renamed.txt')?.status, 'renamed');
  assert.equal(byPath.get('renamed.txt')?.oldPath, 'old.txt');
  assert.equal(byPath.get('blob.bin')?.binary, true);
  assert.equal(byPath.has('ignored.log'), false, '.gitignore is honoured');
  assert.equal(byPath.has('untracked-before.txt'), false, 'present in both snapshots: no change');

  const after = gitState(repo);
  assert.deepEqual(after.index, midState.index, 'the user index is byte-identical');
  assert.deepEqual(after.head, before.head, 'HEAD is byte-identical');
  assert.equal(after.headCommit, before.headCommit);
  assert.deepEqual(before.index.equals(midState.index), true, 'begin did not touch the index either');
  // The staged change is still staged exactly as before.
  assert.match(repo.git('diff', '--cached', '--name-only').toString(), /^README\.md$/m);

  // The trees can be read back, e.g. for the left side of a diff.
  assert.equal(await hasGitTree(repo.dir, record.baseTree), true);
  assert.equal((await readTreeBlob(repo.dir, record.baseTree, 'gone.txt'))?.toString(), 'to be deleted\n');
  assert.equal(await readTreeBlob(repo.dir, finished.resultTree!, 'gone.txt'), undefined);
  assert.equal(await hasGitTree(repo.dir, `git-tree:${'0'.repeat(40)}`), false);

  // Finishing twice (terminal event live and again on reload) computes once.
  assert.equal(await changes.finish('r1', record), await changes.finish('r1', record));
});

test('a persisted result tree is diffed as recorded, not against the later working tree', async () => {
  const repo = newRepo();
  const base = await snapshotWorkingTree(repo.dir);
  repo.write('README.md', 'changed during the run\n');
  const result = await snapshotWorkingTree(repo.dir);
  repo.write('README.md', 'changed again after the run\n');
  const extra = localChangeSetExtra({ repo: repo.dir, baseTree: base, resultTree: result });
  const restored = localChangeSetFromExtra(JSON.parse(JSON.stringify(extra)) as Record<string, unknown>);
  assert.deepEqual(restored, { repo: repo.dir, baseTree: base, resultTree: result });
  const { store, key } = storeWithRun('r2');
  await new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log)).finish('r2', restored!);
  const patch = store.state.changeSets.get(key)?.patch ?? '';
  assert.match(patch, /\+changed during the run/);
  assert.doesNotMatch(patch, /changed again/);
});

test('no change set outside git; malformed extras are ignored; oversized diffs are refused', async () => {
  const plain = mkdtempSync(join(tmpdir(), 'sb-nogit-'));
  try {
    const { store, key } = storeWithRun('r3');
    const changes = new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log));
    assert.equal(await gitTopLevel(plain), undefined);
    assert.equal(await changes.begin('r3', plain), undefined);
    assert.equal(await changes.begin('r3', undefined), undefined);
    assert.equal(store.state.changeSets.has(key), false);
  } finally {
    rmSync(plain, { recursive: true, force: true, maxRetries: 20 });
  }
  assert.equal(localChangeSetFromExtra(undefined), undefined);
  assert.equal(localChangeSetFromExtra({ localChangeSet: { repo: 1 } }), undefined);

  const repo = newRepo();
  const base = await snapshotWorkingTree(repo.dir);
  repo.write('big.txt', 'x'.repeat(10_000));
  const result = await snapshotWorkingTree(repo.dir);
  await assert.rejects(diffTrees(repo.dir, base, result, 1_000), /larger than 1,000 bytes/);
  assert.ok((await diffTrees(repo.dir, base, result)).length > 10_000);
  // A too-large diff at finish becomes `unavailable` with the reason.
  const { store, key } = storeWithRun('r4');
  const changes = new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log));
  await changes.finish('r4', { repo: repo.dir, baseTree: base, resultTree: `git-tree:${'f'.repeat(40)}` });
  assert.equal(store.state.changeSets.get(key)?.status, 'unavailable');
  assert.match(store.state.changeSets.get(key)?.reason ?? '', /could not compute/);
});

test('AgencyProxy runs in a git workspace get a local change set, also after a reload', async () => {
  const { AgencyProxyDriver } = await import('../../../extension/drivers/agencyProxy/agencyProxyDriver');
  const { ReferenceAgencyProxy } = await import('../../fixtures/agencyProxy/daemon');
  const repo = newRepo();
  const dir = mkdtempSync(join(tmpdir(), 'sb-aplocal-'));
  const socketPath = join(dir, 'ap.sock');
  const storage = join(dir, 'storage');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: repo.dir });
  await daemon.start();
  const makeDriver = () => {
    const store = new RunStore();
    store.dispatch({ type: 'connectionAdded', connection: { id: 'agency-proxy:t', name: 't', protocol: 'agency-proxy' } });
    const driver = new AgencyProxyDriver({ store, connectionId: 'agency-proxy:t', profile: { name: 't', protocol: 'agency-proxy', socketPath }, tap: () => undefined, storageDir: storage, log });
    return { store, driver };
  };
  const until = async <T>(probe: () => T | undefined | false): Promise<T> => {
    for (let i = 0; i < 1000; i++) {
      const v = probe();
      if (v !== undefined && v !== false) {
        return v;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('timed out');
  };
  const before = gitState(repo);
  const first = makeDriver();
  try {
    await first.driver.connect();
    await until(() => first.store.state.connections.get('agency-proxy:t')?.state.kind === 'connected');
    assert.ok(first.store.state.connections.get('agency-proxy:t')?.capabilities.includes('changeSets.local'));
    const runId = await first.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [repo.dir], approvals: true, interactive: false });
    const key = runKeyOf('agency-proxy:t', runId);
    assert.equal(first.store.state.changeSets.get(key)?.status, 'capturing', 'the baseline is taken before the run starts');
    const approvalId = await until(() => first.store.state.runs.get(key)?.pendingApprovals[0]);
    await first.driver.decideApproval(runId, approvalId, 'allow_once');
    const ready = await until(() => (first.store.state.changeSets.get(key)?.status === 'ready' ? first.store.state.changeSets.get(key) : undefined));
    assert.equal(ready.source, 'local');
    assert.deepEqual(parseGitPatch(ready.patch ?? '').files.map((f) => [f.newPath, f.status]), [['README.md', 'modified']]);
    await new Promise((r) => setTimeout(r, 200)); // the result tree is stored with the run
    await first.driver.dispose();
    await new Promise((r) => setTimeout(r, 100));

    const second = makeDriver();
    await second.driver.connect();
    // The run had ended: it comes back from its summary, and its change set with its transcript when it is opened
    // (Show Change Set loads it first).
    const summarized = await until(() => second.store.state.runs.get(key));
    assert.notEqual(summarized.unloaded, undefined, 'shown from its summary');
    await second.driver.history!.load(summarized.runId);
    const restored = await until(() => (second.store.state.changeSets.get(key)?.status === 'ready' ? second.store.state.changeSets.get(key) : undefined));
    assert.equal(restored.patch, ready.patch, 'a reload diffs the same stored trees');
    assert.equal(restored.resultTree, ready.resultTree);
    await second.driver.dispose();
    const after = gitState(repo);
    assert.deepEqual(after.index, before.index, 'the user index is byte-identical');
    assert.deepEqual(after.head, before.head);
  } finally {
    await first.driver.dispose();
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('local change sets know runs only by id: every state goes to the sink, and the store sink drops unknown runs', async () => {
  const repo = newRepo();
  const seen: [string, string][] = [];
  const warnings: string[] = [];
  const changes = new LocalChangeSets({ publish: (runId, update) => seen.push([runId, update.status]), warn: (m) => warnings.push(m) });
  const record = (await changes.begin('r5', repo.dir))!;
  repo.write('README.md', 'edited\n');
  await changes.finish('r5', record);
  assert.deepEqual(seen, [['r5', 'capturing'], ['r5', 'ready']]);
  await new LocalChangeSets({ publish: (runId, update) => seen.push([runId, update.status]), warn: (m) => warnings.push(m) }).finish('r6', {
    repo: repo.dir,
    baseTree: record.baseTree,
    resultTree: `git-tree:${'f'.repeat(40)}`,
  });
  assert.deepEqual(seen.at(-1), ['r6', 'unavailable']);
  assert.equal(warnings.length, 1);

  const { store } = storeWithRun('r7');
  await new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log)).finish('not-in-store', record);
  assert.equal(store.state.changeSets.size, 0, 'an update for a run the store does not know is dropped');
});

/**
 * The change-set side panel's actions call the change-set services with the file its entry stands for, as the
 * palette commands do after resolving their arguments: no command is executed and no 'file:N' string is handed on.
 * Runs changeSets/changeSetPanels.ts under the bench's vscode stub with recording stand-ins for the two services.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { after, before, test } from 'node:test';
import { createVscodeStub } from '../../../bench/vscodeStub';
import type { RunInfo } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import type { ReadyChangeSet } from '../../../extension/ui/commands/changeSetSelection';
import type { ChangeSetEdits } from '../../../extension/ui/changeSets/changeSetEdits';
import type { ChangeSetViews } from '../../../extension/ui/changeSets/changeSetViews';
import type * as PanelsModuleShape from '../../../extension/ui/changeSets/changeSetPanels';

type ModuleLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };
type PanelsModule = typeof PanelsModuleShape;

const PATCH = [
  'diff --git a/one.txt b/one.txt',
  '--- a/one.txt',
  '+++ b/one.txt',
  '@@ -1 +1 @@',
  '-one',
  '+ONE',
  'diff --git a/two.txt b/two.txt',
  '--- a/two.txt',
  '+++ b/two.txt',
  '@@ -1 +1 @@',
  '-two',
  '+TWO',
  '',
].join('\n');

const { api: stub } = createVscodeStub({});
/** Every command executed while the panel acts (the panel used to go through the palette's commands). */
const executed: string[] = [];
(stub.commands as { executeCommand: (id: string) => Promise<unknown> }).executeCommand = (id) => {
  executed.push(id);
  return Promise.resolve(undefined);
};
const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
let panels: PanelsModule;

before(async () => {
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  panels = (await import('../../../extension/ui/changeSets/changeSetPanels')) as PanelsModule;
});

after(() => {
  loader._load = originalLoad;
});

/** A run with a ready two-file change set, and services that record what they were asked (file named by path). */
function setUp(source: 'daemon' | 'local') {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'a3s' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'Edit two files', state: 'completed' } });
  const run = [...store.state.runs.values()][0]! as RunInfo;
  store.dispatch({ type: 'changeSet', changeSet: { runKey: run.key, source, status: 'ready', patch: PATCH } });
  const calls: string[] = [];
  const file = (cs: ReadyChangeSet, index: number): string => cs.files[index]!.newPath;
  const done = (call: string): Promise<undefined> => {
    calls.push(call);
    return Promise.resolve(undefined);
  };
  const edits = {
    applyAll: (cs: ReadyChangeSet) => done(`applyAll ${cs.run.key}`),
    applyFile: (cs: ReadyChangeSet, i: number) => done(`applyFile ${file(cs, i)}`),
    applyHunks: (cs: ReadyChangeSet, i: number, hunks?: readonly number[]) => done(`applyHunks ${file(cs, i)} ${hunks === undefined ? 'picked' : hunks.join(',')}`),
    revertAll: (cs: ReadyChangeSet, confirmed?: boolean) => done(`revertAll ${cs.run.key} ${String(confirmed)}`),
    revertFile: (cs: ReadyChangeSet, i: number, confirmed?: boolean) => done(`revertFile ${file(cs, i)} ${String(confirmed)}`),
    revertHunks: (cs: ReadyChangeSet, i: number) => done(`revertHunks ${file(cs, i)}`),
    copyPatch: (cs: ReadyChangeSet) => done(`copyPatch ${cs.files.length}`),
    savePatch: (cs: ReadyChangeSet, destination?: unknown) => done(`savePatch ${cs.files.length} ${destination === undefined ? 'asked' : 'given'}`),
  } as unknown as ChangeSetEdits;
  const changeSets = {
    openAll: (cs: ReadyChangeSet) => done(`openAll ${cs.files.length}`),
    openFileDiff: (cs: ReadyChangeSet, i: number) => done(`openDiff ${file(cs, i)}`),
  } as unknown as ChangeSetViews;
  return { services: { store, changeSets, changeSetEdits: edits }, run, calls };
}

test("each action of a daemon's change-set panel calls the service with its entry's file, never a command", async () => {
  const { services, run, calls } = setUp('daemon');
  executed.length = 0;
  const act = (entry: string, action: string) => panels.runChangeSetPanelAction(services, run, entry, action);
  await act('all', 'openAll');
  await act('all', 'applyAll');
  await act('all', 'copyPatch');
  await act('all', 'savePatch');
  await act('file:1', 'openDiff');
  await act('file:0', 'applyFile');
  await act('file:1', 'applyHunks');
  assert.deepEqual(calls, ['openAll 2', `applyAll ${run.key}`, 'copyPatch 2', 'savePatch 2 asked', 'openDiff two.txt', 'applyFile one.txt', 'applyHunks two.txt picked']);
  assert.deepEqual(executed, [], 'no command was executed');
});

test('a local change set reverts, and the person is asked (the panel never passes a confirmation)', async () => {
  const { services, run, calls } = setUp('local');
  await panels.runChangeSetPanelAction(services, run, 'all', 'revertAll');
  await panels.runChangeSetPanelAction(services, run, 'file:1', 'revertFile');
  await panels.runChangeSetPanelAction(services, run, 'file:0', 'revertHunks');
  assert.deepEqual(calls, [`revertAll ${run.key} undefined`, 'revertFile two.txt undefined', 'revertHunks one.txt']);
});

test('an entry that is not in the panel, an unknown action, or an action on the wrong kind of entry does nothing', async () => {
  const { services, run, calls } = setUp('daemon');
  await assert.rejects(panels.runChangeSetPanelAction(services, run, 'file:7', 'applyFile'), /changed meanwhile/);
  await assert.rejects(panels.runChangeSetPanelAction(services, run, 'file:01', 'applyFile'), /changed meanwhile/, 'looked up, not parsed');
  await assert.rejects(panels.runChangeSetPanelAction(services, run, 'file:0', 'deleteEverything'), /Unknown change-set action/);
  await assert.rejects(panels.runChangeSetPanelAction(services, run, 'all', 'applyFile'), /on one file/);
  await assert.rejects(panels.runChangeSetPanelAction(services, run, 'file:0', 'applyAll'), /whole change set/);
  assert.deepEqual(calls, []);
});

test('Apply on a change set still being read waits for the whole read: it gets every file, never part of them', async () => {
  const { changeSetRead } = await import('../../../extension/ui/changeSets/changeSetReading');
  // Many files, so the read takes many slices (each file is a place to give the loop back).
  const many = Array.from({ length: 400 }, (_, i) => `diff --git a/f${i}.txt b/f${i}.txt\n--- a/f${i}.txt\n+++ b/f${i}.txt\n@@ -1 +1 @@\n-a\n+b\n`).join('');
  const { services, run } = setUp('daemon');
  services.store.dispatch({ type: 'changeSet', changeSet: { runKey: run.key, source: 'daemon', status: 'ready', patch: many } });
  const info = services.store.state.changeSets.get(run.key)!;
  let seen: { files: number; reading: boolean } | undefined;
  const edits = {
    applyAll: (cs: ReadyChangeSet) => {
      seen = { files: cs.files.length, reading: changeSetRead(cs.info).reading === true };
      return Promise.resolve(undefined);
    },
  } as unknown as ChangeSetEdits;
  assert.equal(changeSetRead(info).reading, true, 'the read has only started');
  await panels.runChangeSetPanelAction({ ...services, changeSetEdits: edits }, run, 'all', 'applyAll');
  assert.deepEqual(seen, { files: 400, reading: false });
});

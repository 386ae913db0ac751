/**
 * Change-set panels are a derived view: the store keeps only daemon-owned panels, and the projection the transcript
 * view is sent (runSummaryOf / runPanelsOf) adds the "changeSet" panel from the run's current change set.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { Panel } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { CHANGE_SET_PANEL_ID } from '../../../extension/ui/changeSets/changeSetFiles';
import { readChangeSet } from '../../../extension/ui/changeSets/changeSetReading';
import { runPanelsOf } from '../../../extension/ui/runPanels';
import { runSummaryOf } from '../../../extension/ui/runSummary';
import { SAMPLE_PATCH } from '../changeSets/samplePatch';

const JOBS: Panel = { id: 'jobs', title: 'Background jobs', entries: [{ id: 'j1', label: 'build', actions: [] }] };

function setup() {
  const store = new RunStore(() => 1000, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'scv' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'Fix it', state: 'running' } });
  return { store, key: runKeyOf('c', 'r1') };
}

const storedIds = (store: RunStore, key: string) => (store.state.runs.get(key)!.panels ?? []).map((p) => p.id);

test('the store holds no change-set panel; the projection shows it after the daemon panels', async () => {
  const { store, key } = setup();
  store.dispatch({ type: 'runPanels', runKey: key, panels: [JOBS], merge: true });
  store.dispatch({ type: 'changeSet', changeSet: { runKey: key, source: 'local', status: 'capturing' } });
  // The old publisher wrote back on a microtask: give any such write-back the chance to happen.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(storedIds(store, key), ['jobs']);
  assert.deepEqual(runPanelsOf(store.state, key).map((p) => p.id), ['jobs', CHANGE_SET_PANEL_ID]);
  const summary = runSummaryOf(store.state, key)!;
  assert.deepEqual(summary.panels?.map((p) => p.id), ['jobs', CHANGE_SET_PANEL_ID]);
  assert.match(summary.panels![1]!.emptyText ?? '', /being captured/);
});

/** Dispatches a ready change set and waits for its patch to be read (the panel says "reading…" until then). */
async function ready(store: RunStore, key: string, patch: string): Promise<void> {
  store.dispatch({ type: 'changeSet', changeSet: { runKey: key, source: 'daemon', status: 'ready', patch } });
  await readChangeSet(store.state.changeSets.get(key)!);
}

test('the derived panel follows the change set, and survives a driver replacing its panels wholesale', async () => {
  const { store, key } = setup();
  store.dispatch({ type: 'changeSet', changeSet: { runKey: key, source: 'daemon', status: 'capturing' } });
  const capturing = runSummaryOf(store.state, key)!.panels!.find((p) => p.id === CHANGE_SET_PANEL_ID)!;
  assert.equal(capturing.entries.length, 0);
  await ready(store, key, SAMPLE_PATCH);
  const shown = runSummaryOf(store.state, key)!.panels!.find((p) => p.id === CHANGE_SET_PANEL_ID)!;
  assert.match(shown.entries[0]!.label, /files? changed/);
  assert.ok(shown.entries.length > 1, 'one entry per file after the summary');
  // hive's mirror replaces the run's panels without merge: the change-set panel must not vanish with them.
  store.dispatch({ type: 'runPanels', runKey: key, panels: [JOBS] });
  assert.deepEqual(storedIds(store, key), ['jobs']);
  assert.deepEqual(runPanelsOf(store.state, key).map((p) => p.id), ['jobs', CHANGE_SET_PANEL_ID]);
  assert.equal(runPanelsOf(store.state, key)[1], runPanelsOf(store.state, key)[1], 'built once per change set');
});

test('without a change set only the stored panels are shown; unknown runs have none', () => {
  const { store, key } = setup();
  assert.equal(runSummaryOf(store.state, key)!.panels, undefined);
  store.dispatch({ type: 'runPanels', runKey: key, panels: [JOBS] });
  assert.deepEqual(runSummaryOf(store.state, key)!.panels, [JOBS]);
  assert.deepEqual(runPanelsOf(store.state, runKeyOf('c', 'nope')), []);
});

test("Apply change set asks its own question, except when the change set writes protected files (Apply's protected-file question stands in for it)", async () => {
  const { store, key } = setup();
  const applyAll = () => runPanelsOf(store.state, key).find((p) => p.id === CHANGE_SET_PANEL_ID)!.entries[0]!.actions.find((a) => a.id === 'applyAll')!;
  await ready(store, key, SAMPLE_PATCH);
  assert.equal(applyAll().confirm, true);
  const settings = ['diff --git a/.vscode/settings.json b/.vscode/settings.json', '--- a/.vscode/settings.json', '+++ b/.vscode/settings.json', '@@ -1 +1 @@', '-{}', '+{"x": 1}', ''].join('\n');
  await ready(store, key, SAMPLE_PATCH + settings);
  assert.equal(applyAll().confirm, false);
});

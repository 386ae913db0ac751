/** The A3S driver against the in-process reference harness: mapping, paging, reload, cancel, change sets, recovery. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { a3sCursorSchema } from '../../../../extension/drivers/a3s/a3sJournal';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { allText, connected, driverTestBed, items, untilAsync } from './a3sDriverKit';
import { FakeA3sServer } from '../a3s/fakeA3sServer';
import { quietLog, until } from '../driverKit';

// Zero-latency harness unless a test asks for pacing: every wait below is for a state.
const { startHarness, makeDriver, cleanups } = driverTestBed('a3sd-');

for (const [mode, pacing] of [['zero latency', {}], ['paced', { stepMs: 1, captureMs: 30 }]] as const) {
test(`a run is mapped onto the model and its verified change set is published (${mode})`, async () => {
  const { harness } = await startHarness(pacing);
  const { store, driver, connectionId, frames } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  assert.deepEqual(store.state.connections.get(connectionId)?.capabilities, ['run.start', 'run.cancel', 'changeSets.remote', 'runs.refresh']);
  await assert.rejects(driver.startRun({ prompt: '   ', workspaceRoots: [] }), /prompt must not be blank/);
  const runId = await driver.startRun({ prompt: 'edit the files please', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  await until('completed', () => store.state.runs.get(key)?.state === 'completed');
  const list = items(store, key);
  const kinds = new Set(list.map((i) => i.kind));
  for (const k of ['user', 'text', 'reasoning', 'tool', 'turn', 'usage', 'compaction', 'notice', 'raw']) {
    assert.ok(kinds.has(k as TranscriptItem['kind']), `has ${k}`);
  }
  assert.equal(kinds.has('approval'), false, 'A3S has no approval verb: no approval cards');
  assert.match(allText(store, key), /Hello ✓ — “quotes”, emoji 🎉/);
  const tools = list.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
  const bash = tools.find((t) => t.callId === 'tool-1');
  assert.equal(bash?.status, 'succeeded');
  assert.equal(bash?.input, '{"command":"ls -la"}');
  const bounded = tools.find((t) => t.callId === 'tool-4');
  assert.equal(bounded?.truncated, true, 'a bounded stub is shown as truncation');
  assert.match(bounded?.output ?? '', /exceeded 64 KiB/);
  const notices = list.filter((i) => i.kind === 'notice').map((i) => (i.kind === 'notice' ? i.text : ''));
  assert.ok(notices.some((t) => /confirmation to run bash.*cannot be answered/.test(t)), notices.join('\n'));
  assert.ok(notices.some((t) => /Permission denied: rm/.test(t)));
  assert.ok(list.some((i) => i.kind === 'raw' && i.label === 'a3s_future_event (unknown type)'));
  assert.ok(list.some((i) => i.kind === 'turn' && i.phase === 'completed'));
  // 0-based on the wire, +1 in the model.
  assert.equal(store.state.runs.get(key)?.lastSequence, harness.getRun(runId)!.events.length);

  const changeSet = await until('change set', () => (store.state.changeSets.get(key)?.status === 'ready' ? store.state.changeSets.get(key) : undefined));
  assert.equal(changeSet.source, 'daemon');
  assert.match(changeSet.baseTree ?? '', /^git-tree:[0-9a-f]{40}$/);
  assert.match(changeSet.patch ?? '', /diff --git a\/README\.md b\/README\.md/);
  // The start command carried exactly the five identity keys (the harness rejects anything else).
  const start = frames.find((f) => f.dir === 'out' && f.path === '/v1/agent/commands')?.frame as { request: { identity: object } };
  assert.deepEqual(Object.keys(start.request.identity), ['schema', 'protocol', 'agent_release_identity', 'session_id', 'run_id']);
});
}

test('paging follows has_more and marks a retention gap', async () => {
  // Zero latency: all ~180 events exist before the first page, so paging must follow has_more across pages.
  const { harness } = await startHarness();
  const { store, driver, connectionId, frames } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'many events, mind the gap', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  await until('completed', () => store.state.runs.get(key)?.state === 'completed');
  const gaps = items(store, key).filter((i) => i.kind === 'gap');
  assert.deepEqual(
    gaps.map((g) => (g.kind === 'gap' ? [g.from, g.to, g.reason] : [])),
    // Wire sequences 0–2 were evicted = model sequences 1–3 (the model is the wire + 1; gap items are inclusive).
    [[1, 3, 'older events were dropped by the harness']],
  );
  const text = allText(store, key);
  for (let i = 0; i < 150; i++) {
    assert.equal(text.split(`chunk ${i} `).length, 2, `chunk ${i} exactly once`);
  }
  // Sequences 0–2 (agent_start, "early 0", "early 1") were evicted; "early 2" is sequence 3.
  assert.doesNotMatch(text, /early [01] /, 'evicted events are not invented');
  assert.match(text, /^early 2 early 3 early 4 /);
  const fullPages = frames.filter((f) => f.dir === 'in' && f.path === '/v1/agent/events:page' && (f.frame as { has_more?: boolean }).has_more === true);
  assert.ok(fullPages.length >= 2, `followed has_more across pages (${fullPages.length})`);
  assert.equal(store.state.runs.get(key)?.lastSequence, harness.getRun(runId)!.events.length);
});

test('a reload resumes paging from the persisted cursor without duplicates', async () => {
  // The harness parks the run at 40 events: the reload happens mid-run by construction, not by timing.
  const { harness } = await startHarness();
  harness.holdEventsAt(40);
  const first = makeDriver(harness.url);
  const storage = first.storageDir;
  await first.driver.connect();
  await connected(first.store, first.connectionId);
  const runId = await first.driver.startRun({ prompt: 'many chunks', workspaceRoots: [] });
  const key = runKeyOf(first.connectionId, runId);
  await until('the parked run is read', () => first.store.state.runs.get(key)?.lastSequence === 40);
  await first.driver.disconnect();
  // A reload restores what is on disk: wait until the journal holds every event the model holds (wire 0–39).
  const onDisk = new DriverRuns({ store: first.store, connectionId: first.connectionId, storageDir: storage, log: quietLog }, () => ({ cursor: a3sCursorSchema, books: 'none' }));
  await untilAsync('the journal holds the 40 events', async () => (await onDisk.sequencesOf(runId)).length === 40);
  await first.driver.dispose();
  assert.equal(harness.getRun(runId)!.live, true, 'the reload happens mid-run');

  const second = makeDriver(harness.url, storage);
  await second.driver.connect();
  const restored = second.store.state.runs.get(key);
  assert.ok(restored, 'the run is restored from storage');
  assert.equal(restored.lastSequence, 40, 'the stored transcript is folded back in');
  await connected(second.store, second.connectionId);
  harness.holdEventsAt(undefined);
  await until('completed', () => second.store.state.runs.get(key)?.state === 'completed');
  const firstPage = second.frames.find((f) => f.dir === 'out' && f.path === '/v1/agent/events:page')?.frame as { after_event_sequence: number | null };
  assert.equal(firstPage.after_event_sequence, restored.lastSequence - 1, 'paging resumes after the last held sequence');
  const text = allText(second.store, key);
  for (let i = 0; i < 150; i++) {
    assert.equal(text.split(`chunk ${i} `).length, 2, `chunk ${i} exactly once`);
  }
  assert.equal(items(second.store, key).filter((i) => i.kind === 'user').length, 1);
  assert.equal(items(second.store, key).filter((i) => i.kind === 'gap').length, 0);
  assert.equal(second.store.state.runs.get(key)?.lastSequence, harness.getRun(runId)!.events.length);
});

test('cancel: a live run is cancelled; cancelling again says "already finished"', async () => {
  const { harness } = await startHarness();
  const { store, driver, connectionId, frames } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'wait for me', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  await until('turn started', () => items(store, key).some((i) => i.kind === 'turn'));
  await driver.cancelRun(runId);
  await until('canceled', () => store.state.runs.get(key)?.state === 'canceled');
  const cancel = frames.find((f) => f.dir === 'out' && (f.frame as { action?: string }).action === 'cancel')?.frame as { request: { reason: string } };
  assert.equal(cancel.request.reason, 'Cancelled from VS Code');
  await driver.cancelRun(runId);
  assert.ok(items(store, key).some((i) => i.kind === 'notice' && /Already finished/.test(i.text)));
  assert.equal(store.state.runs.get(key)?.state, 'canceled');
});

test('a change set over the limit is unavailable with the reason', async () => {
  const { harness } = await startHarness();
  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'edit something huge', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  const changeSet = await until('final change set', () => {
    const cs = store.state.changeSets.get(key);
    return cs && cs.status !== 'capturing' ? cs : undefined;
  });
  assert.equal(changeSet.status, 'unavailable');
  assert.match(changeSet.reason ?? '', /No change set: .*4 MiB/);
  assert.equal(changeSet.patch, undefined);
});

test('a tampered change set is refused, naming the failed check', async () => {
  const { harness } = await startHarness();
  // A proxy that forwards to the harness and corrupts the change set's digest.
  const proxy = new FakeA3sServer(async (req) => {
    const response = await fetch(`${harness.url}${req.path}`, { method: req.method, body: req.method === 'POST' ? req.body : undefined, headers: { 'content-type': 'application/json' } });
    const body = (await response.json()) as Record<string, unknown>;
    if (req.path === '/v1/agent/changes' && response.status === 200) {
      body.patch_digest = `sha256:${'0'.repeat(64)}`;
    }
    return { status: response.status, body };
  });
  const url = await proxy.start();
  cleanups.push(() => proxy.stop());
  const { store, driver, connectionId } = makeDriver(url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'edit', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  const changeSet = await until('final change set', () => {
    const cs = store.state.changeSets.get(key);
    return cs && cs.status !== 'capturing' ? cs : undefined;
  });
  assert.equal(changeSet.status, 'refused');
  assert.match(changeSet.reason ?? '', /"patch_digest" check/);
  assert.equal(changeSet.patch, undefined, 'a refused change set carries no patch');
});

test('a stranded run is offered for recovery and resumes as a new run', async () => {
  const { harness } = await startHarness();
  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'strand me', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  await until('running', () => store.state.runs.get(key)?.state === 'running');
  await assert.rejects(driver.cancelRun(runId), /Recover A3S Run/);
  assert.equal(store.state.runs.get(key)?.state, 'interrupted');
  assert.ok(driver.isStranded(runId));
  const panel = store.state.runs.get(key)?.panels?.find((p) => p.id === 'a3s.recover');
  assert.deepEqual(panel?.entries[0]?.actions.map((a) => a.id), ['recover']);
  await driver.panelAction(runId, 'a3s.recover', 'recover', 'recover');
  const recovered = await until('the new run', () => [...store.state.runs.values()].find((r) => r.runId !== runId));
  assert.match(recovered.title, /\(recovered\)$/);
  await until('recovered run completes', () => store.state.runs.get(recovered.key)?.state === 'completed');
  assert.ok(items(store, recovered.key).some((i) => i.kind === 'notice' && i.text.includes(`checkpoint of run ${runId}`)));
  assert.equal(store.state.runs.get(key)?.panels?.some((p) => p.id === 'a3s.recover'), false);
  await assert.rejects(driver.recoverRun(runId), /already recovered/);
});

test('after a harness restart, paging a live run answers 404 session_not_found: the run is stranded', async () => {
  const { harness } = await startHarness();
  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'strand me again', workspaceRoots: [] });
  const key = runKeyOf(connectionId, runId);
  await until('running', () => store.state.runs.get(key)?.state === 'running');
  harness.simulateRestart();
  await until('stranded', () => driver.isStranded(runId));
  assert.equal(store.state.runs.get(key)?.state, 'interrupted');
  assert.match(store.state.runs.get(key)?.stateDetail ?? '', /Recover A3S Run/);
  const runKeyNew = runKeyOf(connectionId, await driver.recoverRun(runId));
  await until('recovered run completes', () => store.state.runs.get(runKeyNew)?.state === 'completed');
});

test('profile problems fail with an actionable reason; a draining harness shows "draining"', async () => {
  const { harness } = await startHarness();
  const noRelease = makeDriver(harness.url, undefined, { releaseIdentity: undefined });
  await noRelease.driver.connect();
  const failed = await until('failed', () => {
    const s = noRelease.store.state.connections.get(noRelease.connectionId)?.state;
    return s?.kind === 'failed' ? s : undefined;
  });
  assert.match(failed.reason, /releaseIdentity.*sha256:/);
  const remote = makeDriver('http://192.0.2.10:8787');
  await remote.driver.connect();
  const refused = await until('failed', () => {
    const s = remote.store.state.connections.get(remote.connectionId)?.state;
    return s?.kind === 'failed' ? s : undefined;
  });
  assert.match(refused.reason, /"allowRemote": true/);

  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  harness.beginDrain();
  // Idle, the driver arms no readiness timer: the check comes from the visible view's refresh cadence (or a request).
  await driver.refresh();
  const draining = await until('reconnecting', () => {
    const s = store.state.connections.get(connectionId)?.state;
    return s?.kind === 'reconnecting' ? s : undefined;
  });
  assert.match(draining.reason, /^draining/);
  await assert.rejects(driver.startRun({ prompt: 'x', workspaceRoots: [] }), /not ready/);
});

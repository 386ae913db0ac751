/**
 * The A3S driver under conditions a real harness produces (issue 13): a 200 receipt that does not match its
 * command, and a restart whose stranded runs hide once a new start reopens the shared session. The harness runs
 * with zero latency; every wait is for a state.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A3S_RECOVER_PANEL } from '../../../../extension/drivers/a3s/a3sDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { connected, driverTestBed, items, notices } from './a3sDriverKit';
import { FakeA3sServer } from './fakeA3sServer';

const { startHarness, makeDriver, cleanups } = driverTestBed('a3sr-');

for (const field of ['request_id', 'identity', 'command_digest'] as const) {
  test(`a start answered 200 with a receipt whose ${field} does not match is followed to the end, with a warning`, async () => {
    const { harness } = await startHarness({ tamperReceipt: field });
    const { store, driver, connectionId, logs } = makeDriver(harness.url);
    await driver.connect();
    await connected(store, connectionId);
    const runId = await driver.startRun({ prompt: 'edit the files please', workspaceRoots: [] });
    const key = runKeyOf(connectionId, runId);
    assert.ok(harness.getRun(runId), 'the harness did start the run');
    await until('the run completes', () => store.state.runs.get(key)?.state === 'completed');
    assert.equal(store.state.runs.get(key)?.lastSequence, harness.getRun(runId)!.events.length, 'every event of the run, read through its pages');
    const warning = notices(store, key).find((n) => n.level === 'warning');
    assert.match(warning?.text ?? '', /receipt did not match the start command \(its \w+ differs.*following the run anyway/);
    assert.ok(
      logs.some((l) => l.level === 'warn' && l.message.includes('receipt did not match') && l.message.includes(`receipt ${field} does not match`)),
      logs.map((l) => l.message).join('\n'),
    );
    const changeSet = await until('the change set', () => {
      const cs = store.state.changeSets.get(key);
      return cs && cs.status !== 'capturing' ? cs : undefined;
    });
    assert.equal(changeSet.status, 'ready', 'the followed run ends like any other, change set included');
  });
}

test('a recover answered 200 with a mismatching receipt is followed too', async () => {
  const { harness } = await startHarness({ tamperReceipt: 'command_digest' });
  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'strand me', workspaceRoots: [] });
  await until('running', () => store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'running');
  await assert.rejects(driver.cancelRun(runId), /Recover A3S Run/);
  const newRunId = await driver.recoverRun(runId);
  const key = runKeyOf(connectionId, newRunId);
  await until('the recovered run completes', () => store.state.runs.get(key)?.state === 'completed');
  assert.ok(notices(store, key).some((n) => n.level === 'warning' && /receipt did not match the recover command/.test(n.text)));
});

test('after a harness restart, a run is found stranded even though a new start reopens the shared session', async () => {
  const { harness } = await startHarness();
  // Pages and health checks a minute apart: the pollers cannot see the restart's 404 window by chance, as a poller
  // in backoff does not in real use; only the driver's check before the next start can.
  const slow = { pollActiveMs: 60_000, pollMaxMs: 60_000, healthIntervalMs: 60_000 };
  const { store, driver, connectionId } = makeDriver(harness.url, undefined, {}, slow);
  await driver.connect();
  await connected(store, connectionId);
  const a = await driver.startRun({ prompt: 'wait for me', workspaceRoots: [] });
  const keyA = runKeyOf(connectionId, a);
  await until('run A is live and read', () => items(store, keyA).some((i) => i.kind === 'turn') && store.state.runs.get(keyA)?.state === 'running');

  await harness.restart();
  const b = await driver.startRun({ prompt: 'a new run after the restart', workspaceRoots: [] });
  const keyB = runKeyOf(connectionId, b);
  assert.equal(harness.getRun(a)?.sessionId, harness.getRun(b)?.sessionId, 'both runs share the session B reopened');
  assert.equal(driver.isStranded(a), true, 'A was found stranded before B reopened the session');
  assert.equal(store.state.runs.get(keyA)?.state, 'interrupted');
  assert.match(store.state.runs.get(keyA)?.stateDetail ?? '', /Stranded: the harness restarted.*Recover A3S Run/);
  assert.deepEqual(store.state.runs.get(keyA)?.panels?.find((p) => p.id === A3S_RECOVER_PANEL)?.entries[0]?.actions.map((x) => x.id), ['recover']);
  await until('run B completes', () => store.state.runs.get(keyB)?.state === 'completed');

  // Recovery is offered as for any stranded run: A resumes from its checkpoint as a new (again waiting) run.
  const recovered = runKeyOf(connectionId, await driver.recoverRun(a));
  await until('the recovered run resumes from A', () => items(store, recovered).some((i) => i.kind === 'notice' && i.text.includes(`checkpoint of run ${a}`)));
  assert.equal(store.state.runs.get(keyA)?.panels?.some((p) => p.id === A3S_RECOVER_PANEL), false);
  await driver.cancelRun(store.state.runs.get(recovered)!.runId);
  await until('the recovered run is cancelled', () => store.state.runs.get(recovered)?.state === 'canceled');
});

test('a restart with no run left live strands nothing: the check before a start only acts on session_not_found', async () => {
  const { harness } = await startHarness();
  // No readiness checks in between: the start right after the restart must not race the driver noticing it.
  const { store, driver, connectionId, frames } = makeDriver(harness.url, undefined, {}, { healthIntervalMs: 60_000 });
  await driver.connect();
  await connected(store, connectionId);
  const a = await driver.startRun({ prompt: 'finish quickly', workspaceRoots: [] });
  await until('run A completes, change set included', () => {
    const keyA = runKeyOf(connectionId, a);
    return store.state.runs.get(keyA)?.state === 'completed' && store.state.changeSets.get(keyA)?.status === 'ready';
  });
  await harness.restart();
  const mark = frames.length;
  const b = await driver.startRun({ prompt: 'the next run', workspaceRoots: [] });
  await until('run B completes', () => store.state.runs.get(runKeyOf(connectionId, b))?.state === 'completed');
  assert.equal(driver.isStranded(a), false);
  assert.equal(store.state.runs.get(runKeyOf(connectionId, a))?.state, 'completed');
  const firstOut = frames.slice(mark).find((f) => f.dir === 'out');
  assert.equal(firstOut?.path, '/v1/agent/commands', 'no probe for a finished run: the start goes out first');
});

test('a run whose own start is still unanswered is not taken for stranded by the check before another start', async () => {
  const { harness } = await startHarness();
  // Forwards to the harness, holding the first command until released: its run exists only on the editor's side.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  const proxy = new FakeA3sServer(async (req) => {
    if (req.path === '/v1/agent/commands' && holding) {
      holding = false;
      await released;
    }
    const response = await fetch(`${harness.url}${req.path}`, { method: req.method, body: req.method === 'POST' ? req.body : undefined, headers: { 'content-type': 'application/json' } });
    return { status: response.status, body: await response.json() };
  });
  const url = await proxy.start();
  cleanups.push(() => proxy.stop());
  const { store, driver, connectionId } = makeDriver(url);
  await driver.connect();
  await connected(store, connectionId);
  const first = driver.startRun({ prompt: 'the first run', workspaceRoots: [] });
  await until('the first start is held at the door', () => proxy.requests.some((r) => r.path === '/v1/agent/commands'));
  // The harness has no session open yet: paging the first run now would answer session_not_found.
  const second = await driver.startRun({ prompt: 'the second run', workspaceRoots: [] });
  release();
  const firstId = await first;
  assert.equal(driver.isStranded(firstId), false);
  for (const runId of [firstId, second]) {
    await until(`run ${runId} completes`, () => store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed');
  }
});

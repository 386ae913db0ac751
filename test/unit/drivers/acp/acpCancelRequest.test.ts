/**
 * `$/cancel_request` both ways. The agent withdraws a permission request it is waiting on (reference keyword
 * `withdraw`, as claude-agent-acp does when the tool call that asked goes away): the card expires as withdrawn and the
 * request is answered `cancelled`. The person stops waiting for a request of ours: a New Run cancelled while the
 * agent starts its session (session/new), a Stop while a restored session loads (session/load) — the agent is told,
 * and a late answer (or replay) changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';
import type { Rig } from './acpDriverKit';

interface Frame {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: { readonly requestId?: number | string };
}
const framesOf = (r: Rig, dir: 'in' | 'out'): Frame[] => r.frames.filter((f) => f.dir === dir).map((f) => f.frame as Frame);
/** The id of our last request of `method`, and whether we sent `$/cancel_request` for it. */
function cancelledOut(r: Rig, method: string): { id: number | string | undefined; cancelled: boolean } {
  const id = framesOf(r, 'out').filter((f) => f.method === method).at(-1)?.id;
  return { id, cancelled: framesOf(r, 'out').some((f) => f.method === '$/cancel_request' && f.params?.requestId === id) };
}

test('the agent withdraws a waiting permission request: the card expires as withdrawn, the request is answered cancelled', { timeout: 30_000 }, async () => {
  const r = await rig();
  const asking = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approvalId = await until('an approval', () => run(r, asking)?.pendingApprovals[0]);
  const other = await r.driver.startRun({ prompt: 'withdraw what waits', workspaceRoots: [r.ws.dir] });
  const approval = await until('expired', () => {
    const a = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, asking)}::${approvalId}`);
    return a?.status === 'expired' && a;
  });
  assert.equal(approval.reason, 'The agent withdrew this request.');
  assert.ok(framesOf(r, 'in').some((f) => f.method === '$/cancel_request'), 'the agent sent $/cancel_request');
  await until('the asking turn ended cancelled', () => r.items(asking).some((i) => i.kind === 'turn' && i.phase === 'cancelled') && idle(r, asking));
  await until('the other turn ended', () => idle(r, other));
  await assert.rejects(r.driver.decideApproval(asking, approvalId, 'allow_once'), /no longer waits/);
});

test('a New Run cancelled while the agent starts its session sends $/cancel_request; the next run gets a session of its own', { timeout: 30_000 }, async () => {
  const r = await rig();
  const abandon = new AbortController();
  const asking = r.driver.newRunChoices([r.ws.dir], abandon.signal);
  abandon.abort();
  await assert.rejects(asking);
  const first = cancelledOut(r, 'session/new');
  await until('$/cancel_request sent for the session/new', () => cancelledOut(r, 'session/new').cancelled);
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('answered', () => idle(r, runId));
  assert.notEqual(cancelledOut(r, 'session/new').id, first.id, 'not the abandoned one: a new session/new');
});

test('Stop while a restored session loads sends $/cancel_request; its late replay is dropped, a later message loads it', { timeout: 40_000 }, async () => {
  const first = await rig();
  const runId = await first.driver.startRun({ prompt: 'hello before the reload', workspaceRoots: [first.ws.dir] });
  await until('the first turn ended', () => idle(first, runId));
  await first.driver.dispose();

  // An agent without session/resume: the load (and the replay to drop) is what is stopped.
  const r = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir, agentArgs: ['--without-session', 'resume'] });
  const before = r.items(runId).length;
  const states: string[] = [];
  r.setup.store.onDidChange(() => states.push(run(r, runId)?.state ?? ''));
  const sending = r.driver.sendMessage(runId, 'never sent');
  await r.driver.cancelRun(runId);
  await assert.rejects(sending, /Stopped: the agent was told/);
  assert.equal(run(r, runId)?.state, 'idle', 'back as it was before the load');
  assert.match(run(r, runId)?.stateDetail ?? '', /^Restored/);
  const load = cancelledOut(r, 'session/load');
  assert.ok(load.cancelled, 'the load was cancelled on the wire');
  assert.ok(states.includes('starting'), 'while the agent loads, the run is starting (Stop is offered)');
  await until('the agent answered the abandoned load anyway', () => framesOf(r, 'in').some((f) => f.id === load.id && f.method === undefined));
  assert.equal(r.items(runId).length, before, 'its replay added nothing');

  await r.driver.sendMessage(runId, 'after the stop');
  await until('answered', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2 && idle(r, runId));
  const users = r.items(runId).flatMap((i) => (i.kind === 'user' ? [i.text] : []));
  assert.deepEqual(users, ['hello before the reload', 'after the stop']);
});

/**
 * The ACP driver against the reference agent as a child process: a streamed turn, a permission request allowed and
 * one denied (the file changes only when allowed, written through the editor's WorkspaceAccess), a cancel mid-stream
 * (the pending request is answered cancelled and expires), a message queued behind a running turn, the plan panel,
 * and every JSON-RPC line in the trace tap — including a malformed one. Every store's patches are mirrored into the
 * webview's store (driverKit), so a patch the view would refuse fails the file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { proposedFiles } from '../../../../extension/model/editProposal';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { editedText } from '../../../fixtures/acp/editTool';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';
import { README_TEXT } from './acpWorkspace';


test('a turn streams thinking, the answer and usage, and ends waiting for the next message', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello there', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const items = r.items(runId);
  assert.deepEqual(items.slice(0, 2).map((i) => i.kind), ['checkpoint', 'user'], 'the files before the first prompt, then the prompt');
  assert.ok(items.some((i) => i.kind === 'reasoning' && i.text.length > 0), 'thinking shown');
  assert.ok(items.some((i) => i.kind === 'text' && i.text.length > 20 && !i.streaming), 'the answer, closed');
  assert.ok(items.some((i) => i.kind === 'turn' && i.phase === 'completed' && i.code === undefined), 'an end_turn ends the turn without words');
  assert.equal(run(r, runId)?.stateDetail, '', 'the idle state\'s label says it: no detail repeats "Waiting for your message"');
  assert.ok(r.frames.some((f) => f.dir === 'out' && (f.frame as { method?: string }).method === 'session/prompt'), 'traced out');
  assert.ok(r.frames.some((f) => f.dir === 'in' && (f.frame as { method?: string }).method === 'session/update'), 'traced in');
});

test('a permission request is an approval: allowed, the edit lands through the editor; denied, the file stays', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approval = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  const pending = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, runId)}::${approval}`);
  assert.deepEqual(pending?.options, ['allow_once', 'allow_similar', 'deny', 'deny_always']);
  assert.equal(run(r, runId)?.state, 'waiting_approval', 'the run waits for a person');
  const [proposed] = await proposedFiles(pending?.detail, async (p) => readFileSync(p, 'utf8'));
  assert.deepEqual([proposed?.path, proposed?.original, proposed?.proposed], [r.ws.readme, README_TEXT, editedText(README_TEXT)], 'the diff editor gets the proposed file');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'nothing written before the decision');
  await r.driver.decideApproval(runId, approval, 'allow_once', 'transcript');
  assert.notEqual(run(r, runId)?.state, 'waiting_approval', 'decided: the turn goes on');
  await until('the turn ended', () => idle(r, runId));
  assert.notEqual(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'written once allowed');
  await until('a local change set', () => r.setup.store.state.changeSets.get(runKeyOf(r.setup.connectionId, runId))?.patch?.includes('README.md'));

  await r.driver.sendMessage(runId, 'edit:NOTES.md please');
  const second = await until('a second approval', () => run(r, runId)?.pendingApprovals[0]);
  await r.driver.decideApproval(runId, second, 'deny', 'notification');
  await until('the turn ended', () => idle(r, runId) && !run(r, runId)?.pendingApprovals.length);
  assert.throws(() => readFileSync(join(r.ws.dir, 'NOTES.md'), 'utf8'), 'denied: not written');
});

test('Stop cancels the turn and answers a waiting permission request cancelled; a queued message goes next', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'slow story', workspaceRoots: [r.ws.dir] });
  await until('streaming', () => r.items(runId).some((i) => i.kind === 'text' && i.text.length > 0));
  await r.driver.sendMessage(runId, 'plan and then nothink');
  assert.equal(run(r, runId)?.queue?.length, 1, 'queued behind the running turn');
  await r.driver.cancelRun(runId);
  await until('cancelled', () => r.items(runId).some((i) => i.kind === 'turn' && i.phase === 'cancelled'));
  await until('the queued prompt ran', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 1 && idle(r, runId));
  assert.equal(run(r, runId)?.queue?.length ?? 0, 0);
  const plan = run(r, runId)?.panels?.find((p) => p.id === 'plan');
  assert.equal(plan?.entries.length, 3);
  assert.ok(plan?.entries.every((e) => e.icon === 'pass-filled'), JSON.stringify(plan));
});

test('a malformed line from the agent is traced and survived', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'malformed then fine', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  assert.ok(r.frames.some((f) => f.dir === 'in' && typeof (f.frame as { unparsed?: unknown }).unparsed === 'string'));
  assert.equal(r.setup.store.state.connections.get(r.setup.connectionId)?.state.kind, 'connected');
});

test('Stop while a permission request waits answers it cancelled: the approval expires and the turn ends cancelled', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approvalId = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  await r.driver.cancelRun(runId);
  const approval = await until('expired', () => {
    const a = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, runId)}::${approvalId}`);
    return a?.status === 'expired' && a;
  });
  assert.match(approval.reason ?? '', /cancelled/);
  await until('the turn ended cancelled', () => r.items(runId).some((i) => i.kind === 'turn' && i.phase === 'cancelled') && idle(r, runId));
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'nothing written');
  assert.ok(r.frames.some((f) => f.dir === 'out' && (f.frame as { result?: { outcome?: { outcome?: string } } }).result?.outcome?.outcome === 'cancelled'), 'answered cancelled on the wire');
  await assert.rejects(r.driver.decideApproval(runId, approvalId, 'allow_once'), /no longer waits/);
});

test('the agent\'s slash commands are offered with the run', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  const commands = await until('slash commands', () => (run(r, runId)?.slashCommands?.length ?? 0) > 0 && run(r, runId)!.slashCommands!);
  assert.ok(commands.every((c) => c.name.length > 0 && !c.name.startsWith('/') && typeof c.description === 'string'), JSON.stringify(commands));
});

test('a stop reason other than end_turn is said on the line that ends the turn', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello stop:max_tokens', workspaceRoots: [r.ws.dir] });
  const end = await until('the turn ended', () => r.items(runId).find((i) => i.kind === 'turn' && i.phase === 'completed'));
  assert.equal(end.kind === 'turn' && end.code, 'max_tokens');
  assert.match(end.kind === 'turn' ? (end.summary ?? '') : '', /token limit/);
});

test('a paused queue keeps its prompts after the turn; resuming sends the next', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'long:30 story', workspaceRoots: [r.ws.dir] });
  await until('streaming', () => r.items(runId).some((i) => i.kind === 'text' && i.text.length > 0));
  await r.driver.pauseQueue(runId, true);
  await r.driver.sendMessage(runId, 'then this, nothink');
  await until('the first turn ended', () => idle(r, runId));
  assert.equal(run(r, runId)?.queue?.length, 1, 'still queued while paused');
  assert.equal(run(r, runId)?.queuePaused, true);
  await r.driver.pauseQueue(runId, false);
  await until('the queued prompt ran', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2 && idle(r, runId));
});

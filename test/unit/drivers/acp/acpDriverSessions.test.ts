/**
 * The agent's sessions through the ACP driver, against the reference agent process (which advertises list, resume,
 * close and fork as claude-agent-acp and codex-acp do): a reload continues a session through `session/resume`
 * (nothing replayed) and the title follows the agent's `session_info_update`; *Open Agent Session…* pages through
 * `session/list`, maps a known session to its run and opens one another client started with its history (load), or
 * without it (resume only) saying so; *Fork Run* makes a second run that goes on from the conversation; *Close
 * Session* sends `session/close`. Each feature is offered only when advertised.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ActionAnswers } from '../../../../extension/drivers/kit/daemonActions';
import { until } from '../driverKit';
import type { Rig } from './acpDriverKit';
import { idle, later, rig, run } from './acpDriverKit';

const OPEN = 'agentSwitchboard.acp.openSession';
const FORK = 'agentSwitchboard.acp.forkRun';
const CLOSE = 'agentSwitchboard.acp.closeSession';

const sent = (r: Rig, method: string): { sessionId?: string }[] =>
  r.frames.flatMap((f) => {
    const frame = f.frame as { method?: string; params?: { sessionId?: string } };
    return f.dir === 'out' && frame.method === method ? [frame.params ?? {}] : [];
  });
const users = (r: Rig, runId: string): string[] => r.items(runId).flatMap((i) => (i.kind === 'user' ? [i.text] : []));
const notices = (r: Rig, runId: string): string[] => r.items(runId).flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
const completedTurns = (r: Rig, runId: string): number => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length;
/** The context the agent reported last: 1000 per prompt of the session it has (turnScript.ts). */
const lastUsage = (r: Rig, runId: string): number => run(r, runId)?.usage?.used ?? 0;

/** A second client process (its own window storage) on the same agent store, which starts a session there. */
async function otherClientStarts(first: Rig, prompt: string, agentArgs: readonly string[] = []): Promise<string> {
  const storage = mkdtempSync(join(tmpdir(), 'acp-storage-'));
  later(() => rmSync(storage, { recursive: true, force: true, maxRetries: 5 }));
  const other = await rig({ ws: first.ws, stateDir: first.stateDir, storage, agentArgs });
  const runId = await other.driver.startRun({ prompt, workspaceRoots: [first.ws.dir] });
  await until('the other client\'s turn', () => idle(other, runId) && run(other, runId)?.title !== undefined);
  await other.driver.dispose();
  return runId;
}

test('a reload continues the session through session/resume: nothing replayed, the title is the agent\'s, the next prompt works', { timeout: 40_000 }, async () => {
  const first = await rig();
  const runId = await first.driver.startRun({ prompt: 'tell me about `fences`,\n\n  **bold** and\tlinks to [docs](https://x.invalid) please', workspaceRoots: [first.ws.dir] });
  assert.equal(run(first, runId)?.title, 'tell me about fences, bold and links to docs please', 'the default title: one line, no markdown');
  await until('the agent names the session', () => run(first, runId)?.title === 'Tell me about `fences`, **bold** and');
  await until('idle', () => idle(first, runId));
  await first.driver.dispose();

  const second = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir });
  assert.equal(run(second, runId)?.title, 'Tell me about `fences`, **bold** and', 'the agent\'s title is kept');
  await second.driver.sendMessage(runId, 'and after the reload');
  await until('the second turn', () => completedTurns(second, runId) === 2 && idle(second, runId));
  assert.deepEqual(sent(second, 'session/resume').map((p) => p.sessionId), [runId]);
  assert.deepEqual(sent(second, 'session/load'), [], 'resume is preferred: no load');
  assert.equal(users(second, runId).length, 2, 'each prompt once');
  assert.ok(lastUsage(second, runId) >= 2000, `the agent continued the session (used ${lastUsage(second, runId)})`);
});

test('Open Agent Session: pages through session/list, a known session is its run, one another client started opens with its history', { timeout: 60_000 }, async () => {
  const r = await rig({ agentArgs: ['--list-page-size', '1'] });
  const target = { connectionId: r.setup.connectionId };
  const here = await r.driver.startRun({ prompt: 'first here', workspaceRoots: [r.ws.dir] });
  await until('idle', () => idle(r, here));
  const elsewhere = await otherClientStarts(r, 'started elsewhere');
  assert.ok(r.driver.actionFacts().includes('listSessions'));

  // One session a page: "More sessions…" leads to the next page, each answer kept under its own name.
  let answers: ActionAnswers = {};
  const listed: { value: string; description?: string }[] = [];
  for (let input = await r.driver.nextActionInput(OPEN, target, answers); input; input = await r.driver.nextActionInput(OPEN, target, answers)) {
    assert.equal(input.kind, 'pick');
    const choices = input.kind === 'pick' ? input.choices : [];
    listed.push(...choices.filter((c) => !c.value.startsWith('more:')));
    const more = choices.find((c) => c.value.startsWith('more:'));
    if (!more) {
      break;
    }
    answers = { ...answers, [input.name]: more.value };
  }
  assert.deepEqual(listed.map((c) => c.value).sort(), [here, elsewhere].sort(), 'both sessions of the folder, over two pages');
  assert.match(listed.find((c) => c.value === here)?.description ?? '', /a run here/);

  const runsBefore = r.setup.store.state.runs.size;
  assert.deepEqual(await r.driver.performAction(OPEN, target, { session: here }), { kind: 'openRun', runId: here });
  assert.equal(r.setup.store.state.runs.size, runsBefore, 'a known session is its run, not a second one');

  assert.deepEqual(await r.driver.performAction(OPEN, target, { session: elsewhere }), { kind: 'openRun', runId: elsewhere });
  assert.equal(run(r, elsewhere)?.title, 'Started elsewhere', 'the agent\'s title');
  assert.deepEqual(sent(r, 'session/load').map((p) => p.sessionId), [elsewhere], 'loaded, for its history');
  assert.deepEqual(users(r, elsewhere), ['started elsewhere'], 'the replayed history is shown');
  assert.ok(r.items(elsewhere).some((i) => i.kind === 'text' && i.text.includes('You said')), 'the answer too');
  assert.ok(notices(r, elsewhere).some((n) => /history above is what the agent replayed/.test(n)));
  assert.equal(run(r, elsewhere)?.state, 'idle');
  await r.driver.sendMessage(elsewhere, 'and here');
  await until('a turn in the opened session', () => completedTurns(r, elsewhere) === 1 && idle(r, elsewhere));
  assert.ok(lastUsage(r, elsewhere) >= 2000, 'the agent went on with that conversation');
});

test('an agent that resumes but cannot load opens another client\'s session without its history, and says so; unadvertised features are not offered', { timeout: 60_000 }, async () => {
  const r = await rig({ agentArgs: ['--without-session', 'load,fork,close'] });
  const target = { connectionId: r.setup.connectionId };
  const elsewhere = await otherClientStarts(r, 'started elsewhere');
  const opened = await r.driver.performAction(OPEN, target, { session: elsewhere });
  assert.deepEqual(opened, { kind: 'openRun', runId: elsewhere });
  assert.deepEqual(sent(r, 'session/resume').map((p) => p.sessionId), [elsewhere]);
  assert.deepEqual(users(r, elsewhere), [], 'nothing replayed');
  assert.ok(notices(r, elsewhere).some((n) => /without its history/.test(n)), notices(r, elsewhere).join('\n'));
  assert.deepEqual([...r.driver.actionFacts(elsewhere)].filter((f) => f === 'fork' || f === 'close'), [], 'fork and close are not advertised');

  const bare = await rig({ agentArgs: ['--without-session', 'list'] });
  assert.ok(!bare.driver.actionFacts().includes('listSessions'), 'no list: nothing to open');
});

test('Fork Run makes a second run beside the original, in its mode, going on from its conversation', { timeout: 40_000 }, async () => {
  const r = await rig();
  const original = await r.driver.startRun({ prompt: 'remember the word kiwi', workspaceRoots: [r.ws.dir] });
  await until('named', () => run(r, original)?.title === 'Remember the word kiwi' && idle(r, original));
  await r.driver.setMode(original, 'plan');
  const result = await r.driver.performAction(FORK, { connectionId: r.setup.connectionId, runId: original }, {});
  assert.equal(result.kind, 'openRun');
  const fork = result.kind === 'openRun' ? result.runId : '';
  assert.notEqual(fork, original);
  assert.deepEqual(sent(r, 'session/fork').map((p) => p.sessionId), [original]);
  assert.equal(run(r, fork)?.title, 'Remember the word kiwi (fork)');
  assert.equal(run(r, fork)?.state, 'idle');
  assert.ok(notices(r, fork).some((n) => /Forked from "Remember the word kiwi"/.test(n)));
  assert.equal(r.driver.session(fork)?.modes?.currentModeId, 'plan', 'the original\'s mode');
  await r.driver.sendMessage(fork, 'which word');
  await until('a turn in the fork', () => completedTurns(r, fork) === 1 && idle(r, fork));
  assert.ok(lastUsage(r, fork) >= 2000, `the fork has the conversation (used ${lastUsage(r, fork)})`);
  assert.equal(completedTurns(r, original), 1, 'the original is untouched');
});

test('Close Session sends session/close and ends the run; Open Agent Session takes it up again', { timeout: 40_000 }, async () => {
  const r = await rig();
  const target = { connectionId: r.setup.connectionId };
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('idle', () => idle(r, runId));
  assert.deepEqual(await r.driver.performAction(CLOSE, { ...target, runId }, { confirmed: true }), { kind: 'done', status: 'The agent closed the session.' });
  assert.deepEqual(sent(r, 'session/close').map((p) => p.sessionId), [runId]);
  assert.equal(run(r, runId)?.state, 'completed');
  assert.match(run(r, runId)?.stateDetail ?? '', /^Closed/);
  await r.driver.dispose();

  const again = await rig({ ws: r.ws, storage: r.storage, stateDir: r.stateDir });
  assert.equal(run(again, runId)?.state, 'completed', 'still closed after a reload');
  assert.deepEqual(await again.driver.performAction(OPEN, target, { session: runId }), { kind: 'openRun', runId });
  assert.equal(run(again, runId)?.state, 'idle', 'open again');
  await again.driver.sendMessage(runId, 'hello again');
  await until('the second turn', () => completedTurns(again, runId) === 2 && idle(again, runId));
  assert.deepEqual(sent(again, 'session/resume').map((p) => p.sessionId), [runId], 'the closed session was resumed');
});

test('a removed closed session leaves nothing in the driver: Open Agent Session takes it up afresh from the agent', { timeout: 40_000 }, async () => {
  const r = await rig();
  const target = { connectionId: r.setup.connectionId };
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('idle', () => idle(r, runId));
  await r.driver.performAction(CLOSE, { ...target, runId }, { confirmed: true });
  assert.equal(run(r, runId)?.state, 'completed');
  assert.equal(await r.driver.history.remove(runId), 'removed');
  assert.equal(run(r, runId), undefined);
  // Known no more: opened as any session of the agent's, its history loaded again (not a run this window still holds).
  assert.deepEqual(await r.driver.performAction(OPEN, target, { session: runId }), { kind: 'openRun', runId });
  await until('open again, with the history the agent replayed', () => idle(r, runId) && users(r, runId).includes('hello'));
  await r.driver.sendMessage(runId, 'hello again');
  await until('a turn in it', () => completedTurns(r, runId) >= 1 && idle(r, runId) && users(r, runId).includes('hello again'));
  await r.driver.dispose();
});

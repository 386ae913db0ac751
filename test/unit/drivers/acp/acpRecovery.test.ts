/**
 * A dead agent comes back by itself, once: the reference agent crashes mid-turn (keyword `crash`, exit code 70), the
 * driver starts it again and takes its live sessions up again — `session/resume` when advertised, else
 * `session/load` with the replay dropped — and the transcript goes on with nothing lost or doubled: the crashed turn
 * ends once (interrupted), the next message is answered in the same session, every item is there once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';
import type { Rig } from './acpDriverKit';

const sent = (r: Rig, method: string): number => r.frames.filter((f) => f.dir === 'out' && (f.frame as { method?: string }).method === method).length;
const texts = (items: readonly TranscriptItem[], kind: TranscriptItem['kind']): (string | undefined)[] =>
  items.flatMap((i) => (i.kind === kind && 'text' in i ? [i.text] : []));

async function crashAndContinue(r: Rig, taken: RegExp): Promise<string> {
  const other = await r.driver.startRun({ prompt: 'an idle session beside it', workspaceRoots: [r.ws.dir] });
  await until('the idle session answered', () => idle(r, other));
  const runId = await r.driver.startRun({ prompt: 'hello first', workspaceRoots: [r.ws.dir] });
  await until('the first turn ended', () => idle(r, runId));
  await r.driver.sendMessage(runId, 'now crash');
  await until('the session taken up again after the restart', () => r.items(runId).some((i) => i.kind === 'notice' && taken.test(i.text)));
  await until('the other session taken up too', () => r.items(other).some((i) => i.kind === 'notice' && taken.test(i.text)));
  assert.equal(r.setup.store.state.connections.get(r.setup.connectionId)?.state.kind, 'connected');
  assert.equal(sent(r, 'initialize'), 2, 'started again once');
  assert.equal(run(r, runId)?.state, 'interrupted', 'the turn that was running stays interrupted');
  const turns = r.items(runId).filter((i) => i.kind === 'turn');
  assert.deepEqual(turns.map((t) => t.kind === 'turn' && t.phase), ['started', 'completed', 'started', 'failed'], 'the crashed turn ended once');
  assert.equal(r.driver.openOffers().length, 0, 'no Restart offer: it restarted by itself');

  await r.driver.sendMessage(runId, 'and after the restart');
  await until('answered in the same session', () => idle(r, runId));
  const items = r.items(runId);
  assert.deepEqual(texts(items, 'user'), ['hello first', 'now crash', 'and after the restart'], 'every prompt once');
  const answers = texts(items, 'text').join('');
  assert.equal(answers.split('About to crash').length - 1, 1, 'what the agent said before the crash is there once');
  assert.equal(answers.split('You said: *hello first*').length - 1, 1, 'the first answer is not replayed into the transcript');
  assert.match(answers, /You said: \*and after the restart\*/);
  assert.equal(new Set(items.map((i) => i.id)).size, items.length);
  await r.driver.sendMessage(other, 'the idle one goes on too');
  await until('the other session answered after the restart', () => texts(r.items(other), 'text').join('').includes('the idle one goes on too'));
  return runId;
}

test('a crash restarts the agent once and resumes its sessions (session/resume): the transcript goes on, nothing doubled', { timeout: 60_000 }, async () => {
  const r = await rig();
  await crashAndContinue(r, /restarted; this session was resumed/);
  assert.equal(sent(r, 'session/resume'), 2, 'both live sessions resumed');
  assert.equal(sent(r, 'session/load'), 0);
});

test('an agent without session/resume gets its sessions loaded again, the replay dropped', { timeout: 60_000 }, async () => {
  const r = await rig({ agentArgs: ['--without-session', 'resume'] });
  await crashAndContinue(r, /restarted; this session was loaded again/);
  assert.equal(sent(r, 'session/resume'), 0);
  assert.equal(sent(r, 'session/load'), 2);
});

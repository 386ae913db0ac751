/**
 * The session reports of an ACP agent besides the conversation, through the driver against the reference agent
 * process (shaped as claude-agent-acp sends them): usage on the run in place (several reports, the cost from the
 * last), a notice row with its level, a compaction row whose summary streams in, a subagent as a child run under its
 * parent with its own transcript, and elicitations answered through the driver's `elicitations` (the UI's side).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitationAsk } from '../../../../extension/drivers/kit/elicitationForms';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { COMPACTION_SUMMARY, SUBAGENT_INSTRUCTIONS, SUBAGENT_REPORT } from '../../../fixtures/acp/sessionReports';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';

test('usage goes onto the run, replaced in place: no row per report, the cost from the turn\'s last report', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const reports = r.frames.filter((f) => f.dir === 'in' && JSON.stringify(f.frame).includes('"usage_update"'));
  assert.equal(reports.length, 3, 'the agent reported three times');
  assert.ok(!r.items(runId).some((i) => i.kind === 'usage'), 'no transcript row for usage');
  const usage = run(r, runId)?.usage;
  assert.equal(usage?.size, 200_000);
  assert.deepEqual(usage?.cost, { amount: 0.01, currency: 'USD' });
  const first = usage!.used;
  await r.driver.sendMessage(runId, 'again');
  await until('the second turn ended', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2);
  assert.ok(run(r, runId)!.usage!.used > first, 'the second turn\'s report replaced the first');
  assert.deepEqual(run(r, runId)?.usage?.cost, { amount: 0.02, currency: 'USD' });
});

test('a notice is a row with its level; a compaction is one row, its summary streamed in, and a failed one says why', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'notice compact', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const notice = r.items(runId).find((i) => i.kind === 'notice' && i.text.startsWith('Usage limit'));
  assert.deepEqual(notice && notice.kind === 'notice' && [notice.level, notice.text], ['warning', 'Usage limit approaching: You have used 80% of your plan this week.']);
  const compactions = r.items(runId).flatMap((i) => (i.kind === 'compaction' ? [i] : []));
  assert.equal(compactions.length, 1, 'one row for the compaction, not one per update');
  assert.deepEqual([compactions[0]?.summary, compactions[0]?.text], ['Context compacted', COMPACTION_SUMMARY.join('')]);

  await r.driver.sendMessage(runId, 'compact:fail notice:error');
  await until('the second turn ended', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2);
  const failed = r.items(runId).filter((i) => i.kind === 'compaction')[1];
  assert.equal(failed?.kind === 'compaction' && failed.summary, 'Context compaction failed: Conversation too long to summarize');
  assert.ok(r.items(runId).some((i) => i.kind === 'notice' && i.level === 'error' && i.text.startsWith('Usage limit')), 'the severity is the level');
});

test('a subagent is a child run under its parent, with its own transcript; it takes no message from the user', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'subagent', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const child = [...r.setup.store.state.runs.values()].find((x) => x.parentRunId === runId);
  assert.ok(child, 'a child run linked to its parent');
  assert.equal(child.title, 'Explore the workspace');
  assert.equal(child.state, 'idle', 'its idle state');
  assert.equal(child.usage?.used, 4200, 'its own usage');
  const items = r.items(child.runId);
  assert.deepEqual(items.map((i) => i.kind), ['message', 'reasoning', 'tool', 'text']);
  assert.ok(items.some((i) => i.kind === 'tool' && i.status === 'succeeded' && i.name === 'Glob **/*.md'));
  assert.ok(!r.items(runId).some((i) => i.kind === 'tool'), 'the child\'s updates are not in the parent\'s transcript');
  await assert.rejects(r.driver.sendMessage(child.runId, 'hi'), /subagent takes its instructions from its parent/);
  assert.ok(r.frames.some((f) => f.dir === 'out' && JSON.stringify(f.frame).includes('"subagents":{}')), 'the client advertised subagents');
});

test('messages between a parent and its subagent are rows in both transcripts saying who sent them to whom, never raw data', { timeout: 30_000 }, async () => {
  const r = await rig();
  // Every title the parent had: the child's header names it as it was when the message came (the agent may retitle
  // the session afterwards, and on a loaded machine it did).
  const parentTitles = new Set<string>();
  const stopWatching = r.setup.store.onDidChange((state) => [...state.runs.values()].filter((x) => x.parentRunId === undefined).forEach((x) => parentTitles.add(x.title)));
  const runId = await r.driver.startRun({ prompt: 'subagent', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  stopWatching.dispose();
  const child = [...r.setup.store.state.runs.values()].find((x) => x.parentRunId === runId);
  assert.ok(child);
  const messages = (id: string) => r.items(id).flatMap((i) => (i.kind === 'message' ? [[i.from, i.body]] : []));
  assert.deepEqual(messages(runId), [
    ['To subagent Explore the workspace', SUBAGENT_INSTRUCTIONS],
    ['From subagent Explore the workspace', SUBAGENT_REPORT.join('')],
  ], 'the instructions it sent, then the report: its chunks came before the upsert naming the sender, in one row');
  const [[from, body] = []] = messages(child.runId);
  assert.equal(messages(child.runId).length, 1);
  assert.equal(body, SUBAGENT_INSTRUCTIONS, 'the child got them from its parent');
  assert.ok([...parentTitles].some((title) => from === `From ${title}`), `${from} names the parent (${[...parentTitles].join(' / ')})`);
  assert.ok(![...r.items(runId), ...r.items(child.runId)].some((i) => i.kind === 'raw'), 'no raw rows');
});

test('an elicitation waits for the answer; accepted, the agent gets the content; the run records that it asked and how it was answered', { timeout: 30_000 }, async () => {
  const r = await rig();
  const asks: ElicitationAsk[] = [];
  r.driver.elicitations.onAsk((ask) => asks.push(ask));
  const runId = await r.driver.startRun({ prompt: 'elicit', workspaceRoots: [r.ws.dir] });
  const ask = await until('the question', () => asks[0]);
  assert.equal(ask.runId, runId);
  assert.equal(ask.message, 'Which database should the service use?');
  assert.deepEqual(ask.form?.fields.map((f) => [f.name, f.kind, f.title]), [['question_0', 'choice', 'Database'], ['question_0_custom', 'text', 'Other']]);
  assert.equal(run(r, runId)?.state, 'running', 'the turn waits');
  assert.deepEqual(r.driver.elicitations.waiting(), [ask]);
  assert.equal(r.driver.elicitations.answer(ask.id, { action: 'accept', content: { question_0: 'SQLite' } }), true);
  assert.equal(r.driver.elicitations.answer(ask.id, { action: 'decline' }), false, 'answered once');
  await until('the turn ended', () => idle(r, runId));
  assert.ok(r.items(runId).some((i) => i.kind === 'text' && i.text.includes('You answered: `{"question_0":"SQLite"}`')));
  const notices = r.items(runId).flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
  assert.ok(notices.includes('The agent asks for your input: Which database should the service use?'), notices.join(' | '));
  assert.ok(notices.includes('You answered.'));
  assert.ok(!notices.some((n) => n.includes('SQLite')), 'the values stay out of the transcript notices');
});

test('a URL elicitation is declined, and a question still open when the turn is stopped is cancelled', { timeout: 30_000 }, async () => {
  const r = await rig();
  const asks: ElicitationAsk[] = [];
  const settled: string[] = [];
  r.driver.elicitations.onAsk((ask) => asks.push(ask));
  r.driver.elicitations.onSettle((id) => settled.push(id));
  const runId = await r.driver.startRun({ prompt: 'elicit:url', workspaceRoots: [r.ws.dir] });
  const page = await until('the page', () => asks[0]);
  assert.equal(page.url, 'https://example.com/reference-sign-in?session=1');
  r.driver.elicitations.answer(page.id, { action: 'decline' });
  await until('the turn ended', () => idle(r, runId));
  assert.ok(r.items(runId).some((i) => i.kind === 'text' && i.text.includes('The sign-in page: decline.')));

  await r.driver.sendMessage(runId, 'elicit:settings');
  const form = await until('the settings form', () => asks[1]);
  assert.deepEqual(form.form?.fields.map((f) => [f.name, f.kind, f.required]), [['branch', 'text', true], ['retries', 'number', true], ['push', 'boolean', false]]);
  await r.driver.cancelRun(runId);
  await until('the second turn ended', () => idle(r, runId) && r.items(runId).filter((i) => i.kind === 'turn' && i.phase !== 'started').length === 2);
  assert.ok(settled.includes(form.id), 'the UI is told the question no longer waits');
  assert.deepEqual(r.driver.elicitations.waiting(), []);
  assert.equal(r.setup.store.state.runs.get(runKeyOf(r.setup.connectionId, runId))?.pendingApprovals.length, 0);
});

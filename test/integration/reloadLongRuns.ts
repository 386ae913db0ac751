/**
 * The reload suite's runs long enough to be checkpointed (test/integration/reload.test.ts): a finished one, which
 * comes back from its summary and opens from its checkpoint, and an idle chat, which comes back from its
 * checkpoint's head without its transcript (drivers/kit/quietRuns.ts) — and the daemon-side truth both are checked
 * against (its own journal).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { screenshot, testHooks, waitFor } from './support';
import type { api } from './support';
import { safeFileName } from '../../extension/storage/runJournal';

export const CONNECTION = 'agency-proxy:Reload daemon';
/** A run long enough to be checkpointed (2,000 journal records and more: drivers/kit/runCheckpoints.ts). */
export const LONG = 'reload long run';
const LONG_STEPS = 1200;
/** An interactive run as long, idle when the window goes away: it comes back without its transcript (kit/quietRuns.ts). */
const IDLE_CHAT = 'reload idle chat';

/** A run of LONG_STEPS tool calls (long enough to be checkpointed); `interactive`: it then waits for a message. */
export async function startStepsRun(title: string, interactive: boolean): Promise<string> {
  return (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'read_only',
    prompt: `${title} steps:${LONG_STEPS} notools`,
    approvals: false,
    interactive,
  })) as string;
}

export function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is set by the integration runner for the reload suites`);
  }
  return value;
}

/** The daemon's own journal: every event of every run, in sequence order. */
export function daemonJournal(runId: string): { type: string; payload?: unknown }[] {
  const events: { type: string; payload?: unknown }[] = [];
  for (const line of fs.readFileSync(path.join(env('SWITCHBOARD_RELOAD_STATE'), 'journal.ndjson'), 'utf8').split('\n')) {
    if (!line.trim()) {
      continue;
    }
    const record = JSON.parse(line) as { t: string; runId?: string; sequence?: number; event?: { type: string; payload?: unknown } };
    if (record.t === 'event' && record.runId === runId && record.sequence === events.length + 1 && record.event) {
      events.push(record.event);
    }
  }
  return events;
}

/**
 * Phase 1: an interactive run of LONG_STEPS steps that answers and waits for a message, once its checkpoint (taken
 * after 2 s quiet) and the summary saved with it are on disk: the window may go away without closing.
 */
export async function startIdleChat(a: Awaited<ReturnType<typeof api>>, storageDir: string): Promise<void> {
  const chat = await startStepsRun(IDLE_CHAT, true);
  await waitFor('the chat answered and waits', () => a.store.state.runs.get(chat)?.state === 'idle', 120000);
  // Its checkpoint, once it has been quiet for 2 s, and the summary saved with it (the window may go away unclosed).
  // The run's sequence is read each time: it goes idle at its `usage` event, and the `message_boundary` after it may
  // not have been folded yet when the wait above saw *idle*.
  const storedChat = (): boolean => {
    const chatRun = a.store.state.runs.get(chat)!;
    const dir = path.join(storageDir, 'transcripts');
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
    const index = files.find((f) => path.basename(f) === 'runs.json' && f.includes(safeFileName(CONNECTION)));
    const entries = index ? (JSON.parse(fs.readFileSync(path.join(dir, index), 'utf8')) as { runId: string; summary?: { lastSequence?: number } }[]) : [];
    return files.some((f) => path.basename(f) === `${safeFileName(chatRun.runId)}.ckpt`) && entries.find((e) => e.runId === chatRun.runId)?.summary?.lastSequence === chatRun.lastSequence;
  };
  await waitFor('the chat checkpointed with its summary', storedChat, 60000);
}

/**
 * After the reload: the long run's checkpoint was written by the earlier window (at the latest when it closed) and
 * covers its whole journal, and the run reads as the daemon's journal says: every tool call once, no gap.
 */
export async function checkLongRunFromCheckpoint(a: Awaited<ReturnType<typeof api>>): Promise<void> {
  const run = await waitFor('the long run, restored', () => [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.title.startsWith(LONG)));
  const dir = path.join((await testHooks()).storageDir, 'transcripts');
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  const checkpoint = files.find((f) => path.basename(f) === `${safeFileName(run.runId)}.ckpt`);
  assert.ok(checkpoint, `the long run has a checkpoint (${files.filter((f) => f.endsWith('.ckpt')).join(', ') || 'none'})`);
  const header = JSON.parse(fs.readFileSync(path.join(dir, checkpoint), 'utf8').split('\n', 1)[0]!) as { bytes: number; records: number };
  const journal = fs.statSync(path.join(dir, checkpoint.replace(/\.ckpt$/, '.jsonl'))).size;
  assert.ok(header.records >= 2000 && header.bytes <= journal, `it covers the run's records (${header.records} records, ${header.bytes} of ${journal} bytes)`);
  const events = daemonJournal(run.runId);
  const items = (await opened(a, run.key)).snapshot();
  assert.equal(run.state, 'completed');
  assert.equal(run.lastSequence, events.length, 'every sequence folded once');
  assert.equal(items.filter((i) => i.kind === 'tool').length, events.filter((e) => e.type === 'tool_call').length, 'every tool call once');
  assert.ok(items.filter((i) => i.kind === 'tool').length >= LONG_STEPS);
  assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
}

/**
 * After the reload: the chat that waited for a message comes back from its checkpoint's head, its transcript not read
 * (issue #25), still waiting; the Transcript view loads it as the daemon's journal has it, and a message to it is
 * answered after what it had — nothing lost, nothing doubled.
 */
export async function checkIdleChatBackQuiet(a: Awaited<ReturnType<typeof api>>): Promise<void> {
  const run = await waitFor('the idle chat, restored', () => [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.title.startsWith(IDLE_CHAT)));
  await waitFor('the idle chat waits for a message', () => a.store.state.runs.get(run.key)?.state === 'idle', 30000);
  assert.notEqual(a.store.state.runs.get(run.key)?.unloaded, undefined, 'back from its checkpoint head, its transcript not read');
  assert.equal(a.store.transcript(run.key), undefined);
  const row = await waitFor('its board row', () => a.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === run.key));
  assert.equal(row.state, 'idle');
  let events = daemonJournal(run.runId);
  let items = (await opened(a, run.key)).snapshot();
  assert.equal(a.store.state.runs.get(run.key)?.state, 'idle', 'opened, it still waits');
  assert.equal(a.store.state.runs.get(run.key)?.lastSequence, events.length, 'every sequence folded once');
  assert.equal(items.filter((i) => i.kind === 'tool').length, events.filter((e) => e.type === 'tool_call').length, 'every tool call once');
  await screenshot('reload-phase2-idle-chat.png');
  await vscode.commands.executeCommand('agentSwitchboard.sendMessage', run.key, 'and a short summary notools');
  await waitFor('the chat answered again', () => {
    const now = a.store.state.runs.get(run.key)!;
    return now.state === 'idle' && now.lastSequence > events.length && now.lastSequence === daemonJournal(run.runId).length;
  }, 60000);
  events = daemonJournal(run.runId);
  items = a.store.transcript(run.key)!.snapshot();
  assert.equal(items.filter((i) => i.kind === 'user').length, 2, 'the prompt and the message, once each');
  assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
  const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
  assert.equal(text, events.filter((e) => e.type === 'text').map((e) => String(e.payload)).join(''), 'the text equals the daemon journal');
}

/**
 * A run that finished before the reload comes back from its summary (issue #25 §2): the test opens it as a person
 * would, in the Transcript view, and gets its transcript once the view's request has loaded it.
 */
export async function opened(a: Awaited<ReturnType<typeof api>>, runKey: string) {
  await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
  return waitFor(`the transcript of ${runKey} loaded`, () => a.store.state.runs.get(runKey)?.unloaded === undefined && a.store.transcript(runKey), 60000);
}

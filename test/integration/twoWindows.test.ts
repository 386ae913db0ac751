/**
 * Two editor windows on one machine (issue 25 §1): two extension hosts sharing one profile (so one global storage,
 * where the run journals live) and one AgencyProxy daemon. Window A starts a run of thousands of events (long text,
 * tool calls, an approval); window B, which only watches, is shown it; both reload while it streams (A, then B, then
 * A again), the approval is shown in both and decided in A, and after the run completed both reload once more.
 * What must hold: only A acknowledges (an ack deletes the daemon's events for every client, WIRE.md 1.9), the run's
 * journal holds every sequence once and in order, each window shows "Run completed" once and the daemon's events
 * each once, B learns of A's run by itself, and B shows the approval A decided as decided, its notification gone
 * from B's screen (issue 25 §4).
 *
 * Each window runs this file in each of its lives (a reload starts it again, twoWindowsSupport.ts says which life);
 * a life registers only its own tests, reports them, then reloads (reloadAfterRun.ts). `step`s are what the other
 * window waits for (a failed one tells it to stop waiting); `check`s are verdicts the scenario goes on after.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { readRecordedHistory } from '../fixtures/agencyProxy/runStore';
import { api, screenshot, setConnections, testHooks, ui, waitFor } from './support';
import type { TwoWindows } from './twoWindowsSupport';
import {
  CONNECTION, clientsByWindow, giveUp, introduceToDaemon, journalFile, journalSequences, mark, markPath, reloadAfterThisLife,
  sequenceProblems, twoWindows, waitForMark,
} from './twoWindowsSupport';

type Api = Awaited<ReturnType<typeof api>>;
/** An approval notification, as a toast or in the notification center. */
const APPROVAL_NOTIFICATION = '.notification-toast .notification-list-item, .notifications-center .notification-list-item';
/**
 * A run of thousands of events: at least 2,000 text chunks (40 ms apart), and more until window A is back from its
 * third reload (`until:`, test/fixtures/agencyProxy/scriptedProvider.ts), then 500 tool calls and an approval. So
 * every reload happens while it streams, however slow the machine.
 */
const prompt = (w: TwoWindows): string => `two windows: a long answer long:2000 until:${markPath(w, 'A3-ready')} steps:500 slow`;
interface RunMark {
  readonly runKey: string;
  readonly runId: string;
}

const w = twoWindows();

function step(title: string, body: (w: TwoWindows) => Promise<void>): void {
  test(title, async () => {
    try {
      await body(w!);
    } catch (error) {
      giveUp(w!, error, title);
      throw error;
    }
  });
}
const check = (title: string, body: (w: TwoWindows) => Promise<void>): void => void test(title, () => body(w!));

const runOf = (a: Api, runKey: string) => a.store.state.runs.get(runKey);
const closingNotices = (a: Api, runKey: string) => (a.store.transcript(runKey)?.snapshot() ?? []).filter((i) => i.kind === 'notice' && i.state === 'completed');
const daemonLatest = (runId: string): number => readRecordedHistory(w!.record, runId).length;

/** The run, back in this window after a reload and caught up with what the daemon had published by then. */
async function runIsBack(run: RunMark): Promise<void> {
  const a = await api();
  await waitFor('the run, restored from storage', () => runOf(a, run.runKey), 60000);
  await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 60000);
  await introduceToDaemon(w!);
  const published = daemonLatest(run.runId);
  await waitFor(`the run caught up with sequence ${published}`, () => (runOf(a, run.runKey)?.lastSequence ?? 0) >= published, 60000);
  await vscode.commands.executeCommand('agentSwitchboard.showTranscript', run.runKey);
}

/** The window reloads while the run streams: it has not reached its approval, let alone its end. */
async function stillStreaming(run: RunMark): Promise<void> {
  const a = await api();
  const info = runOf(a, run.runKey);
  assert.equal(info?.state, 'running', `the run still streams when window ${w!.role} reloads (sequence ${info?.lastSequence})`);
}

/** A window's last life: the finished run is back from storage and the window introduced its new connection. */
async function finishedRunIsBack(run: RunMark): Promise<void> {
  const a = await api();
  await waitFor('the finished run, restored', () => runOf(a, run.runKey)?.state === 'completed', 60000);
  await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 60000);
  await introduceToDaemon(w!);
  await vscode.commands.executeCommand('agentSwitchboard.showTranscript', run.runKey);
}

/** After a reload of the finished run: it reads as the daemon published it, and says "Run completed" once. */
async function readsAsTheDaemonPublished(run: RunMark): Promise<void> {
  const a = await api();
  const items = await waitFor('its transcript', () => a.store.transcript(run.runKey)?.snapshot(), 30000);
  const events = readRecordedHistory(w!.record, run.runId);
  const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
  const expected = events.filter((e) => e.type === 'text').map((e) => String(e.payload)).join('');
  const shown = { runCompleted: closingNotices(a, run.runKey).length, toolCalls: items.filter((i) => i.kind === 'tool').length, textLength: text.length, textEqual: text === expected };
  const published = { runCompleted: 1, toolCalls: events.filter((e) => e.type === 'tool_call').length, textLength: expected.length, textEqual: true };
  assert.deepEqual(shown, published, `window ${w!.role} after its reload: "Run completed" once, every tool call and text chunk once`);
}

/** The run as window A started it (its mark). */
const theRun = (): Promise<RunMark> => waitForMark<RunMark>(w!, 'run');

if (w?.role === 'A') {
  suite('Two windows: window A', function () {
    this.timeout(420000);
    if (w.life === 1) {
      step('A1: starts a long run with an approval on the daemon both windows use', async () => {
        const a = await api();
        // The runner put the connection in the user settings both windows share, before they opened.
        await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 120000);
        await introduceToDaemon(w);
        await vscode.commands.executeCommand('agentSwitchboard.connections.focus');
        // Started once B is connected and looking: B must learn of it, not find it at its first list_runs.
        await waitForMark(w, 'B1-ready');
        const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
          connectionId: CONNECTION, provider: 'claude', model: '', permission: 'edit', prompt: prompt(w), approvals: true, interactive: false,
        })) as string;
        mark(w, 'run', { runKey, runId: runOf(a, runKey)!.runId } satisfies RunMark);
        await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
        await waitFor('the run streams', () => (runOf(a, runKey)?.lastSequence ?? 0) > 100, 60000);
      });
      step('A1: window B follows the run', async () => void (await waitForMark(w, 'B1-follows')));
      check('A1: the run still streams when this window reloads', async () => stillStreaming(await theRun()));
      step('A1: reloads', async () => reloadAfterThisLife(w));
    } else if (w.life === 2) {
      step('A2: after its reload the run is back and followed', async () => {
        await runIsBack(await theRun());
        mark(w, 'A2-ready');
        await waitForMark(w, 'B2-ready');
      });
      check('A2: the run still streams when this window reloads again', async () => stillStreaming(await theRun()));
      step('A2: reloads again', async () => reloadAfterThisLife(w));
    } else if (w.life === 3) {
      step('A3: after its second reload the run is back and followed', async () => {
        await runIsBack(await theRun());
        mark(w, 'A3-ready');
      });
      step('A3: the approval, shown in both windows, is decided here', async () => {
        const run = await theRun();
        const a = await api();
        const hooks = await testHooks();
        const approval = await waitFor('the approval, pending here', () => [...a.store.state.approvals.values()].find((x) => x.runKey === run.runKey && x.live && x.status === 'pending'), 300000);
        await waitForMark(w, 'B-approval-shown', 300000);
        assert.equal(await hooks.approvals.decide(approval.key, 'allow_once', 'transcript'), true);
        mark(w, 'A-decided', { approvalKey: approval.key });
      });
      check('A3: the run completes, "Run completed" once', async () => {
        const run = await theRun();
        const a = await api();
        await waitFor('the run completed', () => runOf(a, run.runKey)?.state === 'completed', 120000);
        await waitFor('its closing line', () => closingNotices(a, run.runKey).length > 0, 30000);
        assert.equal(closingNotices(a, run.runKey).length, 1, '"Run completed" once');
      });
      step('A3: reloads after the run completed', async () => reloadAfterThisLife(w));
    } else {
      step('A4: after a reload the finished run is back', async () => finishedRunIsBack(await theRun()));
      check('A4: the finished run reads as the daemon published it', async () => readsAsTheDaemonPublished(await theRun()));
      step('A4: window B is done', async () => void (await waitForMark(w, 'B3-done', 300000)));
      check('A4: the run\'s journal file holds every sequence once, in order', async () => {
        const run = await theRun();
        const file = await journalFile(run.runId);
        const { ranges, unreadable } = journalSequences(file);
        const last = daemonLatest(run.runId);
        const problems = sequenceProblems(ranges, last);
        const size = fs.statSync(file).size;
        console.log(`two windows: journal ${file}: ${ranges.length} event records, ${size} bytes, sequences 1..${last}: ${JSON.stringify(problems)}, ${unreadable} unreadable lines`);
        assert.deepEqual({ ...problems, unreadable }, { repeated: 0, inversions: 0, missing: 0, unreadable: 0 });
      });
      check('A4: only window A acknowledged the run (the daemon\'s record, per client)', async () => {
        const run = await theRun();
        const clients = clientsByWindow(w);
        const acks = clients.flatMap((c) => c.acks.map((ack) => ({ window: c.window ?? `unknown client ${c.client}`, ...ack })));
        console.log(`two windows: acks by window: ${JSON.stringify(summarize(acks))}; clients: ${clients.map((c) => `${c.client}=${c.window ?? '?'}`).join(', ')}`);
        assert.deepEqual(acks.filter((ack) => !ack.window.startsWith('A')), [], 'no ack_events from any client but window A');
        assert.ok(acks.some((ack) => ack.runId === run.runId), 'window A, which started the run, acknowledged it');
      });
      check('A4: window A still owns the run after its reloads: it acknowledged the run to its end', async () => {
        const run = await theRun();
        const acked = Math.max(0, ...clientsByWindow(w).filter((c) => c.window?.startsWith('A')).flatMap((c) => c.acks.filter((x) => x.runId === run.runId).map((x) => x.through)));
        const last = daemonLatest(run.runId);
        assert.ok(acked >= last, `window A acknowledged through ${acked} of the run's ${last} events (the daemon keeps the rest for ever)`);
      });
      step('A4: shows the run for the screenshot, then leaves the daemon', async () => {
        const run = await theRun();
        await vscode.commands.executeCommand('agentSwitchboard.showTranscript', run.runKey);
        await screenshot('two-windows-a.png');
        await setConnections([]);
      });
    }
  });
}

if (w?.role === 'B') {
  suite('Two windows: window B', function () {
    this.timeout(420000);
    if (w.life === 1) {
      step('B1: connects to the daemon, and shows the run list', async () => {
        const a = await api();
        await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 120000);
        await introduceToDaemon(w);
        await vscode.commands.executeCommand('agentSwitchboard.connections.focus');
        mark(w, 'B1-ready');
      });
      check('B1: learns of the run window A started, by itself', async () => {
        const run = await theRun();
        const a = await api();
        const since = Date.now();
        await waitFor('window A\'s new run, here', () => runOf(a, run.runKey), 60000);
        console.log(`two windows: window B learned of window A's run after ${Date.now() - since} ms`);
      });
      step('B1: follows the run (after a refresh, as focusing the window does, if it had not learned of it)', async () => {
        const run = await theRun();
        const a = await api();
        if (!runOf(a, run.runKey)) {
          await (await testHooks()).connections.driver(CONNECTION)!.refresh!();
        }
        await waitFor('the run, here', () => runOf(a, run.runKey), 30000);
        await vscode.commands.executeCommand('agentSwitchboard.showTranscript', run.runKey);
        const now = daemonLatest(run.runId);
        await waitFor('the run streaming here', () => (runOf(a, run.runKey)?.lastSequence ?? 0) >= now, 60000);
        mark(w, 'B1-follows');
        await waitForMark(w, 'A2-ready');
      });
      check('B1: the run still streams when this window reloads', async () => stillStreaming(await theRun()));
      step('B1: reloads', async () => reloadAfterThisLife(w));
    } else if (w.life === 2) {
      step('B2: after its reload the run is back and followed', async () => {
        await runIsBack(await theRun());
        mark(w, 'B2-ready');
        await waitForMark(w, 'A3-ready');
      });
      step('B2: shows the approval, with its notification', async () => {
        const run = await theRun();
        const a = await api();
        const approval = await waitFor('the approval, pending here', () => [...a.store.state.approvals.values()].find((x) => x.runKey === run.runKey && x.status === 'pending'), 300000);
        const hooks = await testHooks();
        await waitFor('its notification, open here', () => hooks.approvals.notifications.openKeys.includes(approval.key), 60000);
        await vscode.commands.executeCommand('notifications.showList');
        await ui({ action: 'waitFor', selector: APPROVAL_NOTIFICATION, hasText: 'Approval needed in' });
        await screenshot('two-windows-b-approval-notification.png');
        mark(w, 'B-approval-shown');
      });
      check('B2: the approval decided in window A is shown decided here, and its notification leaves', async () => {
        const { approvalKey } = await waitForMark<{ approvalKey: string }>(w, 'A-decided', 300000);
        const a = await api();
        const approval = await waitFor('the approval settled here', () => {
          const x = a.store.state.approvals.get(approvalKey);
          return x && (x.status === 'decided' || x.status === 'expired') && x;
        }, 60000);
        assert.ok(approval.status === 'expired' || approval.decision === 'allow_once', `shown as decided in window A (${approval.status}, ${approval.decision})`);
        // Issue 25 §4: the notification of a request decided in the other window leaves this one's screen.
        await vscode.commands.executeCommand('notifications.showList');
        await waitFor('the notification gone', async () => (await ui<number>({ action: 'count', selector: APPROVAL_NOTIFICATION, hasText: 'Approval needed in' })) === 0, 30000);
        assert.ok(!(await testHooks()).approvals.notifications.openKeys.includes(approval.key), 'closed in the approval center too');
        await screenshot('two-windows-b-notification-gone.png');
        await vscode.commands.executeCommand('notifications.hideList');
      });
      check('B2: the run completes, "Run completed" once', async () => {
        const run = await theRun();
        const a = await api();
        await waitFor('the run completed', () => runOf(a, run.runKey)?.state === 'completed', 120000);
        await waitFor('its closing line', () => closingNotices(a, run.runKey).length > 0, 30000);
        assert.equal(closingNotices(a, run.runKey).length, 1, '"Run completed" once');
      });
      step('B2: reloads after the run completed', async () => reloadAfterThisLife(w));
    } else {
      step('B3: after a reload the finished run is back', async () => finishedRunIsBack(await theRun()));
      check('B3: the finished run reads as the daemon published it', async () => readsAsTheDaemonPublished(await theRun()));
      step('B3: shows the run for the screenshot', async () => {
        await screenshot('two-windows-b.png');
        mark(w, 'B3-done');
      });
    }
  });
}

/** Acks per window and run: how many, and the highest sequence. */
function summarize(acks: readonly { window: string; runId: string; through: number }[]): Record<string, { acks: number; through: number }> {
  const out: Record<string, { acks: number; through: number }> = {};
  for (const ack of acks) {
    const key = `${ack.window} ${ack.runId}`;
    out[key] = { acks: (out[key]?.acks ?? 0) + 1, through: Math.max(out[key]?.through ?? 0, ack.through) };
  }
  return out;
}

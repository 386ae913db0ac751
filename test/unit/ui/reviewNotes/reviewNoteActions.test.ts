/**
 * Send Notes to Agent: one message through the composer's path (RunControl.deliver), the notes cleared only once it
 * was accepted; kept when the run cannot take input (with the reason) or when the daemon refuses the message. Runs
 * ui/reviewNotes/reviewNoteActions.ts under the bench's vscode stub, with a recording stand-in for RunControl.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createVscodeStub } from '../../../../bench/vscodeStub';
import type { ConnectionManager } from '../../../../extension/drivers/connectionManager';
import type { Capability, RunInfo } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import type { RunState } from '../../../../extension/protocol/transcriptTypes';
import type { RunControl } from '../../../../extension/ui/runControl';
import { messageRefusal } from '../../../../extension/ui/runMessaging';
import type * as ActionsModuleShape from '../../../../extension/ui/reviewNotes/reviewNoteActions';
import { ReviewNoteStore } from '../../../../extension/ui/reviewNotes/reviewNoteStore';

type ModuleLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };

const { api: stub } = createVscodeStub({});
const shown: string[] = [];
const window = stub.window as Record<string, unknown>;
window.showWarningMessage = (message: string) => (shown.push(`warning: ${message}`), Promise.resolve(undefined));
window.showErrorMessage = (message: string) => (shown.push(`error: ${message}`), Promise.resolve(undefined));
window.showInformationMessage = (message: string) => (shown.push(`info: ${message}`), Promise.resolve(undefined));
window.setStatusBarMessage = (message: string) => (shown.push(`status: ${message}`), { dispose: () => undefined });
const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
let actionsModule: typeof ActionsModuleShape;
const dir = mkdtempSync(join(tmpdir(), 'sb-note-send-'));

before(async () => {
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  actionsModule = await import('../../../../extension/ui/reviewNotes/reviewNoteActions');
});
after(() => {
  loader._load = originalLoad;
  rmSync(dir, { recursive: true, force: true });
});

/** A run of a connected daemon with `capabilities`, in `state`, with two notes; `deliver` answers as given. */
async function setUp(state: RunState, capabilities: readonly Capability[], deliver: (text: string) => Promise<void> = () => Promise.resolve()) {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'acp' } });
  store.dispatch({ type: 'connectionState', connectionId: 'c', state: { kind: 'connected', since: 1 } });
  store.dispatch({ type: 'connectionInfo', connectionId: 'c', capabilities });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'Tidy up', state } });
  const run = [...store.state.runs.values()][0]! as RunInfo;
  const sent: string[] = [];
  const runs = { deliver: (_: RunInfo, text: string) => deliver(text).then(() => void sent.push(text)) } as unknown as RunControl;
  const notes = new ReviewNoteStore(() => ({ dir, runId: `r-${state}-${Math.random()}` }));
  await notes.add(run.key, { path: 'src/a.ts', startLine: 3, endLine: 4, quote: ['+x', '+y'] }, 'Name these better');
  await notes.add(run.key, { path: 'README.md', startLine: 1, endLine: 1, quote: ['-Title'] }, 'Keep the title');
  const connections = { driver: () => undefined, get: () => undefined } as unknown as ConnectionManager;
  const actions = new actionsModule.ReviewNoteActions(store, connections, runs, notes, { confirmDiscard: () => Promise.resolve(true) });
  shown.length = 0;
  return { store, run, sent, notes, actions };
}

test('accepted: one message with every note (path:line, lines, note), then the notes are cleared', async () => {
  const { run, sent, notes, actions } = await setUp('idle', ['run.inject']);
  assert.deepEqual(await actions.send(run.key), { kind: 'sent', count: 2 });
  assert.equal(sent.length, 1, 'one message');
  assert.match(sent[0]!, /^2 review notes on your changes:\n\nREADME\.md:1\n```diff\n-Title\n```\nKeep the title\n\nsrc\/a\.ts:3-4\n```diff\n\+x\n\+y\n```\nName these better$/);
  assert.deepEqual(await notes.notes(run.key), []);
  assert.deepEqual(shown, ['status: $(comment) Sent 2 notes to "Tidy up"']);
});

test('while a turn runs on a daemon that queues, the send is queued (the composer\u2019s path) and says so', async () => {
  const { run, sent, actions } = await setUp('running', ['run.queue']);
  assert.equal((await actions.send(run.key)).kind, 'sent');
  assert.equal(sent.length, 1);
  assert.deepEqual(shown, ['status: $(comment) Queued 2 notes for "Tidy up"']);
});

test('a finished run cannot take the notes: refused with the reason, the notes are kept, nothing is sent', async () => {
  const { run, sent, notes, actions } = await setUp('completed', ['run.inject']);
  assert.deepEqual(await actions.send(run.key), { kind: 'refused', reason: 'it has ended (completed)' });
  assert.deepEqual(sent, []);
  assert.equal((await notes.notes(run.key)).length, 2);
  assert.deepEqual(shown, ['warning: The notes were not sent to "Tidy up": it has ended (completed). They are kept.']);
});

test('the daemon refuses the message: the notes are kept and the error says why', async () => {
  const { run, notes, actions } = await setUp('idle', ['run.inject'], () => Promise.reject(new Error('the session is busy')));
  assert.deepEqual(await actions.send(run.key), { kind: 'failed', reason: 'the session is busy' });
  assert.equal((await notes.notes(run.key)).length, 2);
  assert.deepEqual(shown, ['error: The notes were not sent to "Tidy up": the session is busy. They are kept.']);
});

test('Discard Notes drops them once confirmed; nothing to send says so', async () => {
  const { run, notes, actions } = await setUp('idle', ['run.inject']);
  assert.equal(await actions.discard(run.key), true);
  assert.deepEqual(await notes.notes(run.key), []);
  assert.deepEqual(await actions.send(run.key), { kind: 'none' });
});

test('why a run takes no message, in words', () => {
  const run = (state: RunState, more: Partial<RunInfo> = {}) => ({ state, ...more }) as RunInfo;
  assert.equal(messageRefusal(run('idle'), ['run.inject'], true), undefined);
  assert.equal(messageRefusal(run('idle'), ['run.inject'], false), 'its daemon is not connected');
  assert.equal(messageRefusal(run('failed'), ['run.inject'], true), 'it has ended (failed)');
  assert.equal(messageRefusal(run('idle', { parentRunId: 'p' }), ['run.inject'], true), 'it is a subagent: it takes its instructions from its parent session');
  assert.equal(messageRefusal(run('stopped'), ['run.inject'], true), 'it is stopped');
  assert.equal(messageRefusal(run('running'), [], true), 'its daemon does not take messages into a running run');
});

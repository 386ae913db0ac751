/**
 * Run history in a real VS Code (issue #25 §2), with the reference AgencyProxy daemon: *Remove Run* asks first (its
 * question answered through the test host's prompts, ui/userPrompts.ts), keeps everything when the answer is no, and
 * with yes deletes every file of the run from the extension's global storage and its row from the board; *Clear
 * Finished Runs…* does the same for every finished run at once. The files are listed on disk, not asked of the
 * extension. *Search Run History…*: with `history.keepRuns` at 1, a reconnect archives the older finished runs (on
 * disk, not in the model); the palette command lists them in the real quick pick, typing filters them, and picking
 * one brings it back and opens it, its transcript read from its journal.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { safeFileName } from '../../extension/storage/runJournal';
import type { RemovalQuestion } from '../../extension/ui/commands/removalPrompt';
import { api, connectAgencyProxyFixture, screenshot, setConnections, SIDEBAR_WEBVIEW, testHooks, ui, waitFor } from './support';

const QUICK_PICK_ROW = '.quick-input-widget .monaco-list-row';

const NAME = 'History daemon';
const CONNECTION = `agency-proxy:${NAME}`;

async function finishedRun(prompt: string): Promise<string> {
  const runKey = await vscode.commands.executeCommand<string>('agentSwitchboard.newRun', { connectionId: CONNECTION, provider: 'claude', model: '', permission: 'edit', prompt, interactive: false });
  assert.equal(typeof runKey, 'string', 'the command returns the new run');
  const a = await api();
  await waitFor(`${prompt} completed`, () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
  return runKey;
}

suite('Run history', () => {
  let daemon: ChildProcess | undefined;
  let socketPath = '';
  const asked: RemovalQuestion[] = [];
  let answer = false;

  suiteSetup(async () => {
    ({ daemon, socketPath } = await connectAgencyProxyFixture(NAME, 'sb-history-'));
    (await testHooks()).setRemovalConfirmation(async (question) => {
      asked.push(question);
      return answer;
    });
  });

  suiteTeardown(async () => {
    (await testHooks()).setRemovalConfirmation(undefined);
    await vscode.workspace.getConfiguration('agentSwitchboard').update('history.keepRuns', undefined, vscode.ConfigurationTarget.Global);
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('Remove Run and Clear Finished Runs… delete the runs\' files from the global storage, after asking', async () => {
    const a = await api();
    const hooks = await testHooks();
    const dir = path.join(hooks.storageDir, 'transcripts', safeFileName(CONNECTION));
    const runKeys = [await finishedRun('Read my profile authfetch noedit'), await finishedRun('Read my profile again authfetch noedit'), await finishedRun('And once more authfetch noedit')];
    const runIdOf = (runKey: string): string => a.store.state.runs.get(runKey)?.runId ?? runKey.slice(runKey.lastIndexOf(':') + 1);
    const runIds = runKeys.map(runIdOf);
    const filesOf = (runId: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith(`${safeFileName(runId)}.`)) : []);
    const indexed = (): string[] => (JSON.parse(fs.readFileSync(path.join(dir, 'runs.json'), 'utf8')) as { runId: string }[]).map((entry) => entry.runId);
    await waitFor('every run journaled and indexed', () => runIds.every((runId) => filesOf(runId).some((name) => name.endsWith('.jsonl'))) && runIds.every((runId) => indexed().includes(runId)));
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKeys[0]);
    await screenshot('history-before-remove.png');

    answer = false;
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.removeRun', runKeys[0]), false, 'answered no: nothing removed');
    assert.match(asked.at(-1)?.message ?? '', /Remove the run/);
    assert.ok(filesOf(runIds[0]!).length > 0 && a.store.state.runs.has(runKeys[0]!), 'the run and its files are kept');

    answer = true;
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.removeRun', runKeys[0]), true);
    assert.deepEqual(filesOf(runIds[0]!), [], 'no file of the removed run is left in the global storage');
    assert.ok(!indexed().includes(runIds[0]!), 'nor its index entry');
    assert.equal(a.store.state.runs.has(runKeys[0]!), false);
    await waitFor('its board row gone', () => !a.board.provider.snapshot().flatMap((g) => g.rows).some((r) => r.runKey === runKeys[0]));
    assert.ok(filesOf(runIds[1]!).length > 0, 'the other runs are kept');
    await screenshot('history-after-remove.png');

    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.clearFinishedRuns'), 2);
    assert.match(asked.at(-1)?.message ?? '', /Remove 2 finished runs/);
    for (const runId of runIds) {
      assert.deepEqual(filesOf(runId), [], `no file of ${runId} is left`);
    }
    assert.deepEqual(indexed().filter((runId) => runIds.includes(runId)), []);
    assert.equal([...a.store.state.runs.values()].filter((run) => run.connectionId === CONNECTION).length, 0);
    await screenshot('history-after-clear.png');
  });

  test('Search Run History… finds the archived runs; picking one opens it with its transcript', async () => {
    const a = await api();
    const hooks = await testHooks();
    const dir = path.join(hooks.storageDir, 'transcripts', safeFileName(CONNECTION));
    const prompts = ['Archive alpha authfetch noedit', 'Archive bravo authfetch noedit', 'Keep charlie authfetch noedit'];
    const runKeys: string[] = [];
    for (const prompt of prompts) {
      runKeys.push(await finishedRun(prompt)); // one after the other: the last is the most recently active
    }
    const titles = runKeys.map((runKey) => a.store.state.runs.get(runKey)!.title);
    const runIds = runKeys.map((runKey) => a.store.state.runs.get(runKey)!.runId);
    const summarized = (): string[] => (JSON.parse(fs.readFileSync(path.join(dir, 'runs.json'), 'utf8')) as { runId: string; state: string; summary?: unknown }[])
      .filter((entry) => entry.state === 'completed' && entry.summary !== undefined).map((entry) => entry.runId);
    await waitFor('every run indexed as finished, with its summary', () => runIds.every((runId) => summarized().includes(runId)));

    // One finished run per connection on the board: the reconnect archives the two older ones.
    await vscode.workspace.getConfiguration('agentSwitchboard').update('history.keepRuns', 1, vscode.ConfigurationTarget.Global);
    await setConnections([]);
    await waitFor('the connection gone', () => !a.store.state.connections.has(CONNECTION));
    await setConnections([{ name: NAME, protocol: 'agency-proxy', socketPath }]);
    await waitFor('connected again', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
    await waitFor('the newest run back on the board', () => a.store.state.runs.has(runKeys[2]!));
    assert.ok(!a.store.state.runs.has(runKeys[0]!) && !a.store.state.runs.has(runKeys[1]!), 'the older runs are archived: not in the model');
    assert.ok(runIds.every((runId) => fs.readdirSync(dir).some((name) => name.startsWith(`${safeFileName(runId)}.`) && name.endsWith('.jsonl'))), 'their journals are kept');

    const picked = vscode.commands.executeCommand<string | undefined>('agentSwitchboard.searchRunHistory');
    await ui({ action: 'waitFor', selector: QUICK_PICK_ROW, hasText: titles[0]! });
    await ui({ action: 'waitFor', selector: QUICK_PICK_ROW, hasText: titles[1]! });
    assert.equal(await ui<number>({ action: 'count', selector: QUICK_PICK_ROW, hasText: titles[2]! }), 0, 'the run on the board is not archived');
    // The search: typing filters the archived runs.
    await ui({ action: 'fill', selector: '.quick-input-widget .quick-input-box input', value: 'bravo' });
    await waitFor('only the matching run listed', async () => (await ui<number>({ action: 'count', selector: QUICK_PICK_ROW, hasText: titles[0]! })) === 0);
    await screenshot('history-search.png');
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: titles[1]! });
    assert.equal(await picked, runKeys[1], 'the command resolves with the run it opened');

    assert.ok(a.store.state.runs.has(runKeys[1]!), 'back in the model');
    await waitFor('its transcript read from its journal', () => (a.store.transcript(runKeys[1]!)?.length ?? 0) > 0 && a.store.state.runs.get(runKeys[1]!)?.unloaded === undefined);
    await waitFor('its prompt shown in the Transcript view', async () =>
      (await ui<string[]>({ action: 'text', selector: '[data-kind="user"]', webview: true, frame: SIDEBAR_WEBVIEW }).catch((): string[] => [])).some((text) => text.includes('Archive bravo')));
    assert.ok(!a.store.state.runs.has(runKeys[0]!), 'the other archived run stays out');
    await screenshot('history-search-opened.png');
  });
});

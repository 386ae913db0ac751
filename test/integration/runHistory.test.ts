/**
 * Run history in a real VS Code (issue #25 §2), with the reference AgencyProxy daemon: *Remove Run* asks first (its
 * question answered through the test host's prompts, ui/userPrompts.ts), keeps everything when the answer is no, and
 * with yes deletes every file of the run from the extension's global storage and its row from the board; *Clear
 * Finished Runs…* does the same for every finished run at once. The files are listed on disk, not asked of the
 * extension.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { safeFileName } from '../../extension/storage/runJournal';
import type { RemovalQuestion } from '../../extension/ui/commands/removalPrompt';
import { api, connectAgencyProxyFixture, screenshot, setConnections, testHooks, waitFor } from './support';

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
  const asked: RemovalQuestion[] = [];
  let answer = false;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-history-'));
    (await testHooks()).setRemovalConfirmation(async (question) => {
      asked.push(question);
      return answer;
    });
  });

  suiteTeardown(async () => {
    (await testHooks()).setRemovalConfirmation(undefined);
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
});

/**
 * A dead ACP agent comes back by itself, in a real VS Code: the reference agent's process is killed (SIGKILL, from
 * outside, mid-turn), the driver starts it again and resumes the session (`session/resume`), and the transcript goes
 * on — the turn that was streaming ends once as interrupted, a follow-up is answered in the same session, and no item
 * is there twice. The webview shows the restart notice and the answer after it (screenshot).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { processGroupMembers } from '../fixtures/acp/processTree';
import { api, screenshot, waitFor } from './support';
import {
  agentProcess,
  answerText,
  connectReferenceAgent,
  endedTurns,
  fixturePath,
  groupGone,
  itemsOf,
  removeConnections,
  setViewExpanded,
  traceOf,
  webviewTexts,
} from './acpSupport';

const NAME = 'ACP resilience';
const CONNECTION = `acp:${NAME}`;

suite('ACP resilience', () => {
  let stateDir: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-res-'));
    await connectReferenceAgent(NAME, stateDir, ['--slow-chunk-ms', '60']);
    await setViewExpanded('Connections', false);
  });

  suiteTeardown(async () => {
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('the agent killed mid-turn restarts by itself; the session is resumed and the transcript goes on, nothing doubled', async function () {
    this.timeout(120000);
    const a = await api();
    const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt: 'hello before the kill' })) as string;
    await waitFor('the first turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    const group = await agentProcess(fixturePath('acp'));

    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'long:30 stream for a while');
    await waitFor('streaming', () => answerText(a, runKey).includes('chunk 3 '), 30000);
    // The agent itself, not its supervisor: it dies as a crash would, its supervisor reports the exit.
    for (const pid of processGroupMembers(group).filter((p) => p !== group)) {
      process.kill(pid, 'SIGKILL');
    }
    await groupGone(group);
    await waitFor('the session resumed after the restart', () => itemsOf(a, runKey).some((i) => i.kind === 'notice' && /restarted; this session was resumed/.test(i.text)), 30000);
    assert.equal(a.store.state.connections.get(CONNECTION)?.state.kind, 'connected');
    const again = await agentProcess(fixturePath('acp'));
    assert.notEqual(again, group, 'a new agent process');
    assert.equal(a.store.state.runs.get(runKey)?.state, 'interrupted', 'the streaming turn was interrupted');
    assert.equal(endedTurns(a, runKey, 'failed').length, 1, 'it ended once');

    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'after the restart');
    await waitFor('the follow-up answered', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    const items = itemsOf(a, runKey);
    assert.deepEqual(items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])), ['hello before the kill', 'long:30 stream for a while', 'after the restart'], 'each prompt once');
    const answer = answerText(a, runKey);
    assert.equal(answer.split('You said: *hello before the kill*').length - 1, 1, 'the first answer once');
    assert.equal(answer.split('chunk 1 ').length - 1, 1, 'the interrupted stream once');
    assert.match(answer, /You said: \*after the restart\*/);
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
    const out = (await traceOf(NAME)).filter((l) => l.dir === 'out').map((l) => l.frame.method);
    assert.equal(out.filter((m) => m === 'initialize').length, 2, 'started twice in all');
    assert.equal(out.filter((m) => m === 'session/resume').length, 1);

    await waitFor('the notice and the follow-up in the webview', async () => {
      const texts = [...(await webviewTexts('[data-kind="notice"]')), ...(await webviewTexts('[data-kind="text"]'))];
      return texts.some((t) => t.includes('this session was resumed')) && texts.some((t) => t.includes('You said: after the restart'));
    });
    // In an editor tab, tall enough for the whole story: the interrupted stream, the notices, the answer after it.
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey), runKey);
    await waitFor('the tab, ready', () => a.transcriptTabs.list().find((p) => p.runKey === runKey && p.ready));
    await screenshot('acp-resilience-restarted.png');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

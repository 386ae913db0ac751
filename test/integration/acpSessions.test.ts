/**
 * The agent's sessions in a real VS Code, with the reference agent (which advertises session list, resume, close
 * and fork as claude-agent-acp and codex-acp do): a session another client process started on the same agent store
 * is listed by *Open Agent Session…* from the palette (the real quick pick, with the agent's title) and opens as a
 * run with its history; *Fork Run* from the transcript header makes a second run beside it; a new run's title
 * follows the agent's `session_info_update`; *Close Session* sends `session/close`; the Runs board's title menu
 * offers *Open Agent Session…* too.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { client, methods } from '@agentclientprotocol/sdk';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { spawnAgentProcess } from '../fixtures/acp/agentProcess';
import { api, screenshot, ui, waitFor, workspaceDir } from './support';
import { connectReferenceAgent, endedTurns, fixturePath, itemsOf, removeConnections, setViewExpanded, traceOf, webviewTexts } from './acpSupport';

const NAME = 'ACP sessions';
const CONNECTION = `acp:${NAME}`;
const ELSEWHERE = 'started by another client of this agent';
/** The reference agent names a session after the first six words of its first prompt, capitalized. */
const ELSEWHERE_TITLE = 'Started by another client of this';
const QUICK_PICK_ROW = '.quick-input-widget .monaco-list-row';

/** Another client process on the same agent store: it starts a session there, runs one turn and goes away. */
async function sessionStartedElsewhere(stateDir: string): Promise<string> {
  const agent = spawnAgentProcess({ command: process.execPath, args: [fixturePath('acp'), '--state-dir', stateDir], cwd: workspaceDir(), env: process.env });
  try {
    const connection = client({ name: 'another client' })
      .onNotification(methods.client.session.update, () => undefined)
      .connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd: workspaceDir(), mcpServers: [] });
    const answer = await connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: ELSEWHERE }] });
    assert.equal(answer.stopReason, 'end_turn');
    return sessionId;
  } finally {
    assert.deepEqual(await agent.stop(), [], 'the other client\'s agent is gone');
  }
}

const outFrames = async (method: string): Promise<{ sessionId?: string }[]> =>
  (await traceOf(NAME)).flatMap((l) => (l.dir === 'out' && l.frame.method === method ? [(l.frame.params ?? {}) as { sessionId?: string }] : []));

suite('ACP sessions', () => {
  let stateDir: string;
  let opened: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-sessions-'));
    await connectReferenceAgent(NAME, stateDir);
  });

  suiteTeardown(async () => {
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a session another client started is listed by Open Agent Session… and opens with its history', async () => {
    const a = await api();
    const sessionId = await sessionStartedElsewhere(stateDir);
    const command = vscode.commands.executeCommand('agentSwitchboard.acp.openSession', CONNECTION);
    await ui({ action: 'waitFor', selector: QUICK_PICK_ROW, hasText: ELSEWHERE_TITLE });
    await screenshot('acp-open-session-pick.png');
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: ELSEWHERE_TITLE });
    opened = (await command) as string;
    assert.equal(opened, `${CONNECTION}::${sessionId}`, 'the command resolves with the opened run');
    const run = a.store.state.runs.get(opened);
    assert.equal(run?.title, ELSEWHERE_TITLE);
    assert.equal(run?.state, 'idle');
    assert.deepEqual(itemsOf(a, opened).flatMap((i) => (i.kind === 'user' ? [i.text] : [])), [ELSEWHERE], 'the history the agent replayed');
    assert.deepEqual((await outFrames('session/load')).map((p) => p.sessionId), [sessionId]);

    await setViewExpanded('Connections', false);
    await waitFor('the replayed answer in the webview', async () => (await webviewTexts('[data-kind="text"]')).some((t) => t.includes(`You said: ${ELSEWHERE}`)));
    await waitFor('the notice in the webview', async () => (await webviewTexts('[data-kind="notice"]')).some((t) => t.includes('history above is what the agent replayed')));
    await screenshot('acp-open-session-run.png');

    // It goes on from there: the agent counts both prompts of the session (usage 1000 × prompts + …).
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', opened, 'and now from the editor');
    await waitFor('a turn in the opened session', () => endedTurns(a, opened, 'completed').length === 1, 30000);
    const used = a.store.state.runs.get(opened)?.usage?.used ?? 0;
    assert.ok(used >= 2000, `the agent continued that conversation (used ${used})`);
  });

  test('Fork Run from the transcript header makes a second run beside the original', async () => {
    const a = await api();
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', opened);
    const runsBefore = [...a.store.state.runs.keys()].filter((k) => k.startsWith(`${CONNECTION}::`));
    await ui({ action: 'click', selector: '.header-action.daemon-action[title="Fork Run"]', webview: true });
    const fork = await waitFor('the fork', () => [...a.store.state.runs.keys()].find((k) => k.startsWith(`${CONNECTION}::`) && !runsBefore.includes(k)), 15000);
    assert.equal(a.store.state.runs.get(fork)?.title, `${ELSEWHERE_TITLE} (fork)`);
    assert.deepEqual((await outFrames('session/fork')).map((p) => p.sessionId), [opened.split('::')[1]]);
    await waitFor('the fork shown', async () => (await webviewTexts('[data-kind="notice"]')).some((t) => t.includes(`Forked from "${ELSEWHERE_TITLE}"`)));
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', fork, 'which prompts came before');
    await waitFor('a turn in the fork', () => endedTurns(a, fork, 'completed').length === 1, 30000);
    assert.equal(endedTurns(a, opened, 'completed').length, 1, 'the original is untouched');
    await setViewExpanded('Connections', true);
    await ui({ action: 'waitFor', selector: '.monaco-list-row', hasText: `${ELSEWHERE_TITLE} (fork)` });
    await screenshot('acp-fork.png');
  });

  test("a new run's title follows the agent's session_info_update; Close Session sends session/close", async () => {
    const a = await api();
    // A streamed answer of a second (long:20): the agent names the session after it, not before this test looks.
    const prompt = 'please give this new session a short name long:20';
    const key = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt })) as string;
    assert.equal(a.store.state.runs.get(key)?.title, prompt, 'until the agent names it: the prompt');
    await waitFor("the agent's title", () => a.store.state.runs.get(key)?.title === 'Please give this new session a', 15000);
    await ui({ action: 'waitFor', selector: '.monaco-list-row', hasText: 'Please give this new session a' });
    await waitFor('idle', () => a.store.state.runs.get(key)?.state === 'idle', 30000);
    await screenshot('acp-session-title.png');

    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.acp.closeSession', key, { confirmed: true }), true);
    assert.deepEqual((await outFrames('session/close')).map((p) => p.sessionId), [key.split('::')[1]]);
    assert.equal(a.store.state.runs.get(key)?.state, 'completed');
  });

  test("the Runs board offers Open Agent Session… in its title bar's menu", async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const header = '.pane-header:has-text("Runs")';
    await ui({ action: 'hover', selector: header });
    await ui({ action: 'click', selector: `${header} .action-label[aria-label^="More Actions"]` });
    await ui({ action: 'waitFor', selector: '.monaco-menu .action-label', hasText: 'Open Agent Session…' });
    await screenshot('acp-board-open-session.png');
    await ui({ action: 'press', selector: '.monaco-menu', value: 'Escape' });
  });
});

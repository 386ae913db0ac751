/**
 * ACP terminals in a real VS Code with the reference agent: a command the agent runs through the editor
 * (`terminal/create` …) is shown in an editor terminal named after the run and the command, with its output and how
 * it exited; the transcript's tool row links to it ("Show terminal" reveals it); Stop in the composer kills a running
 * one (the agent here does not kill it itself: only the editor does), and Disconnect kills one too. No command's
 * process is left behind.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { AgentTerminalInfo } from '../../extension/ui/agentTerminals/agentTerminals';
import { api, screenshot, ui, waitFor } from './support';
import { agentProcess, answerText, connectReferenceAgent, endedTurns, groupGone, itemsOf, removeConnections, setViewExpanded, traceOf } from './acpSupport';

const NAME = 'ACP terminals';
const CONNECTION = `acp:${NAME}`;
/** In the command line of the slow command's supervisor (test/fixtures/acp/terminalTool.ts). */
const SLOW_COMMAND = 'while :; do echo';

suite('ACP terminals', () => {
  let stateDir: string;
  let runKey: string;

  const terminalsOf = async (key: string): Promise<AgentTerminalInfo[]> => (await api()).agentTerminals.list().filter((t) => t.runKey === key);

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-term-'));
    assert.equal(vscode.workspace.isTrusted, true, 'commands run only in a trusted workspace');
    await connectReferenceAgent(NAME, stateDir);
    await setViewExpanded('Connections', false);
  });

  suiteTeardown(async () => {
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    for (const terminal of vscode.window.terminals) {
      terminal.dispose();
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('the command runs in an editor terminal named after the run, with its output and exit; the tool row reveals it', async () => {
    const a = await api();
    const key = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt: 'Build it: terminal:120' });
    runKey = key as string;
    await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    const [shown] = await terminalsOf(runKey);
    assert.ok(shown, 'an agent terminal for the run');
    assert.match(shown.name, /^Build it: terminal:120 · sh -c /, 'named after the run and the command');
    assert.match(shown.text, /\$ sh -c /, 'the command line first');
    assert.match(shown.text, /^line 1 of the reference command$/m);
    assert.match(shown.text, /^line 120 of the reference command$/m, 'all of its output, live');
    assert.match(shown.text, /^failing on purpose$/m, 'stderr too');
    assert.match(shown.text, /Exited with code 3\s*$/, 'ends with how it exited');
    assert.equal(shown.state, 'released', 'the agent released it; the terminal stays, showing it');
    assert.ok(vscode.window.terminals.some((t) => t.name === shown.name), 'a VS Code terminal');
    assert.match(answerText(a, runKey), /The command exited with code 3\. Its last line: `failing on purpose`/, 'the agent read the output');
    const tool = itemsOf(a, runKey).find((i) => i.kind === 'tool');
    assert.deepEqual(tool?.kind === 'tool' && tool.terminals, [shown.terminalId], 'the tool row links to it');

    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await ui({ action: 'click', selector: '.tool-terminal-link', webview: true });
    await waitFor('the terminal revealed', () => vscode.window.activeTerminal?.name === shown.name);
    await ui({ action: 'waitFor', selector: '.part.panel .xterm-screen' });
    await screenshot('acp-terminal.png');
  });

  test('Stop in the composer kills a running command (the agent does not); nothing of it is left', async () => {
    const a = await api();
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'terminal:stuck');
    const running = await waitFor('ticking', async () => (await terminalsOf(runKey)).find((t) => t.state === 'running' && t.text.includes('tick 3')));
    const pid = await agentProcess(SLOW_COMMAND);
    await ui({ action: 'click', selector: '#composer-stop', webview: true });
    await waitFor('the turn cancelled', () => endedTurns(a, runKey, 'cancelled').length === 1, 15000);
    await groupGone(pid);
    const stopped = await waitFor('stopped', async () => (await terminalsOf(runKey)).find((t) => t.terminalId === running.terminalId && t.state !== 'running'));
    assert.match(stopped.text, /Stopped \(SIG(TERM|KILL)\)\s*$/);
    const kills = (await traceOf(NAME)).filter((l) => l.dir === 'in' && l.frame.method === 'terminal/kill');
    assert.equal(kills.length, 0, 'the agent asked for no kill: Stop did it');
    await vscode.window.terminals.find((t) => t.name === stopped.name)?.show(false);
    await screenshot('acp-terminal-stopped.png');
  });

  test('Disconnect kills the commands of the agent', async () => {
    const a = await api();
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'terminal:stuck again');
    const running = await waitFor('ticking', async () => (await terminalsOf(runKey)).find((t) => t.state === 'running' && t.text.includes('tick 2')));
    const pid = await agentProcess(SLOW_COMMAND);
    await vscode.commands.executeCommand('agentSwitchboard.disconnect', CONNECTION);
    await waitFor('disconnected', () => a.store.state.connections.get(CONNECTION)?.state.kind !== 'connected');
    await groupGone(pid);
    const ended = await waitFor('released', async () => (await terminalsOf(runKey)).find((t) => t.terminalId === running.terminalId && t.state === 'released'));
    assert.match(ended.text, /Stopped \(SIG(TERM|KILL)\)\s*$/);
  });
});

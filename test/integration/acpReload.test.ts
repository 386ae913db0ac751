/**
 * A window reload with an ACP session (the reference agent). Phase 1 (one VS Code window) runs a turn and the window
 * goes away — and with it the agent, a child of the extension host. Phase 2 (a new window on the same profile) must
 * show the transcript restored from the journal, leave no process of the first agent behind, and continue the
 * session when a follow-up is sent: `session/resume` first (the agent advertises it, as claude-agent-acp and
 * codex-acp do: nothing is replayed), then the prompt, with no item duplicated. The session was started with a model
 * and a mode picked in New Run's quick picks (from what the agent advertised); a new agent process answers its
 * default model, so phase 2 must send the person's again before the follow-up; the mode is still in force there (the
 * follow-up's edit is refused by Plan mode, nobody is asked, the file stays). The run keeps the title the agent
 * gave the session (session_info_update). The runner (test/harness/runIntegration.mjs) launches the two phases and keeps the agent's
 * state directory between them (SWITCHBOARD_RELOAD_ACP_STATE); the reference agent persists sessions there.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { isAlive } from '../fixtures/acp/processTree';
import { api, screenshot, ui, waitFor } from './support';
import { addConnections, agentProcess, answerText, commandLine, endedTurns, fixturePath, itemsOf, removeConnections, setViewExpanded, traceOf, webviewTexts } from './acpSupport';

const NAME = 'ACP reload';
const CONNECTION = `acp:${NAME}`;
const FIRST = 'remember the word kiwi';
/** The reference agent's name for the session (its first prompt's words, capitalized). */
const TITLE = 'Remember the word kiwi';
/** With `edit`: the reference agent tries to append to README.md, which its Plan mode refuses without asking. */
const FOLLOW_UP = 'which word did I ask you to remember, then edit the readme';

interface Phase1 {
  readonly runKey: string;
  readonly agentPid: number;
  readonly items: number;
  readonly answer: string;
}

function stateDir(): string {
  const dir = process.env.SWITCHBOARD_RELOAD_ACP_STATE;
  if (!dir) {
    // Only the runner's reload launches run these suites (its first launch excludes them): missing, the test fails.
    throw new Error('SWITCHBOARD_RELOAD_ACP_STATE is set by the integration runner for the reload suites');
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const phase1File = (): string => path.join(stateDir(), 'phase1.json');

suite('Reload phase 1: ACP session', () => {
  test('a turn runs, then the window goes away', async function () {
    this.timeout(90000);
    const a = await api();
    await addConnections([{ name: NAME, protocol: 'acp', command: process.execPath, args: [fixturePath('acp'), '--state-dir', path.join(stateDir(), 'agent'), '--load-defaults'] }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    // New Run asks the agent what it offers, then the model and the mode from those lists.
    const started = vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, prompt: FIRST });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Reference large' });
    await screenshot('acp-new-run-model.png');
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Reference large' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    const runKey = (await started) as string;
    assert.equal(typeof runKey, 'string');
    await waitFor('the chosen model and mode shown', () => a.store.state.runs.get(runKey)?.model === 'ref-large · Plan');
    await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    await waitFor("the agent's title", () => a.store.state.runs.get(runKey)?.title === TITLE);
    // The turn's file checkpoint marker follows its end (the snapshot is taken after it): part of what comes back.
    await waitFor("the turn's file checkpoint marker", () => itemsOf(a, runKey).some((i) => i.kind === 'checkpoint' && i.turn === 1), 30000);
    await a.flushTrace();
    const phase1: Phase1 = { runKey, agentPid: await agentProcess(fixturePath('acp')), items: itemsOf(a, runKey).length, answer: answerText(a, runKey) };
    assert.match(phase1.answer, /You said: \*remember the word kiwi\*/);
    fs.writeFileSync(phase1File(), JSON.stringify(phase1));
    await setViewExpanded('Connections', false);
    await screenshot('acp-reload-phase1.png');
    await setViewExpanded('Connections', true);
  });
});

suite('Reload phase 2: ACP session', () => {
  test('the transcript is restored; a follow-up continues the session through session/resume, nothing doubled', async function () {
    this.timeout(90000);
    const a = await api();
    const phase1 = JSON.parse(fs.readFileSync(phase1File(), 'utf8')) as Phase1;
    const run = await waitFor('the session, restored from storage', () => a.store.state.runs.get(phase1.runKey));
    assert.equal(run.title, TITLE);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    assert.equal(a.store.state.runs.get(phase1.runKey)?.state, 'idle');
    assert.match(a.store.state.runs.get(phase1.runKey)?.stateDetail ?? '', /^Restored/);
    assert.equal(itemsOf(a, phase1.runKey).length, phase1.items, 'every item of phase 1 is back, once');
    assert.equal(answerText(a, phase1.runKey), phase1.answer);
    await waitFor('the local change set shown again', () => a.store.state.changeSets.get(phase1.runKey)?.status === 'ready');
    const orphan = isAlive(phase1.agentPid) && commandLine(phase1.agentPid).includes(fixturePath('acp'));
    assert.equal(orphan, false, 'the first window’s agent did not outlive it');
    const agentPid = await agentProcess(fixturePath('acp'));
    assert.notEqual(agentPid, phase1.agentPid);

    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', phase1.runKey);
    await setViewExpanded('Connections', false);
    await waitFor('the restored answer in the webview', async () => (await webviewTexts('[data-kind="text"]')).some((t) => t.includes('You said: remember the word kiwi')));
    await screenshot('acp-reload-phase2-restored.png');

    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', phase1.runKey, FOLLOW_UP);
    await waitFor('the follow-up turn', () => endedTurns(a, phase1.runKey, 'completed').length === 2, 30000);
    const out = (await traceOf(NAME)).filter((l) => l.dir === 'out');
    const sessionId = phase1.runKey.split('::')[1];
    const load = out.findIndex((l) => l.frame.method === 'session/resume' && (l.frame.params as { sessionId?: string }).sessionId === sessionId);
    const prompts = out.flatMap((l, i) => (l.frame.method === 'session/prompt' ? [i] : []));
    assert.ok(load >= 0, 'session/resume of the restored session');
    assert.ok(!out.some((l) => l.frame.method === 'session/load'), 'resume is preferred: no load');
    const again = out.slice(load + 1, prompts[1]).map((l) => [l.frame.method, (l.frame.params as { modeId?: string; value?: string }).modeId ?? (l.frame.params as { value?: string }).value]);
    // The agent resumed it in the mode it keeps with the session; the model is per process, so it goes again.
    assert.deepEqual(again, [['session/set_config_option', 'ref-large']], 'the model sent again after the resume');
    assert.equal(a.store.state.runs.get(phase1.runKey)?.model, 'ref-large · Plan', 'the header keeps them');
    assert.ok(prompts.length === 2 && prompts[1]! > load, 'the follow-up was sent after the resume (one prompt per window)');
    const items = itemsOf(a, phase1.runKey);
    assert.deepEqual(items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])), [FIRST, FOLLOW_UP], 'each prompt once (nothing replayed)');
    // The mode picked in New Run still holds after the reload: Plan edits nothing, and asks nobody.
    const edit = items.find((i) => i.kind === 'tool');
    assert.ok(edit?.kind === 'tool' && edit.status === 'failed', `the edit refused: ${JSON.stringify(edit)}`);
    assert.match(edit.output ?? '', /Plan mode: edits are not applied\./);
    assert.ok(!items.some((i) => i.kind === 'approval'), 'no permission asked');
    const texts = items.filter((i) => i.kind === 'text');
    // The follow-up's answer, then after the refused edit what the agent says of it.
    assert.equal(texts.length, 3, 'one answer per turn, and one line after the edit');
    assert.match(texts[2]?.kind === 'text' ? texts[2].text : '', /I did not edit `README\.md`\./);
    assert.ok(answerText(a, phase1.runKey).startsWith(phase1.answer), 'the first answer is unchanged');
    // The agent counts the prompts of the session it loaded: 2 means it continued the first one (usage 1000 × prompts + …).
    // Usage is the run's, replaced by each report (no transcript row).
    assert.ok(!items.some((i) => i.kind === 'usage'));
    const used = a.store.state.runs.get(phase1.runKey)?.usage?.used ?? 0;
    assert.ok(used >= 2000 && used < 3000, `the resumed session has both prompts (used ${used})`);
    await waitFor('the follow-up in the webview', async () => (await webviewTexts('[data-kind="text"]')).some((t) => t.includes(`You said: ${FOLLOW_UP}`)));
    await screenshot('acp-reload-phase2.png');
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    await waitFor('the agent stopped', () => !isAlive(agentPid), 10000);
  });
});

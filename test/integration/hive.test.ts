/**
 * hyperhive end to end in a real VS Code: the fake hive (out/fixtures/hive.js) serving a seeded hive, its agents in
 * the Connections tree, an operator message sent from the transcript's composer landing in the agent's inbox, an
 * agent restarted from the manager (destructive, so confirmed first), and an agent's logs in a read-only document.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { api, CONNECTIONS_ROWS, screenshot, setConnections, startFixture, ui, waitFor } from './support';

const CONNECTION = 'hive:Hive';
const runKey = (agent: string): string => `${CONNECTION}::${agent}`;

suite('hyperhive', () => {
  let daemon: ChildProcess | undefined;
  let dir: string;

  suiteSetup(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hv-'));
    daemon = startFixture('hive', ['--dir', dir]);
    await waitFor('the manager socket', () => fs.existsSync(path.join(dir, 'manager', 'mcp.sock')) && fs.existsSync(path.join(dir, 'agents', 'ruth', 'mcp.sock')));
    const a = await api();
    await setConnections([{ name: 'Hive', protocol: 'hive', hiveDir: dir }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
    await waitFor('the agents', () => ['manager', 'iris', 'ruth', 'otto'].every((n) => a.store.state.runs.has(runKey(n))));
  });

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the tree lists the hive agents with their states', async () => {
    const a = await api();
    assert.equal(a.store.state.runs.get(runKey('otto'))?.state, 'stopped');
    assert.equal(a.store.state.runs.get(runKey('iris'))?.state, 'running');
    assert.ok(a.store.state.connections.get(CONNECTION)?.capabilities.includes('hive.manager'));
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const rows = await waitFor('the agent rows', async () => {
      const labels = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS }).catch(() => []);
      // The connection's description (hive revision, running count) follows the first status poll.
      return labels.some((l) => l.includes('otto')) && labels.some((l) => l.includes('hyperhive f00dfee')) && labels;
    });
    for (const name of ['Hive', 'manager', 'iris', 'ruth', 'otto']) {
      assert.ok(rows.some((l) => l.includes(name)), `${name} in ${rows.join(' | ')}`);
    }
    assert.ok(rows.some((l) => l.includes('otto') && l.includes('stopped')), rows.join(' | '));
    assert.ok(rows.some((l) => l.includes('hyperhive f00dfee')), 'the connection shows the hive revision');
    await screenshot('hive-tree.png');
  });

  test('an operator message from the composer lands in the agent inbox', async () => {
    const a = await api();
    const body = 'Operator here: please wrap up PR #12 before lunch.';
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey('iris'));
    await waitFor('the inbox in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="message"]', webview: true }).catch(() => []);
      return t.some((x) => x.includes('can you review PR #12?'));
    });
    await ui({ action: 'fill', selector: '#composer-input', value: body, webview: true });
    await ui({ action: 'click', selector: '#composer-send', webview: true });
    await waitFor('the message in the store', () =>
      a.store.transcript(runKey('iris'))?.snapshot().some((i) => i.kind === 'message' && i.from === 'operator' && i.body === body),
    );
    const texts = await waitFor('the message in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="message"]', webview: true }).catch(() => []);
      return t.some((x) => x.includes(body)) && t;
    });
    const mine = texts.find((x) => x.includes(body))!;
    assert.match(mine, /operator/);
    // Sent through the run command as well (the palette path), with arguments instead of the input box.
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey('ruth'), 'And ruth: the release notes, please.');
    await waitFor('ruth got it', () =>
      a.store.transcript(runKey('ruth'))?.snapshot().some((i) => i.kind === 'message' && i.body === 'And ruth: the release notes, please.'),
    );
    await screenshot('hive-inbox.png');
  });

  test('restart a stopped agent from the manager (destructive: confirmed first)', async () => {
    const a = await api();
    assert.equal(a.store.state.runs.get(runKey('otto'))?.state, 'stopped');
    // The workbench refuses modal dialogs under test, so the unconfirmed command must not act at all.
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.restartAgent', { type: 'run', key: runKey('otto') }), false);
    assert.equal(a.store.state.runs.get(runKey('otto'))?.state, 'stopped', 'no confirmation, no restart');
    // Confirmed through the automation flag (what the modal's "Restart" button does).
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.restartAgent', { type: 'run', key: runKey('otto') }, { confirmed: true }), true);
    await waitFor('otto running', () => a.store.state.runs.get(runKey('otto'))?.state === 'running');
    const rows = await waitFor('otto running in the tree', async () => {
      const labels = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS }).catch(() => []);
      return labels.some((l) => l.includes('otto') && l.includes('running')) && labels;
    });
    assert.ok(rows.length > 0);
    await screenshot('hive-restarted.png');
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.stopAgent', runKey('otto'), { confirmed: true }), true);
    await waitFor('otto stopped', () => a.store.state.runs.get(runKey('otto'))?.state === 'stopped');
  });

  test('schedules and approval requests through the commands (arguments instead of prompts)', async () => {
    const a = await api();
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.schedules', CONNECTION, { scheduleId: 1, scheduleAction: 'fire' }), true);
    await waitFor('the scheduled prompt in ruth\'s inbox', () =>
      a.store.transcript(runKey('ruth'))?.snapshot().some((i) => i.kind === 'message' && i.from === 'scheduler' && i.body === 'daily standup summary'),
    );
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.schedules', CONNECTION, { scheduleId: 1, scheduleAction: 'edit', body: 'daily standup, short', description: '', intervalSeconds: 43200 }), true);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.requestInitConfig', CONNECTION, { name: 'docs', description: 'writes the docs' }), true);
    await vscode.commands.executeCommand('agentSwitchboard.refresh');
    const manager = a.store.state.runs.get(runKey('manager'));
    const approvals = manager?.panels?.find((p) => p.id === 'looseEnds')?.entries.filter((e) => e.id.startsWith('approval:')) ?? [];
    assert.ok(approvals.some((e) => e.description?.includes('init_config')), JSON.stringify(approvals));
  });

  test('an agent log opens read-only and refreshes', async () => {
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.hive.showLogs', runKey('iris'), { lines: 20 }), true);
    const editor = await waitFor('the log editor', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'agent-switchboard-doc' && e;
    });
    assert.match(editor.document.getText(), /h-iris hive-agent/);
    assert.equal(editor.document.getText().trim().split('\n').length, 20);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.refreshDocument'), true);
    const journal = await vscode.commands.executeCommand('agentSwitchboard.hive.showHostJournal', CONNECTION, { lines: 10 });
    assert.equal(journal, true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a stopped agent takes messages (its inbox queues them), and loose-end buttons say they act as the agent', async () => {
    const a = await api();
    assert.equal(a.store.state.runs.get(runKey('otto'))?.state, 'stopped');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey('otto'));
    const placeholder = await waitFor('the composer of the stopped agent', async () => {
      const p = await ui<string[]>({ action: 'attribute', selector: '#composer-input', value: 'placeholder', webview: true }).catch((): string[] => []);
      return p.find((x) => x.includes('stopped'));
    });
    assert.match(placeholder, /waits in its inbox/);
    const body = 'Otto, when you are back: rebase on main.';
    await ui({ action: 'fill', selector: '#composer-input', value: body, webview: true });
    assert.deepEqual(await ui<string[]>({ action: 'text', selector: '#composer-send', webview: true }), ['Queue']);
    await screenshot('hive-stopped-composer.png');
    await ui({ action: 'click', selector: '#composer-send', webview: true });
    await waitFor('the queued message in otto\'s transcript', () =>
      a.store.transcript(runKey('otto'))?.snapshot().some((i) => i.kind === 'message' && i.from === 'operator' && i.body === body),
    );
    assert.equal(a.store.state.runs.get(runKey('otto'))?.state, 'stopped', 'sending did not start the agent');

    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey('iris'));
    const labels = await waitFor('the loose-end buttons', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-panel-id="looseEnds"] .panel-action', webview: true }).catch((): string[] => []);
      return t.length > 0 ? t : undefined;
    });
    assert.ok(labels.includes('Mark done (as the agent)'), labels.join(' | '));
    assert.ok(labels.every((l) => l.endsWith('(as the agent)')), labels.join(' | '));
    const hints = await ui<string[]>({ action: 'attribute', selector: '[data-panel-id="looseEnds"] [data-action-id="markDone"]', value: 'title', webview: true });
    assert.match(hints[0] ?? '', /records this as done by iris/);
    await screenshot('hive-loose-ends-as-agent.png');
  });
});

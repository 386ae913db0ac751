/**
 * AgencyProxy conversations (interactive runs) in a real VS Code: the reference daemon keeps them open after each
 * answer, as the real one does (WIRE.md 1.5). Once answered, the tree and the transcript say "waiting for your
 * message" with a still icon (no spinner), the change set is there without the run ending, and End Run — from the
 * composer, or from the tree/palette command — ends it. New Run lists every provider (one that cannot run explains
 * why) and asks conversation or one-shot, remembering the choice. And Manage Connections offers a daemon listening at one of
 * the usual places (here `<tmpdir>/azp-<hash>/runtime.sock`) and connects the profile it writes. Every wait is for a
 * state, never for time.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { api, CONNECTIONS_ROWS, connectAgencyProxyFixture, screenshot, setConnections, startFixture, ui, waitFor, workspaceDir } from './support';

const NAME = 'AgencyProxy Chat';
const QUICK_PICK_ROW = '.quick-input-widget .monaco-list-row';
/** A notification button, as a toast or in the notification center (headless, the center holds them). */
const NOTIFICATION_BUTTON = '.notification-toast .monaco-button, .notifications-center .monaco-button';
const CONNECTION = `agency-proxy:${NAME}`;

/** New Run as a conversation, its prompts answered by arguments; returns the run key. */
async function newConversation(prompt: string): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'edit',
    prompt,
    approvals: false,
    interactive: true,
  });
  assert.equal(typeof runKey, 'string', 'the command returns the new run');
  return runKey as string;
}

/** The text of the tree row whose label contains `title`, once it also contains `expected`. */
function treeRow(title: string, expected: string): Promise<string> {
  return waitFor(`the tree row "${title}" to say "${expected}"`, async () => {
    const rows = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS, hasText: title }).catch((): string[] => []);
    return rows.find((r) => r.includes(expected));
  });
}

suite('AgencyProxy conversations', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-apc-'));
  });

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('an answered conversation waits for your message (no spinner) and End Run in the composer ends it', async () => {
    const a = await api();
    const title = 'Say hello notools';
    const runKey = await newConversation(title);
    await waitFor('waiting for your message', () => a.store.state.runs.get(runKey)?.state === 'idle', 30000);
    await waitFor('the change set after the answer', () => a.store.state.changeSets.get(runKey)?.status === 'ready');

    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const row = await treeRow(title, 'waiting for your message');
    assert.ok(!row.includes('running'), row);
    // The Connections tree's row (the run board, above it, has a row for the run too, re-rendered a moment later).
    const iconClasses = await ui<(string | null)[]>({ action: 'attribute', selector: `${CONNECTIONS_ROWS}:has-text("${title}") .custom-view-tree-node-item-icon`, value: 'class' });
    assert.match(iconClasses[0] ?? '', /codicon-comment-discussion/);
    assert.doesNotMatch(iconClasses[0] ?? '', /spin/, 'a run waiting for you does not spin');

    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await waitFor('the header says so', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '#run-state', webview: true }).catch((): string[] => []);
      return t[0]?.trim() === 'Waiting for your message';
    });
    assert.equal(await ui<number>({ action: 'count', selector: '#composer-stop:visible', webview: true }), 0, 'no Stop for a run that is not working');
    await screenshot('agency-proxy-waiting-for-message.png');
    await ui({ action: 'click', selector: '#composer-end', webview: true });
    await waitFor('canceled', () => a.store.state.runs.get(runKey)?.state === 'canceled', 30000);
    await treeRow(title, 'canceled');
  });

  test('the tree offers End Run on a waiting conversation, and the command ends it', async () => {
    const a = await api();
    const title = 'Another chat notools';
    const runKey = await newConversation(title);
    await waitFor('waiting for your message', () => a.store.state.runs.get(runKey)?.state === 'idle', 30000);
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    await treeRow(title, 'waiting for your message');
    const inline = await waitFor('the inline End Run action', async () => {
      // In the Connections tree (the run board offers End Run on its row too).
      const n = await ui<number>({ action: 'count', selector: `${CONNECTIONS_ROWS}:has-text("${title}") .action-label[aria-label="End Run"]` }).catch(() => 0);
      return n > 0 && n;
    });
    assert.equal(inline, 1);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.endRun', runKey), true);
    await waitFor('canceled', () => a.store.state.runs.get(runKey)?.state === 'canceled', 30000);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.endRun', runKey), false, 'an ended run cannot be ended again');
  });

  test('Manage Connections offers a daemon listening at a usual place and connects the profile it adds', async () => {
    const a = await api();
    // <tmpdir>/azp-<16 hex>/runtime.sock is where a launcher with a long config path puts its socket (WIRE.md 1.1).
    const hash = randomBytes(8).toString('hex');
    const socketPath = path.join(os.tmpdir(), `azp-${hash}`, 'runtime.sock');
    const second = startFixture('agencyProxy', ['--socket', socketPath, '--workspace', workspaceDir()]);
    try {
      await waitFor('the second daemon socket', () => fs.existsSync(socketPath));
      const added = vscode.commands.executeCommand<string | undefined>('agentSwitchboard.manageConnections');
      await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: socketPath });
      // The name box (same widget) is up once its prompt shows; Enter accepts the suggested name.
      await ui({ action: 'waitFor', selector: '.quick-input-widget', hasText: 'Name for the daemon at' });
      await ui({ action: 'press', selector: '.quick-input-widget input:visible', value: 'Enter' });
      const name = await added;
      assert.equal(name, `AgencyProxy (${hash.slice(0, 6)})`);
      const profiles = vscode.workspace.getConfiguration('agentSwitchboard').get<{ name: string; socketPath?: string }[]>('connections', []);
      assert.ok(profiles.some((p) => p.name === name && p.socketPath === socketPath), JSON.stringify(profiles));
      await waitFor('the added connection connects', () => a.store.state.connections.get(`agency-proxy:${name}`)?.state.kind === 'connected');
    } finally {
      // suiteTeardown clears the connections, the added one included.
      second.kill('SIGTERM');
    }
  });

  test('New Run lists every provider with why it cannot run, and asks conversation or one-shot, remembering it', async () => {
    const a = await api();
    const ask = { connectionId: CONNECTION, model: '', permission: 'edit', prompt: 'One shot notools', approvals: false };
    const started = vscode.commands.executeCommand<string | undefined>('agentSwitchboard.newRun', ask);
    const rows = await waitFor('the provider pick', async () => {
      const r = await ui<string[]>({ action: 'text', selector: QUICK_PICK_ROW }).catch((): string[] => []);
      return r.some((x) => x.includes('copilot')) && r;
    });
    // The reference daemon: claude logged in, codex logged out, copilot not installed — all three are listed.
    assert.ok(rows.some((r) => r.includes('claude') && r.includes('logged in')), rows.join(' | '));
    assert.ok(rows.some((r) => r.includes('codex') && r.includes('logged out') && r.includes('codex login')), rows.join(' | '));
    assert.ok(rows.some((r) => r.includes('copilot') && r.includes('not installed')), rows.join(' | '));
    // Picking one that cannot run says why and offers to choose again.
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: 'codex' });
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center', hasText: 'codex cannot run yet. Log in first: codex login' });
    await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Choose Another' });
    await vscode.commands.executeCommand('notifications.hideList');
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: 'claude' });
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: 'One-shot — ends after the answer' });
    const runKey = await started;
    assert.equal(typeof runKey, 'string');
    await waitFor('the one-shot run completes by itself', () => a.store.state.runs.get(runKey!)?.state === 'completed', 30000);

    // The next New Run offers the last choice first.
    const again = vscode.commands.executeCommand<string | undefined>('agentSwitchboard.newRun', ask);
    await ui({ action: 'click', selector: QUICK_PICK_ROW, hasText: 'claude' });
    const modes = await waitFor('the mode pick', async () => {
      const r = await ui<string[]>({ action: 'text', selector: QUICK_PICK_ROW }).catch((): string[] => []);
      return r.some((x) => x.includes('Conversation')) && r;
    });
    assert.ok(modes[0]!.includes('One-shot') && modes[0]!.includes('last used'), modes.join(' | '));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await again, undefined, 'closing the pick starts nothing');
  });
});

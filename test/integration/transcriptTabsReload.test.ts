/**
 * A real window reload (workbench.action.reloadWindow) with a transcript open in an editor tab and a draft typed
 * into it. The editor tab is VS Code's to restore, so this cannot be two windows on one profile as the "Reload
 * phase" suites are (the browser keeps the workbench's state per page): the runner gives this suite a launch of its
 * own (test/harness/runIntegration.mjs); the reload starts the tests again in the new window, and a state file says
 * which half runs. The run lives on the runner's reload daemon, outside VS Code.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, screenshot, setConnections, tabWebview, ui, waitFor } from './support';

const NAME = 'Window reload daemon';
const CONNECTION = `agency-proxy:${NAME}`;
const PROMPT = 'a run to read in a tab';
const DRAFT = 'typed in the tab before the reload';

interface BeforeReload {
  readonly runKey: string;
  readonly title: string;
}

/** Set by the runner for this suite's launch, the only one that runs it: missing, the test fails (it never skips). */
function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is set by the integration runner for the window-reload launch`);
  }
  return value;
}

suite('Window reload: transcript tabs', () => {
  test('an editor tab and its draft survive a window reload', async function () {
    const stateDir = env('SWITCHBOARD_WINDOW_RELOAD_STATE');
    const socketPath = env('SWITCHBOARD_RELOAD_SOCKET');
    const marker = path.join(stateDir, 'before-reload.json');
    if (fs.existsSync(marker)) {
      this.timeout(120000);
      await afterReload(JSON.parse(fs.readFileSync(marker, 'utf8')) as BeforeReload);
      return;
    }
    // This window goes away mid-test: the test never ends here, and its runner with it (nothing is reported).
    this.timeout(0);
    await beforeReload(socketPath, marker);
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    await new Promise<never>(() => {});
  });
});

async function beforeReload(socketPath: string, marker: string): Promise<void> {
  const a = await api();
  await setConnections([{ name: NAME, protocol: 'agency-proxy', socketPath }]);
  await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
  const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'read_only',
    prompt: PROMPT,
    approvals: false,
    interactive: true,
  })) as string;
  await waitFor('the run waits for a message', () => a.store.state.runs.get(runKey)?.state === 'idle', 30000);
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
  await waitFor('the tab, ready', () => a.transcriptTabs.list().some((p) => p.runKey === runKey && p.ready));
  await ui({ action: 'fill', selector: '#composer-input', value: DRAFT, webview: true, frame: tabWebview() });
  await waitFor('the host has the draft', () => a.drafts.get(runKey) === DRAFT);
  await a.drafts.flush();
  await screenshot('transcript-tab-before-reload.png');
  const before: BeforeReload = { runKey, title: a.store.state.runs.get(runKey)!.title };
  fs.writeFileSync(marker, JSON.stringify(before));
}

async function afterReload(before: BeforeReload): Promise<void> {
  const a = await api();
  const restored = await waitFor('the tab restored by the serializer', () => a.transcriptTabs.list().find((p) => p.runKey === before.runKey), 60000);
  assert.equal(a.transcriptTabs.list().length, 1, 'one tab, as before');
  assert.ok(restored);
  await waitFor('the run restored and its daemon connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected' && a.store.state.runs.has(before.runKey), 60000);
  await waitFor('the tab titled after the run', () => a.transcriptTabs.list()[0]?.title === before.title);
  assert.equal(a.drafts.get(before.runKey), DRAFT, 'the draft is back from the workspace state');
  await waitFor('the prompt in the tab', async () => {
    const texts = await ui<string[]>({ action: 'text', selector: '[data-kind="user"]', webview: true, frame: tabWebview() }).catch((): string[] => []);
    return texts.some((t) => t.includes(PROMPT));
  });
  const value = await waitFor('the draft in the tab’s composer', async () => {
    const v = await ui<string>({ action: 'value', selector: '#composer-input', webview: true, frame: tabWebview() }).catch(() => '');
    return v === DRAFT && v;
  });
  assert.equal(value, DRAFT);
  await screenshot('transcript-tab-after-reload.png');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
  await setConnections([]);
}

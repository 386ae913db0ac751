/**
 * AgencyProxy account usage in a real VS Code: a status bar item per connection whose tooltip sums up the usage the
 * reference daemon reports (read when the connection connects), and *Show AgencyProxy Account Usage* opening a
 * rendered, read-only view (bars, percent, reset time) that never asks to be saved.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { api, connectAgencyProxyFixture, screenshot, setConnections, ui, waitFor } from './support';

const NAME = 'Usage Proxy';
const CONNECTION = `agency-proxy:${NAME}`;

suite('AgencyProxy account usage', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-apu-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('the status bar item sums up each provider\'s usage in its tooltip', async () => {
    const item = '.statusbar-item';
    await waitFor('the usage status bar item', async () => (await ui<number>({ action: 'count', selector: item, hasText: 'Usage' }).catch(() => 0)) > 0);
    await ui({ action: 'hover', selector: item, hasText: 'Usage' });
    const hover = await waitFor('the tooltip with the usage', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '.monaco-hover' }).catch((): string[] => []);
      return t.find((x) => x.includes('claude') && x.includes('37%'));
    });
    assert.match(hover, /AgencyProxy Account Usage/);
    assert.match(hover, /codex.*not logged in/s);
    assert.match(hover, /copilot.*does not report usage/s);
    assert.match(hover, /Read\sat/);
    await screenshot('agency-proxy-usage-tooltip.png');
  });

  test('Show Account Usage opens a rendered, read-only view', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The preview is then the only webview on screen (the transcript view lives in the sidebar).
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    try {
      await showsTheView();
    } finally {
      // Later suites expect the sidebar where it was.
      await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    }
  });
});

/** The command opens the usage rendered (the markdown preview), backed by a virtual, never-dirty document. */
async function showsTheView(): Promise<void> {
  assert.equal(await vscode.commands.executeCommand('agentSwitchboard.agencyProxy.accountUsage', CONNECTION), true);
  const tab = await waitFor('the usage preview', () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label.includes('account-usage')),
  );
  assert.ok(tab);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith('/account-usage.md'));
  assert.equal(doc?.uri.scheme, 'agent-switchboard-doc', 'a virtual document: nothing to save');
  assert.equal(doc?.isDirty, false);
  assert.match(doc?.getText() ?? '', /## claude[\s\S]*`█{7}░{13}` 37% used · resets 2030-01-01 05:00 UTC/);
  const rendered = await waitFor('the rendered view', async () => {
    const t = await ui<string[]>({ action: 'text', selector: 'h2', webview: true }).catch((): string[] => []);
    return t.includes('claude') && t;
  });
  assert.deepEqual(rendered, ['claude', 'codex', 'copilot']);
  await screenshot('agency-proxy-usage-view.png');
  const a = await api();
  assert.equal(a.store.state.connections.get(CONNECTION)?.state.kind, 'connected');
}

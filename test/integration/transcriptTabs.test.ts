/**
 * Transcripts in editor tabs, in a real VS Code with the reference AgencyProxy: "Open in Editor" opens a run's
 * transcript beside the code while the sidebar view shows the same live run; each run gets its own tab (opening it
 * again reveals it); a draft typed in the sidebar is in the tab when the tab next opens. The reload half is
 * transcriptTabsReload.test.ts.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { WebviewFrame } from './support';
import { api, connectAgencyProxyFixture, SIDEBAR_WEBVIEW, screenshot, setConnections, tabWebview, ui, waitFor, workspaceDir } from './support';

const NAME = 'Tabs daemon';
const CONNECTION = `agency-proxy:${NAME}`;
const PANEL_VIEW_TYPE = 'agentSwitchboard.transcriptPanel';

async function newRun(prompt: string, interactive: boolean): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'read_only',
    prompt,
    approvals: false,
    interactive,
  });
  assert.equal(typeof runKey, 'string');
  return runKey as string;
}

/** The streamed text shown by one webview (joined), '' while it shows none or is not there. */
async function shownText(frame: WebviewFrame): Promise<string> {
  const texts = await ui<string[]>({ action: 'text', selector: '[data-kind="text"]', webview: true, frame }).catch((): string[] => []);
  return texts.join('');
}

function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(PANEL_VIEW_TYPE));
}

suite('Transcript tabs', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-tabs-', { recordRuns: true }));
    // Code to sit beside.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspaceDir(), 'greeting.ts')));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('Open in Editor shows the live run beside the code, and the sidebar shows the same run', async function () {
    this.timeout(120000);
    const a = await api();
    const runKey = await newRun('tabs live run long:300 slow notools', false);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey), runKey);
    const info = await waitFor('the tab, ready', () => a.transcriptTabs.list().find((p) => p.runKey === runKey && p.ready));
    assert.equal(info.title, a.store.state.runs.get(runKey)!.title, 'the tab is titled after the run');
    const tab = await waitFor('the tab in the editor area', () => panelTabs()[0]);
    assert.equal(tab.label, info.title);
    const code = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText));
    assert.ok(code && tab.group.viewColumn !== code.viewColumn, 'the tab opens beside the code, in another group');

    // Live: the tab's text grows while the run streams, and the sidebar view shows the same run.
    const first = await waitFor('streamed text in the tab', async () => (await shownText(tabWebview())).length > 0 && shownText(tabWebview()), 30000);
    await waitFor('more streamed text in the tab', async () => (await shownText(tabWebview())).length > first.length, 30000);
    await waitFor('the same run in the sidebar view', async () => (await shownText(SIDEBAR_WEBVIEW)).length > 0, 30000);
    await screenshot('transcript-tab-live.png');
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 90000);
    // Rendered as markdown: compare the words (line breaks of the source become spaces).
    const words = (text: string): string => text.replace(/\s+/g, ' ').trim();
    const stored = words(a.store.transcript(runKey)!.snapshot().flatMap((i) => (i.kind === 'text' ? [i.text] : [])).join(''));
    assert.match(stored, /chunk 300$/);
    await waitFor('the whole answer in the tab', async () => words(await shownText(tabWebview())) === stored, 30000);
    await waitFor('the whole answer in the sidebar', async () => words(await shownText(SIDEBAR_WEBVIEW)) === stored, 30000);
  });

  test('each run gets its own tab; Open in Editor on an open run reveals its tab', async function () {
    this.timeout(90000);
    const a = await api();
    const [firstKey] = a.transcriptTabs.list().map((p) => p.runKey);
    assert.ok(firstKey);
    const secondKey = await newRun('tabs second run', true);
    await waitFor('the second run waits for a message', () => a.store.state.runs.get(secondKey)?.state === 'idle', 30000);
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', secondKey);
    await waitFor('two tabs, both ready', () => a.transcriptTabs.list().filter((p) => p.ready).length === 2);
    assert.deepEqual(a.transcriptTabs.list().map((p) => p.runKey), [firstKey, secondKey]);
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', firstKey);
    await waitFor('the first tab active again', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputWebview && vscode.window.tabGroups.activeTabGroup.activeTab?.label === a.store.state.runs.get(firstKey)!.title;
    });
    assert.equal(a.transcriptTabs.list().length, 2, 'no second tab for the same run');
    assert.equal(panelTabs().length, 2);
    // Each visible tab shows its own run: its header's title (the runs are titled by their prompts). Not the prompt
    // row: a tab that follows a long run's end has its first rows out of the virtual list's window, as it should.
    const prompts = async (): Promise<string[]> => {
      const all: string[] = [];
      for (const n of [0, 1]) {
        all.push(...(await ui<string[]>({ action: 'text', selector: '#run-title', webview: true, frame: tabWebview(n) }).catch((): string[] => [])));
      }
      return all;
    };
    const shown = await waitFor('both prompts, one per tab', async () => {
      const p = await prompts();
      return p.some((t) => t.includes('tabs live run')) && p.some((t) => t.includes('tabs second run')) && p;
    });
    assert.equal(shown.length, 2, `one prompt per tab: ${JSON.stringify(shown)}`);
  });

  test('a draft typed in the sidebar is in the run’s tab when the tab next opens; sending clears it in both', async function () {
    this.timeout(90000);
    const a = await api();
    const runKey = a.transcriptTabs.list()[1]!.runKey;
    const draft = 'a draft written in the sidebar';
    const tab = panelTabs().find((t) => t.label === a.store.state.runs.get(runKey)!.title)!;
    await vscode.window.tabGroups.close(tab);
    await waitFor('the tab closed', () => !a.transcriptTabs.list().some((p) => p.runKey === runKey));
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await ui({ action: 'fill', selector: '#composer-input', value: draft, webview: true, frame: SIDEBAR_WEBVIEW });
    await waitFor('the host has the draft', () => a.drafts.get(runKey) === draft);
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    await waitFor('the tab ready', () => a.transcriptTabs.list().some((p) => p.runKey === runKey && p.ready));
    const composerValue = async (n: number): Promise<string> =>
      ui<string>({ action: 'value', selector: '#composer-input', webview: true, frame: tabWebview(n) }).catch(() => '');
    const tabIndex = await waitFor('the draft in the tab', async () => {
      for (const n of [0, 1]) {
        if ((await composerValue(n)) === draft) {
          return { n };
        }
      }
      return undefined;
    });
    await ui({ action: 'press', selector: '#composer-input', value: 'Control+Enter', webview: true, frame: SIDEBAR_WEBVIEW });
    await waitFor('the message sent', () => a.store.transcript(runKey)!.snapshot().some((i) => i.kind === 'user' && i.text === draft), 30000);
    assert.equal(a.drafts.get(runKey), '', 'sending forgets the draft');
    // The open tab follows live: its composer (not being typed in) is emptied too.
    await waitFor('the tab’s composer emptied', async () => (await ui<string>({ action: 'value', selector: '#composer-input', webview: true, frame: tabWebview(tabIndex.n) })) === '');
  });

  test('screenshots of a tab beside the code in the dark and light themes', async function () {
    this.timeout(90000);
    const a = await api();
    // One tab beside the code, of a run with the reference daemon's usual answer (markdown, a code block, a tool).
    await vscode.window.tabGroups.close(panelTabs());
    await waitFor('no tab', () => a.transcriptTabs.list().length === 0);
    const runKey = await newRun('Explain greeting.ts and suggest a test noedit', false);
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 60000);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    await waitFor('one tab, ready', () => a.transcriptTabs.list().length === 1 && a.transcriptTabs.list()[0]!.ready);
    const themed = (kind: 'light' | 'dark') =>
      waitFor(`the tab in the ${kind} theme`, async () => {
        const classes = await ui<(string | null)[]>({ action: 'attribute', selector: 'body', value: 'class', webview: true, frame: tabWebview() }).catch(() => []);
        return (classes[0] ?? '').split(/\s+/).includes(`vscode-${kind}`) && (await shownText(tabWebview())).length > 0;
      });
    await themed('dark');
    await screenshot('editor-tab-dark.png');
    const config = vscode.workspace.getConfiguration('workbench');
    try {
      await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
      await themed('light');
      await screenshot('editor-tab-light.png');
    } finally {
      await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    }
  });
});

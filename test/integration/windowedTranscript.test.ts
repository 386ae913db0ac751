/**
 * The windowed transcript in a real VS Code, against the reference AgencyProxy: a run of 3,000 tool calls opens from
 * its tail (the view holds a window, not the run); Home scrolls to the very first item, fetched from the host; *Find
 * in Transcript* (palette) finds a call the view never held and shows it; hiding the view and showing it again (the
 * webview is discarded and rebuilt) brings back the same item. In the run's editor tab (a full-height view; the
 * sidebar's is the same TranscriptSurface, squeezed below the other views in this window).
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import * as path from 'node:path';
import { api, connectAgencyProxyFixture, screenshot, setConnections, tabWebview, ui, waitFor, workspaceDir } from './support';

const NAME = 'Window daemon';
const CONNECTION = `agency-proxy:${NAME}`;
const STEPS = 3_000;

const TAB = tabWebview();

/** Whether the item is rendered in the run's tab (a placeholder has no item id). */
async function shown(id: string): Promise<boolean> {
  const count = await ui<number>({ action: 'count', selector: `[data-item-id="${id}"]:visible`, webview: true, frame: TAB }).catch(() => 0);
  return count > 0;
}

suite('Windowed transcript', () => {
  let daemon: ChildProcess | undefined;
  let runKey = '';
  /** The tool item of the call whose pattern is `needle-<n>`. */
  const toolId = async (n: number): Promise<string> => {
    const item = (await api()).store
      .transcript(runKey)!
      .snapshot()
      .find((i) => i.kind === 'tool' && JSON.stringify(i.input).includes(`"needle-${n}"`));
    assert.ok(item, `the call needle-${n}`);
    return item.id;
  };

  suiteSetup(async function () {
    this.timeout(180000);
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-window-'));
    const a = await api();
    runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
      connectionId: CONNECTION,
      provider: 'claude',
      model: '',
      permission: 'read_only',
      prompt: `a long run steps:${STEPS} notools`,
      approvals: false,
      interactive: false,
    })) as string;
    await waitFor('the run completes', () => a.store.state.runs.get(runKey)?.state === 'completed', 150000);
    assert.ok(a.store.transcript(runKey)!.length > STEPS, 'one item per call, and more');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('opens at the tail, and Home scrolls to the first item, fetched from the host', async function () {
    this.timeout(120000);
    const a = await api();
    const transcript = a.store.transcript(runKey)!;
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    await waitFor('the tab, ready', () => a.transcriptTabs.list().find((p) => p.runKey === runKey && p.ready));
    const lastId = transcript.at(transcript.length - 1)!.id;
    await waitFor('the newest item in the view', () => shown(lastId), 30000);
    const rows = await ui<number>({ action: 'count', selector: '[data-item-id]', webview: true, frame: TAB });
    assert.ok(rows < 200, `${rows} rows rendered of ${transcript.length}`);
    const firstId = transcript.at(0)!.id;
    assert.equal(await shown(firstId), false);
    await ui({ action: 'press', selector: '#transcript', value: 'Home', webview: true, frame: TAB });
    await waitFor('the first item in the view', () => shown(firstId), 30000);
    await screenshot('windowed-transcript-top.png');
  });

  test('Find in Transcript finds a call the view never held and scrolls to it', async function () {
    this.timeout(120000);
    const target = await toolId(2_345);
    assert.equal(await shown(target), false);
    await vscode.commands.executeCommand('agentSwitchboard.findInTranscript');
    await ui({ action: 'waitFor', selector: '#find-bar:not([hidden]) .find-input', webview: true, frame: TAB });
    await ui({ action: 'fill', selector: '.find-input', value: 'needle-2345', webview: true, frame: TAB });
    await waitFor('one hit', async () => (await ui<string[]>({ action: 'text', selector: '.find-count', webview: true, frame: TAB })).join('') === '1 of 1', 30000);
    await waitFor('the call in the view', () => shown(target), 30000);
    await screenshot('windowed-transcript-find.png');
    await ui({ action: 'press', selector: '.find-input', value: 'Escape', webview: true, frame: TAB });
    await waitFor('the find bar closed', async () => (await ui<number>({ action: 'count', selector: '#find-bar[hidden]', webview: true, frame: TAB })) === 1);
  });

  test('hidden and shown again, the view comes back at the same item', async function () {
    this.timeout(120000);
    const target = await toolId(2_345);
    assert.equal(await shown(target), true);
    const firstId = (await api()).store.transcript(runKey)!.at(0)!.id;
    // A file opened in the tab's group hides the tab: its webview is discarded (no retainContextWhenHidden).
    const group = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview))!;
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspaceDir(), 'greeting.ts')), { viewColumn: group.viewColumn });
    await waitFor('the transcript webview gone', async () => !(await shown(target)), 30000);
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    await waitFor('the same call in the rebuilt view', () => shown(target), 30000);
    assert.equal(await shown(firstId), false, 'not reopened at the top');
    await screenshot('windowed-transcript-restored.png');
  });
});

/**
 * AgencyProxy end to end in a real VS Code: the reference daemon, a run started from the command palette, an
 * approval allowed from the notification, another shown as a diff and allowed from the editor title (once), the
 * streamed answer visible in the Transcript webview.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { PROPOSAL_SCHEME } from '../../extension/ui/approvals/proposalContentProvider';
import { FETCH_TOKEN } from '../fixtures/agencyProxy/scriptedProvider';
import { api, APPROVAL_NOTIFICATION_LINK, testHooks, computedStyle, CONNECTIONS_ROWS, screenshot, sentFrames, setConnections, startFixture, ui, waitFor, workspaceDir } from './support';

const CONNECTION = 'agency-proxy:AgencyProxy';
/*
 * Headless, the workbench collects notifications in the center without popping toasts (the bell shows them), so
 * tests open the center: the notification and its links are the same ones.
 */

/** New Run from the palette command, with its prompts answered by arguments; returns the run key. */
async function newRun(prompt: string, model = ''): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model,
    permission: 'edit',
    prompt,
    interactive: false,
  });
  assert.equal(typeof runKey, 'string', 'the command returns the new run');
  return runKey as string;
}

/** The first value under `key`, anywhere in `value`. */
function findKey(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  if (!Array.isArray(value) && key in value) {
    return (value as Record<string, unknown>)[key];
  }
  for (const v of Object.values(value)) {
    const found = findKey(v, key);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

async function showNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
}

suite('AgencyProxy', () => {
  let daemon: ChildProcess | undefined;
  let dir: string;

  suiteSetup(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ap-'));
    const socketPath = path.join(dir, 'run', 'runtime.sock');
    // --same-write: a zero-delay daemon whose `accepted` and the rest of the run (up to `finished`) arrive in one
    // socket write, as a real daemon's do; every decision below must still show as the user made it.
    daemon = startFixture('agencyProxy', ['--socket', socketPath, '--record-dir', path.join(dir, 'state'), '--workspace', workspaceDir(), '--same-write']);
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
    const a = await api();
    await setConnections([{ name: 'AgencyProxy', protocol: 'agency-proxy', socketPath }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  });

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('New Run from the palette, Allow once from the notification, text in the transcript', async () => {
    const a = await api();
    const runKey = await newRun('Tidy up the README', 'sonnet');
    assert.ok(runKey, 'the command returns the new run');
    await waitFor('the approval request', () => a.store.state.runs.get(runKey)?.pendingApprovals.length === 1);
    await showNotifications();
    await ui({ action: 'waitFor', selector: APPROVAL_NOTIFICATION_LINK, hasText: 'Allow once' });
    const statusCount = await ui<number>({ action: 'count', selector: '.statusbar-item', hasText: '1 approval waiting' });
    assert.equal(statusCount, 1, 'the status bar counts the approval');
    await screenshot('agency-proxy-approval-notification.png');
    await ui({ action: 'click', selector: APPROVAL_NOTIFICATION_LINK, hasText: 'Allow once' });
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    const approval = [...a.store.state.approvals.values()].find((x) => x.runKey === runKey);
    assert.equal(approval?.decision, 'allow_once');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    // The reference daemon's answer is deterministic (scriptedProvider.ts: ANSWER, then the reply after the edit).
    const answer = [
      '## Plan\n\nI looked at the workspace. Here is a helper that fits the existing style:\n\n',
      '```ts\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n```\n\n',
      '- read `README.md`\n- propose a one-line edit\n- keep the tests green\n',
    ].join('');
    const stored = a.store.transcript(runKey)!.snapshot().flatMap((i) => (i.kind === 'text' ? [i.text] : []));
    assert.deepEqual(stored, [answer, 'Done: README.md now carries the edit.']);
    // The webview renders both as markdown: headings and code lose their markup, the words stay.
    const texts = await waitFor('both answers in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="text"]', webview: true }).catch((): string[] => []);
      return t.length === 2 && t;
    });
    for (const phrase of ['Plan', 'Here is a helper that fits the existing style:', 'export function greet(name: string): string {', 'propose a one-line edit']) {
      assert.ok(texts[0]!.includes(phrase), `the first answer shows "${phrase}": ${texts[0]}`);
    }
    assert.ok(!texts[0]!.includes('## Plan') && !texts[0]!.includes('```'), 'the markdown is rendered, not shown raw');
    assert.ok(texts[1]!.includes('Done: README.md now carries the edit.'), `the second answer: ${texts[1]}`);
    await screenshot('agency-proxy-transcript.png');
  });

  test('Show diff opens the proposal; Allow in the editor title decides it once', async () => {
    const a = await api();
    const hooks = await testHooks();
    const runKey = await newRun('Edit the README again', '');
    await waitFor('the approval request', () => a.store.state.runs.get(runKey)?.pendingApprovals.length === 1);
    await showNotifications();
    await ui({ action: 'click', selector: APPROVAL_NOTIFICATION_LINK, hasText: 'Show diff' });
    const tab = await waitFor('a diff tab with the proposal', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    const proposed = (await vscode.workspace.openTextDocument(input.modified)).getText();
    const approval = [...a.store.state.approvals.values()].find((x) => x.runKey === runKey)!;
    const detail = approval.detail as { new_string: string };
    assert.ok(proposed.includes(detail.new_string), 'the right side has the proposed content');
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    await screenshot('agency-proxy-approval-diff.png');
    await ui({ action: 'click', selector: '.editor-actions .action-label[aria-label^="Allow"]' });
    await waitFor('decided', () => a.store.state.approvals.get(approval.key)?.status === 'decided');
    assert.equal(await hooks.approvals.decide(approval.key, 'deny', 'palette'), false, 'a second decision is refused');
    assert.equal(a.store.state.approvals.get(approval.key)?.decision, 'allow_once');
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
  });

  test('a proposal over several files opens the multi-diff editor; Allow in its title decides it', async () => {
    const a = await api();
    const runKey = await newRun('Patch two files multiedit', '');
    await waitFor('the approval request', () => a.store.state.runs.get(runKey)?.pendingApprovals.length === 1);
    const approval = [...a.store.state.approvals.values()].find((x) => x.runKey === runKey)!;
    await vscode.commands.executeCommand('agentSwitchboard.showApprovalDiff', approval.key);
    const tab = await waitFor('a multi-diff tab with the proposal', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => {
          const input = t.input as { textDiffs?: { modified?: vscode.Uri }[] } | undefined;
          return Array.isArray(input?.textDiffs) && input.textDiffs.some((d) => d.modified?.scheme === PROPOSAL_SCHEME);
        }),
    );
    const diffs = (tab.input as { textDiffs: { modified: vscode.Uri }[] }).textDiffs;
    assert.equal(diffs.length, 2, 'one entry per proposed file');
    const notes = diffs.find((d) => d.modified.path.endsWith('NOTES.md'))!;
    assert.equal((await vscode.workspace.openTextDocument(notes.modified)).getText(), 'Notes from the agent.\n');
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    await screenshot('agency-proxy-approval-multidiff.png');
    await ui({ action: 'click', selector: '.editor-actions .action-label[aria-label^="Allow"]' });
    await waitFor('decided', () => a.store.state.approvals.get(approval.key)?.status === 'decided');
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    assert.ok(fs.existsSync(path.join(workspaceDir(), 'NOTES.md')), 'the daemon applied the allowed patch');
    // Its notification has left the center with the decision. A late attempt from elsewhere (a board row drawn
    // before the decision, say) tells the truth (what was decided, and where) and sends nothing.
    await showNotifications();
    await waitFor('its notification gone', async () => (await ui<number>({ action: 'count', selector: '.notifications-center .notification-list-item', hasText: 'Patch two files multiedit' })) === 0);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.decideApproval', approval.key, 'deny', 'board'), false, 'a late decision is refused');
    await showNotifications(); // the center closes when its last notification goes
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'already decided: Allowed once from the diff editor. Nothing was sent.' });
    await screenshot('agency-proxy-stale-notification.png');
    assert.equal(a.store.state.approvals.get(approval.key)?.decision, 'allow_once', 'still the decision the user made');
    const decisions = (await sentFrames('AgencyProxy')).filter((f) => f.type === 'decide_approval' && f.run_id === runKey.split('::')[1]);
    assert.equal(decisions.length, 1, 'one decide_approval for this request, from the diff editor');
  });

  test('the tree shows the runs with their states', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const runs = [...a.store.state.runs.values()].filter((r) => r.connectionId === CONNECTION);
    assert.ok(runs.length >= 2);
    // The tree refreshes on model changes; read it until it shows the finished runs.
    const labels = await waitFor('the run rows', async () => {
      const rows = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS }).catch((): string[] => []);
      return rows.some((l) => l.includes('Tidy up the README')) && rows.some((l) => l.includes('completed')) && rows;
    });
    assert.ok(labels.some((l) => l.includes('Tidy up the README') && l.includes('completed')), labels.join(' | '));
    await screenshot('agency-proxy-tree.png');
  });

  test('the sidebar looks native in light and dark themes', async () => {
    const a = await api();
    const run = [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.title === 'Tidy up the README');
    assert.ok(run);
    // A clean workbench for the README pictures: no panel, notifications or editors left by earlier suites.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', run.key);
    // "Native" = the webview follows the theme: its body is marked with the theme kind, and its background and
    // text colours are the workbench sidebar's own, which differ between the light and the dark theme.
    const themed = (kind: 'light' | 'dark') =>
      waitFor(`the webview in the ${kind} theme`, async () => {
        const classes = await ui<(string | null)[]>({ action: 'attribute', selector: 'body', value: 'class', webview: true }).catch(() => []);
        const body = await computedStyle('body', ['background-color', 'color'], true).catch(() => undefined);
        const sidebar = await computedStyle('.part.sidebar', ['background-color']).catch(() => undefined);
        const ok = (classes[0] ?? '').split(/\s+/).includes(`vscode-${kind}`) && body && body['background-color'] === sidebar?.['background-color'];
        return ok && body;
      });
    const config = vscode.workspace.getConfiguration('workbench');
    let light: Record<string, string>;
    try {
      await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
      light = await themed('light');
      await screenshot('theme-light.png');
    } finally {
      await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    }
    const dark = await themed('dark');
    assert.notEqual(light['background-color'], dark['background-color'], 'the background follows the theme');
    assert.notEqual(light.color, dark.color, 'the text colour follows the theme');
    await screenshot('theme-dark.png');
  });

  test('the protocol trace recorded every frame of these runs, secrets redacted', async () => {
    const a = await api();
    // An agent's HTTP tool call carrying a bearer token in its request headers (scriptedProvider.ts `authfetch`).
    const fetchRun = await newRun('Read my profile authfetch noedit');
    await waitFor('completed', () => a.store.state.runs.get(fetchRun)?.state === 'completed', 30000);
    await a.flushTrace();
    const file = process.env.SWITCHBOARD_TRACE_FILE;
    assert.ok(file, 'the runner sets SWITCHBOARD_TRACE_FILE');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: number; protocol: string; connection: string; dir: string; frame: Record<string, unknown> });
    const ours = lines.filter((l) => l.protocol === 'agency-proxy' && l.connection === 'AgencyProxy');
    const types = new Set(ours.filter((l) => l.dir === 'out').map((l) => l.frame.type));
    for (const t of ['hello', 'list_runs', 'start_run', 'attach_run', 'decide_approval', 'ack_events']) {
      assert.ok(types.has(t), `an outgoing ${t} frame is in the trace`);
    }
    assert.ok(ours.some((l) => l.dir === 'in' && l.frame.kind === 'event'), 'incoming events are in the trace');
    assert.ok(ours.every((l) => typeof l.t === 'number'));
    // The token reached the trace in the daemon's event frames (tool_call input headers): each one redacted, the
    // header names kept, and the token nowhere in the file.
    const fetches = ours.filter((l) => l.dir === 'in' && JSON.stringify(l.frame).includes('"toolu_fetch"') && JSON.stringify(l.frame).includes('"WebFetch"'));
    assert.ok(fetches.length > 0, 'the WebFetch tool call is in the trace');
    for (const line of fetches) {
      const headers = findKey(line.frame, 'headers') as Record<string, unknown> | undefined;
      assert.deepEqual(headers, { Authorization: '<redacted>', Accept: 'application/json' }, 'the bearer token redacted, the other header kept');
    }
    assert.ok(!fs.readFileSync(file, 'utf8').includes(FETCH_TOKEN), 'the token is nowhere in the trace');
  });
});

/**
 * Review marks survive a real window reload (issue #26). Before the reload: a run on the runner's reference
 * AgencyProxy (outside VS Code, so the run outlives the window) whose workspace file gets two separate edits while it
 * is open — the agent's edits on disk, in its local change set — and the person ticks *Reviewed* on both hunks in the
 * change-set view. After the reload (workbench.action.reloadWindow; the runner gives this suite a launch of its own,
 * test/harness/runIntegration.mjs, and a state file says which half runs): the change set shows both hunks still
 * reviewed, the board row says "2 of 2 hunks reviewed"; then *Undo* on one hunk writes the file back, and the
 * notification's *Redo* brings the agent's hunk back with its mark.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, screenshot, setConnections, SIDEBAR_WEBVIEW, testHooks, ui, waitFor } from './support';

const NAME = 'Review marks daemon';
const CONNECTION = `agency-proxy:${NAME}`;
const FILE = 'review-sample.txt';
const BASE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const text = (edits: Readonly<Record<number, string>>): string => `${BASE.map((line, i) => edits[i + 1] ?? line).join('\n')}\n`;
const AGENT = text({ 3: 'line three, by the agent', 25: 'line twenty-five, by the agent' });

interface BeforeReload {
  readonly runKey: string;
}

/** Set by the runner for this suite's launch, the only one that runs it: missing, the test fails (it never skips). */
function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is set by the integration runner for the review-marks launch`);
  }
  return value;
}

const sample = (): string => path.join(env('SWITCHBOARD_TEST_WORKSPACE'), FILE);
const inView = { webview: true, frame: SIDEBAR_WEBVIEW } as const;
const box = (hunk: number): string => `#cs-diff .cs-hunk input.cs-reviewed-box[data-file="0"][data-hunk="${hunk}"]`;

suite('Review marks', () => {
  test('two hunks reviewed, the window reloaded: the marks are still there; Undo and Redo of a hunk keep them', async function () {
    const stateDir = env('SWITCHBOARD_REVIEW_STATE');
    const marker = path.join(stateDir, 'before-reload.json');
    if (fs.existsSync(marker)) {
      this.timeout(180000);
      await afterReload(JSON.parse(fs.readFileSync(marker, 'utf8')) as BeforeReload);
      return;
    }
    // This window goes away mid-test: the test never ends here, and its runner with it (nothing is reported).
    this.timeout(0);
    await beforeReload(env('SWITCHBOARD_RELOAD_SOCKET'), marker);
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    await new Promise<never>(() => {});
  });
});

async function showChangeSet(runKey: string): Promise<void> {
  await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
  // The multi-diff editor opens too: the review happens in the sidebar's view.
  await ui({ action: 'waitFor', selector: box(1), ...inView, timeout: 30000 });
}

const summary = (): Promise<string> => ui<string[]>({ action: 'text', selector: '#cs-review-summary', ...inView }).then((t) => t[0] ?? '', () => '');

async function beforeReload(socketPath: string, marker: string): Promise<void> {
  const a = await api();
  fs.writeFileSync(sample(), text({}));
  await setConnections([{ name: NAME, protocol: 'agency-proxy', socketPath }]);
  await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
  const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'read_only',
    prompt: 'notools: a run whose edits get reviewed',
    approvals: false,
    interactive: true,
  })) as string;
  await waitFor('the run waits for a message', () => a.store.state.runs.get(runKey)?.state === 'idle', 30000);
  // The agent's edits, written to disk while the run is open: two hunks twenty lines apart.
  fs.writeFileSync(sample(), AGENT);
  await showChangeSet(runKey);
  assert.equal(await summary(), '0 of 2 hunks reviewed');
  await ui({ action: 'click', selector: box(0), ...inView });
  await waitFor('one hunk reviewed', async () => (await summary()) === '1 of 2 hunks reviewed');
  await ui({ action: 'click', selector: box(1), ...inView });
  await waitFor('both hunks reviewed', async () => (await summary()) === '2 of 2 hunks reviewed');
  const hooks = await testHooks();
  await waitFor('the board row counts them', () => hooks.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === runKey)?.review?.reviewed === 2);
  await screenshot('review-marks-before-reload.png');
  fs.writeFileSync(marker, JSON.stringify({ runKey } satisfies BeforeReload));
}

async function afterReload(before: BeforeReload): Promise<void> {
  const a = await api();
  const hooks = await testHooks();
  await waitFor('the run restored and its daemon connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected' && a.store.state.runs.has(before.runKey), 60000);
  await waitFor('its change set', () => a.store.state.changeSets.get(before.runKey)?.status === 'ready', 60000);
  await showChangeSet(before.runKey);
  await waitFor('both hunks still reviewed', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  assert.equal(await ui<number>({ action: 'count', selector: '#cs-diff .cs-hunk.cs-reviewed-row', ...inView }), 2);
  const row = await waitFor('the board row', () => hooks.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === before.runKey && r.review));
  assert.deepEqual(row.review, { reviewed: 2, total: 2 });
  await waitFor('"2 of 2 hunks reviewed" on the board', async () => {
    const rows = await ui<string[]>({ action: 'text', selector: '.pane:has(.pane-header:has-text("Runs")) .monaco-list-row' }).catch((): string[] => []);
    return rows.some((r) => r.includes('2 of 2 hunks reviewed'));
  });
  await screenshot('review-marks-after-reload.png');

  // Undo the first hunk on disk: the file gets line 3 back; the other hunk keeps its mark.
  await ui({ action: 'click', selector: '#cs-diff .cs-hunk .cs-undo', ...inView });
  await waitFor('line 3 written back', () => fs.readFileSync(sample(), 'utf8') === text({ 25: 'line twenty-five, by the agent' }), 30000);
  await waitFor('one hunk left, still reviewed', async () => (await summary()) === '1 of 1 hunk reviewed', 30000);
  // Redo (the notification's button): the agent's hunk, and its mark, come back.
  await ui({ action: 'click', selector: '.notifications-toasts .monaco-button', hasText: 'Redo', timeout: 20000 });
  await waitFor("the agent's line 3 again", () => fs.readFileSync(sample(), 'utf8') === AGENT, 30000);
  await waitFor('both hunks reviewed again', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  await screenshot('review-marks-after-redo.png');

  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
  fs.rmSync(sample(), { force: true });
  await setConnections([]);
}

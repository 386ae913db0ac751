/**
 * Review marks survive a real window reload (issue #26). Before the reload: a run on the runner's reference
 * AgencyProxy (outside VS Code, so the run outlives the window) whose workspace file gets two separate edits while it
 * is open — the agent's edits on disk, in its local change set — and the person ticks *Reviewed* on both hunks in the
 * change-set view (from the keyboard); *Undo* on one hunk writes the file back (the other keeps its mark), and the
 * agent's hunk written again gets its mark back (same content, same key); the run is ended. After the reload
 * (workbench.action.reloadWindow; the runner gives this suite a launch of its own, test/harness/runIntegration.mjs,
 * and a state file says which half runs): the change set shows both hunks still reviewed, the board row says "2 of 2
 * hunks reviewed", and *Mark File Reviewed* in the native diff editor's title bar marks the file again after its
 * marks were cleared in the view.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { CHANGES_SCHEME } from '../../extension/ui/changeSets/changeSetDocuments';
import { NOTIFICATION_BUTTON, setViewExpanded } from './acpSupport';
import { wideSidebarScreenshot } from './screenshotFraming';
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
/** A notification, as a toast or in the notification center. */
const NOTIFICATION = '.notification-toast .notification-list-item, .notifications-center .notification-list-item';
const box = (hunk: number): string => `#cs-diff .cs-hunk input.cs-reviewed-box[data-file="0"][data-hunk="${hunk}"]`;

suite('Review marks', () => {
  test('two hunks reviewed, the window reloaded: the marks are still there; an undone hunk written again gets its mark back', async function () {
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

/** The text of an open side of the sample's change-set diff (the multi-diff editor's documents). */
function changeSetSide(side: 'before' | 'after'): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === CHANGES_SCHEME && d.uri.path === `/${FILE}` && new URLSearchParams(d.uri.query).get('side') === side);
  return doc?.getText();
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
  // The Transcript view gets the Connections view's height (the board above it stays: its row is checked later).
  await setViewExpanded('Connections', false);
  // The agent's edits, written to disk while the run is open: two hunks twenty lines apart.
  fs.writeFileSync(sample(), AGENT);
  await showChangeSet(runKey);
  assert.equal(await summary(), '0 of 2 hunks reviewed');
  // From the keyboard: Space on the focused checkbox (the narrow sidebar's list may cover a pointer's way to it).
  await ui({ action: 'press', selector: box(0), value: ' ', ...inView });
  await waitFor('one hunk reviewed', async () => (await summary()) === '1 of 2 hunks reviewed');
  await ui({ action: 'press', selector: box(1), value: ' ', ...inView });
  await waitFor('both hunks reviewed', async () => (await summary()) === '2 of 2 hunks reviewed');
  const hooks = await testHooks();
  await waitFor('the board row counts them', () => hooks.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === runKey)?.review?.reviewed === 2);
  // Undo the first hunk on disk: the file gets line 3 back; the other hunk keeps its mark.
  await ui({ action: 'press', selector: '#cs-diff .cs-hunk .cs-undo', value: 'Enter', ...inView });
  await waitFor('line 3 written back', () => fs.readFileSync(sample(), 'utf8') === text({ 25: 'line twenty-five, by the agent' }), 30000);
  await waitFor('one hunk left, still reviewed', async () => (await summary()) === '1 of 1 hunk reviewed', 30000);
  // The message that reports the Undo offers *Redo*: clicked in the notification center (headless, toasts go there),
  // the hunk of the change set as it was is applied to the file again, and its mark comes back (same content, same key).
  await vscode.commands.executeCommand('notifications.showList');
  await ui({ action: 'waitFor', selector: NOTIFICATION, hasText: `Reverted ${FILE} of the run` });
  await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Redo' });
  await waitFor('line 3 as the agent wrote it again', () => fs.readFileSync(sample(), 'utf8') === AGENT, 30000);
  await vscode.commands.executeCommand('notifications.hideList');
  await waitFor('both hunks reviewed again', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  await vscode.commands.executeCommand('notifications.clearAll');

  // The agent changes the second hunk again: its mark is dropped, and the view says so; the first keeps its mark.
  fs.writeFileSync(sample(), text({ 3: 'line three, by the agent', 25: 'line twenty-five, changed again by the agent' }));
  await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
  await waitFor('the changed hunk unreviewed', async () => (await summary()) === '1 of 2 hunks reviewed', 30000);
  await waitFor('the board row says so', () => hooks.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === runKey)?.review?.reviewed === 1);
  await ui({ action: 'waitFor', selector: '#cs-diff .cs-review-dropped', hasText: '1 review mark dropped: a hunk changed or undone after your review', ...inView });
  const hunkClasses = await ui<(string | null)[]>({ action: 'attribute', selector: '#cs-diff .cs-hunk', value: 'class', ...inView });
  assert.deepEqual(hunkClasses.map((c) => (c ?? '').split(/\s+/).includes('cs-reviewed-row')), [true, false], 'the first hunk keeps its mark');
  // The open multi-diff editor is redrawn from the change set as it is now, not left showing the one before.
  await waitFor('the multi-diff editor redrawn', () => changeSetSide('after')?.includes('line twenty-five, changed again by the agent'), 30000);
  // Both hunks in view: the board folded for the screenshot (its row's "1 of 2 hunks reviewed" is checked above).
  const runsWasExpanded = await setViewExpanded('Runs', false);
  try {
    await wideSidebarScreenshot('review-marks.png', async () => {
      await ui({ action: 'press', selector: '#cs-diff', value: 'Home', ...inView });
    });
  } finally {
    await setViewExpanded('Runs', runsWasExpanded);
  }
  // The agent's version written back: the same content, the same key, the mark again.
  fs.writeFileSync(sample(), AGENT);
  await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
  await waitFor('both hunks reviewed again', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  // Ended: its change set is final (the run's start to the files now), and comes back from the stored trees.
  assert.equal(await vscode.commands.executeCommand('agentSwitchboard.endRun', runKey), true);
  await waitFor('the run ended with its change set', () => !['idle', 'running'].includes(a.store.state.runs.get(runKey)?.state ?? 'idle') && a.store.state.changeSets.get(runKey)?.status === 'ready', 30000);
  await screenshot('review-marks-before-reload.png');
  fs.writeFileSync(marker, JSON.stringify({ runKey } satisfies BeforeReload));
}

async function afterReload(before: BeforeReload): Promise<void> {
  const a = await api();
  const hooks = await testHooks();
  await waitFor('the run restored and its daemon connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected' && a.store.state.runs.has(before.runKey), 60000);
  // Its review file is beside its journal, named after the run.
  assert.ok(fs.readdirSync(hooks.storageDir, { recursive: true }).some((f) => String(f).endsWith('.review.json')), 'the marks are stored');
  await setViewExpanded('Connections', false);
  // Show Change Set loads a run shown from its summary first (its driver restores the change set then).
  await showChangeSet(before.runKey).catch((error: unknown) => {
    const run = a.store.state.runs.get(before.runKey);
    const cs = a.store.state.changeSets.get(before.runKey);
    throw new Error(`${String(error)}; run ${run?.state} unloaded=${run?.unloaded !== undefined}; change set ${cs?.status} ${cs?.reason ?? ''}`);
  });
  await waitFor('both hunks still reviewed', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  assert.equal(await ui<number>({ action: 'count', selector: '#cs-diff .cs-hunk.cs-reviewed-row', ...inView }), 2);
  const row = await waitFor('the board row', () => hooks.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === before.runKey && r.review));
  assert.deepEqual(row.review, { reviewed: 2, total: 2 });
  await screenshot('review-marks-after-reload.png');

  // The native diff: the file's marks cleared in the view, then *Mark File Reviewed* in the diff editor's title bar.
  await ui({ action: 'press', selector: '#cs-diff .cs-file-row input.cs-reviewed-box', value: ' ', ...inView });
  await waitFor('the file unreviewed', async () => (await summary()) === '0 of 2 hunks reviewed', 30000);
  await vscode.commands.executeCommand('agentSwitchboard.openChangeSetFileDiff', before.runKey, FILE);
  await ui({ action: 'click', selector: '.editor-actions .action-label[aria-label="Mark File Reviewed"]', timeout: 20000 });
  await waitFor('the file reviewed from the diff editor', async () => (await summary()) === '2 of 2 hunks reviewed', 30000);
  await screenshot('review-marks-native-diff.png');

  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
  fs.rmSync(sample(), { force: true });
  await setViewExpanded('Connections', true);
  await setConnections([]);
}

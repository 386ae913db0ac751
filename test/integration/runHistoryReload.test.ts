/**
 * Run history through a real window reload (issue #25 §2 follow-up): a run removed with *Remove Run* is still gone
 * after the window reloads, although its daemon — the runner's reference AgencyProxy, outside VS Code, which like the
 * real one lists every run since it started (WIRE.md 1.9) — still lists it: not in the model, not on the board, not
 * in the Connections tree, not offered by *Search Run History…*, even after *Refresh* reads the daemon's list again;
 * the run kept beside it is back. Like the other reload suites, it has a launch of its own
 * (test/harness/runIntegration.mjs) and a state file says which half runs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { AgencyProxyClient } from '../../extension/drivers/agencyProxy/client';
import { api, screenshot, setConnections, testHooks, ui, waitFor } from './support';

const NAME = 'History reload daemon';
const CONNECTION = `agency-proxy:${NAME}`;
const TREE_ROW = '.pane-body .monaco-list-row';
const QUICK_PICK_ROW = '.quick-input-widget .monaco-list-row';

interface BeforeReload {
  readonly removedKey: string;
  readonly removedId: string;
  readonly removedTitle: string;
  readonly keptKey: string;
  readonly keptTitle: string;
}

/** Set by the runner for this suite's launch, the only one that runs it: missing, the test fails (it never skips). */
function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is set by the integration runner for the run-history reload launch`);
  }
  return value;
}

suite('Run history reload: a removed run', () => {
  test('a run removed before a window reload is still gone after it, though its daemon still lists it', async function () {
    const stateDir = env('SWITCHBOARD_HISTORY_RELOAD_STATE');
    const socketPath = env('SWITCHBOARD_RELOAD_SOCKET');
    const marker = path.join(stateDir, 'before-reload.json');
    if (fs.existsSync(marker)) {
      this.timeout(120000);
      await afterReload(socketPath, JSON.parse(fs.readFileSync(marker, 'utf8')) as BeforeReload);
      return;
    }
    // This window goes away mid-test: the test never ends here, and its runner with it (nothing is reported).
    this.timeout(0);
    await beforeReload(socketPath, marker);
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    await new Promise<never>(() => {});
  });
});

async function finishedRun(prompt: string): Promise<string> {
  const a = await api();
  const runKey = await vscode.commands.executeCommand<string>('agentSwitchboard.newRun', { connectionId: CONNECTION, provider: 'claude', model: '', permission: 'read_only', prompt, approvals: false, interactive: false });
  await waitFor(`${prompt}: completed`, () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
  return runKey;
}

/** The Connections tree shown, with the connection's runs listed under it. */
async function showTree(): Promise<void> {
  await vscode.commands.executeCommand('agentSwitchboard.connections.focus');
  await ui({ action: 'waitFor', selector: TREE_ROW, hasText: NAME, timeout: 30000 });
}

async function beforeReload(socketPath: string, marker: string): Promise<void> {
  const a = await api();
  await setConnections([{ name: NAME, protocol: 'agency-proxy', socketPath }]);
  await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
  const removedKey = await finishedRun('A run to remove notools');
  const keptKey = await finishedRun('A run to keep notools');
  const removed = a.store.state.runs.get(removedKey)!;
  const keptTitle = a.store.state.runs.get(keptKey)!.title;
  (await testHooks()).setRemovalConfirmation(async () => true);
  assert.equal(await vscode.commands.executeCommand('agentSwitchboard.removeRun', removedKey), true);
  await waitFor('its board row gone', () => !a.board.provider.snapshot().flatMap((g) => g.rows).some((r) => r.runKey === removedKey));
  await showTree();
  await ui({ action: 'waitFor', selector: TREE_ROW, hasText: keptTitle, timeout: 30000 });
  // The views render after the model changed (the renderer is another process): the kept run's row was there before
  // the removal, so it says nothing of whether the removed one's rows (board and tree) are gone yet.
  await waitFor('not in the tree, nor on the board', async () => (await ui<number>({ action: 'count', selector: TREE_ROW, hasText: removed.title })) === 0, 30000).catch((error: unknown) => {
    throw new Error(`${String(error)} (in the model: ${a.store.state.runs.has(removedKey)})`);
  });
  await screenshot('history-reload-before.png');
  const before: BeforeReload = { removedKey, removedId: removed.runId, removedTitle: removed.title, keptKey, keptTitle };
  fs.writeFileSync(marker, JSON.stringify(before));
}

async function afterReload(socketPath: string, before: BeforeReload): Promise<void> {
  const a = await api();
  await waitFor('connected again, the kept run back', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected' && a.store.state.runs.has(before.keptKey), 60000);
  // The daemon outlived the window and still lists the removed run (asked here, not of the extension).
  const client = await AgencyProxyClient.connect({ socketPath, clientName: 'history-reload-check' });
  try {
    assert.ok((await client.listRuns()).some((run) => run.runId === before.removedId), 'the daemon still lists the removed run');
  } finally {
    client.close();
  }
  await vscode.commands.executeCommand('agentSwitchboard.refresh'); // the daemon's list read again, as the view's poll does
  assert.equal(a.store.state.runs.has(before.removedKey), false, 'not in the model after the reload');
  assert.ok(!a.board.provider.snapshot().flatMap((g) => g.rows).some((r) => r.runKey === before.removedKey), 'not on the board');
  await showTree();
  await ui({ action: 'waitFor', selector: TREE_ROW, hasText: before.keptTitle, timeout: 30000 });
  assert.equal(await ui<number>({ action: 'count', selector: TREE_ROW, hasText: before.removedTitle }), 0, 'not in the Connections tree');
  await screenshot('history-reload-after.png');

  // Search Run History… has nothing to offer: the removed run is not archived, it is gone (no pick is shown).
  assert.equal(await vscode.commands.executeCommand('agentSwitchboard.searchRunHistory'), undefined);
  assert.equal(await ui<number>({ action: 'count', selector: QUICK_PICK_ROW, hasText: before.removedTitle }), 0);
  const hooks = await testHooks();
  const dir = path.join(hooks.storageDir, 'transcripts');
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  assert.ok(files.some((name) => name.endsWith('removed.json')), 'the removed id is kept beside the run index');
  await setConnections([]);
}

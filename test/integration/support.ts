/** Helpers for integration suites: the extension's API, waiting, screenshots, reference daemons. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../extension/extension';
import type { BoardRow } from '../../extension/model/boardRows';
import type { SwitchboardTestHooks } from '../../extension/switchboardTestHooks';
import { TEST_HOOKS_COMMAND } from '../../extension/switchboardTestHooks';

export const EXTENSION_ID = 'agent-switchboard.agent-switchboard';
/**
 * A choice of an approval notification: a link in its text (ui/approvals/approvalNotificationLinks.ts: the
 * notification is a progress one, closed once the request is settled, and takes no buttons), as a toast or in the
 * notification center.
 */
export const APPROVAL_NOTIFICATION_LINK = '.notification-toast .notification-list-item-message a, .notifications-center .notification-list-item-message a';

export async function api(): Promise<SwitchboardApi> {
  const extension = vscode.extensions.getExtension<SwitchboardApi | undefined>(EXTENSION_ID);
  if (!extension) {
    throw new Error(`extension ${EXTENSION_ID} not found`);
  }
  const exports = await extension.activate();
  if (!exports) {
    throw new Error('the extension failed to activate (see its log)');
  }
  return exports;
}

/**
 * The test hooks (modals, window focus, the storage folder): not in the public API, handed out by a command that only
 * an extension host started for tests registers.
 */
export async function testHooks(): Promise<SwitchboardTestHooks> {
  await api();
  const hooks = await vscode.commands.executeCommand<SwitchboardTestHooks | undefined>(TEST_HOOKS_COMMAND);
  if (!hooks) {
    throw new Error(`${TEST_HOOKS_COMMAND} gave nothing: the hooks exist only in an extension host started for tests`);
  }
  return hooks;
}

/**
 * How much longer every wait may take before it counts as a failure: `SWITCHBOARD_TIME_SCALE` (test/harness/
 * saturate.mjs sets 3 while busy loops hold every core). Waits are for states; their timeouts only detect what never
 * comes, so a loaded machine lengthens them instead of failing what is merely slow.
 */
export const TIME_SCALE = Math.max(1, Number(process.env.SWITCHBOARD_TIME_SCALE) || 1);

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs * TIME_SCALE;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function resultsDir(): string {
  const dir = process.env.SWITCHBOARD_TEST_RESULTS ?? path.join(__dirname, '..', '..', 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Asks the shim (which owns the browser) for a screenshot of the whole workbench and waits for the file. */
export async function screenshot(name: string): Promise<string> {
  const file = path.join(resultsDir(), name);
  if (!process.env.SHIM_SCREENSHOTS) {
    return file;
  }
  fs.rmSync(file, { force: true });
  console.log(`SHIM_SCREENSHOT ${file}`);
  await waitFor(`screenshot ${name}`, () => fs.existsSync(file), 30000);
  return file;
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new Error('the integration tests need a workspace folder');
  }
  return folder.uri.fsPath;
}

/** Starts a bundled reference daemon (out/fixtures/<name>.js) with the extension host's Node. */
export function startFixture(name: string, args: readonly string[]): ChildProcess {
  const dir = process.env.SWITCHBOARD_FIXTURES ?? path.join(__dirname, '..', 'fixtures');
  const child = spawn(process.execPath, [path.join(dir, `${name}.js`), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => process.stdout.write(`[${name}] ${d.toString()}`));
  child.stderr?.on('data', (d: Buffer) => process.stdout.write(`[${name}!] ${d.toString()}`));
  return child;
}

/**
 * Starts a reference AgencyProxy on a socket of its own and makes it the only connection, named `name`; resolves
 * once it is connected. The suite stops the daemon and clears the connections in its teardown.
 */
export async function connectAgencyProxyFixture(
  name: string,
  tempPrefix: string,
  options: { readonly recordRuns?: boolean } = {},
): Promise<{ readonly daemon: ChildProcess; readonly socketPath: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), tempPrefix));
  const socketPath = path.join(dir, 'run', 'runtime.sock');
  // `recordRuns`: the daemon keeps its record of every run (--record-dir), which a test can compare with.
  const record = options.recordRuns ? ['--record-dir', path.join(dir, 'state')] : [];
  const daemon = startFixture('agencyProxy', ['--socket', socketPath, ...record, '--workspace', workspaceDir()]);
  await waitFor('the daemon socket', () => fs.existsSync(socketPath));
  const a = await api();
  await setConnections([{ name, protocol: 'agency-proxy', socketPath }]);
  await waitFor('connected', () => a.store.state.connections.get(`agency-proxy:${name}`)?.state.kind === 'connected');
  return { daemon, socketPath };
}

export async function setConnections(profiles: readonly Record<string, unknown>[]): Promise<void> {
  await vscode.workspace.getConfiguration('agentSwitchboard').update('connections', profiles, vscode.ConfigurationTarget.Global);
}

export interface UiAction {
  readonly action: 'click' | 'count' | 'text' | 'textContent' | 'style' | 'attribute' | 'fill' | 'press' | 'waitFor' | 'value' | 'hover' | 'storedState';
  readonly selector: string;
  readonly hasText?: string;
  /** Act inside the visible extension webview instead of the workbench. */
  readonly webview?: boolean;
  /** With `webview`: which webview iframe when several are visible: a selector, or SIDEBAR_WEBVIEW / tabWebview(n). */
  readonly frame?: string | WebviewFrame;
  /** fill: the text; press: the key; attribute: the attribute's name; storedState: the storage key. */
  readonly value?: string;
  /** style: the CSS properties whose computed values are returned (of the first match). */
  readonly properties?: readonly string[];
  readonly timeout?: number;
}

/**
 * The `nth` webview drawn over a workbench part (`.part.sidebar`, `.part.editor`), found by the shim from where it is
 * on screen: the iframe itself does not say (its `purpose=webviewView` is gone once the view was hidden and shown).
 */
export interface WebviewFrame {
  readonly part: string;
  readonly nth?: number;
}

/** The rows of the Connections tree in the sidebar (the run board above it has rows for the same runs). */
export const CONNECTIONS_ROWS = '.pane:has(.pane-header:has-text("Connections")) .pane-body .monaco-list-row';

/** The sidebar's webview view (the Transcript). */
export const SIDEBAR_WEBVIEW: WebviewFrame = { part: '.part.sidebar' };
/** The webview of the `n`th visible editor tab (a WebviewPanel), in document order. */
export const tabWebview = (n = 0): WebviewFrame => ({ part: '.part.editor', nth: n });

/** Computed CSS values of the first element matching `selector` (in the webview when `webview`). */
export function computedStyle(selector: string, properties: readonly string[], webview = false): Promise<Record<string, string>> {
  return ui<Record<string, string>>({ action: 'style', selector, properties, webview });
}

let actionCounter = 0;

/** Asks the shim to act on the real workbench UI (click a notification button, an editor-title action…). */
export async function ui<T = unknown>(action: UiAction): Promise<T> {
  if (!process.env.SHIM_SCREENSHOTS) {
    throw new Error('UI actions need the code-server shim');
  }
  const file = path.join(resultsDir(), `.action-${process.pid}-${++actionCounter}.json`);
  fs.rmSync(file, { force: true });
  console.log(`SHIM_ACTION ${file} ${JSON.stringify(action)}`);
  const text = await waitFor(`UI action ${action.action} ${action.selector}`, () => fs.existsSync(file) && fs.readFileSync(file, 'utf8'), (action.timeout ?? 15000) + 10000);
  fs.rmSync(file, { force: true });
  const result = JSON.parse(text) as { ok: boolean; value?: T; error?: string };
  if (!result.ok) {
    throw new Error(`UI action failed: ${result.error}`);
  }
  return result.value as T;
}

/** The frames of `connection` in the protocol trace, both directions, as the trace file holds them. */
export async function traceOf(connection: string): Promise<{ protocol: string; dir: string; frame: Record<string, unknown> }[]> {
  const file = process.env.SWITCHBOARD_TRACE_FILE;
  if (!file) {
    throw new Error('the integration runner sets SWITCHBOARD_TRACE_FILE');
  }
  await (await api()).flushTrace();
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { protocol: string; connection: string; dir: string; frame: Record<string, unknown> })
    .filter((l) => l.connection === connection);
}

/** The frames this window sent to the connection named `connection`, read back from the protocol trace. */
export async function sentFrames(connection: string): Promise<Record<string, unknown>[]> {
  return (await traceOf(connection)).filter((l) => l.dir === 'out').map((l) => l.frame);
}

/**
 * Whether a *Needs you* row is something the user can act on now (issue #25 §4), read from what the board shows —
 * independently of the extension's own rule (`needOf`), which the suites check against it.
 */
export function actionableNeed(r: BoardRow): boolean {
  return (
    (r.need === 'approval' && r.approvals.length + (r.children ?? []).reduce((n, c) => n + c.approvals.length, 0) > 0) ||
    r.need === 'question' ||
    (r.need === 'message' && r.canReply) ||
    (r.need === 'failed' && (['failed', 'lost'].includes(r.state) || r.look.changeSetRefused !== undefined))
  );
}

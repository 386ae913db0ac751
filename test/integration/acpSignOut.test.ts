/**
 * Sign-in, redaction by value and Sign Out in a real VS Code, with the reference agent in `--auth` mode (it refuses
 * sessions until it is authenticated with the key in its environment): *Sign In to ACP Agent…* from the palette keeps
 * the key in VS Code's secret storage; a file holding the key, read by the agent, reaches the protocol trace with the
 * key redacted; *Sign Out of ACP Agent* deletes the stored sign-in, says so in a notification, and the restarted agent
 * wants a sign-in again; removing the profile from the settings deletes its sign-in too.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { api, screenshot, testHooks, ui, waitFor, workspaceDir } from './support';
import { addConnections, clearNotifications, fixturePath, removeConnections, traceOf } from './acpSupport';

const NAME = 'ACP sign-in';
const CONNECTION = `acp:${NAME}`;
/** The reference agent's env_var method and variable (test/fixtures/acp/referenceAgent.ts). */
const METHOD = 'ref-api-key';
const VARIABLE = 'REF_ACP_API_KEY';
const KEY = 'sk-integration-5e2d8a1c9b7f';
const FILE = 'acp-signin-config.env';

suite('ACP sign-in and sign-out', () => {
  let stateDir: string;
  let file: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-auth-'));
    file = path.join(workspaceDir(), FILE);
    fs.writeFileSync(file, `${VARIABLE}=${KEY}\n`);
    const a = await api();
    await addConnections([{ name: NAME, protocol: 'acp', command: process.execPath, args: [fixturePath('acp'), '--state-dir', stateDir, '--auth'] }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
  });

  suiteTeardown(async () => {
    await clearNotifications();
    await removeConnections([NAME]);
    fs.rmSync(file, { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const startRun = async (prompt: string): Promise<string> => (await testHooks()).connections.driver(CONNECTION)!.startRun!({ prompt, workspaceRoots: [workspaceDir()] });

  test('signed in from the palette, a file with the key is read by the agent; the trace has it redacted', async () => {
    await assert.rejects(startRun('hello'), /sign in first/);
    assert.notEqual(await vscode.commands.executeCommand('agentSwitchboard.acp.signIn', CONNECTION, { method: METHOD, [VARIABLE]: KEY }), false);
    await startRun(`edit:${FILE}`);
    const read = await waitFor('the file read went out', async () => {
      const lines = await traceOf(NAME);
      return lines.find((l) => l.dir === 'out' && typeof (l.frame.result as { content?: unknown } | undefined)?.content === 'string');
    }, 20000);
    assert.equal((read.frame.result as { content: string }).content, `${VARIABLE}=<redacted>\n`);
    assert.equal(JSON.stringify(await traceOf(NAME)).includes(KEY), false, 'the key is nowhere in the trace');
  });

  test('Sign Out deletes the stored sign-in and says so; the restarted agent wants a sign-in again', async () => {
    const a = await api();
    await clearNotifications();
    assert.notEqual(await vscode.commands.executeCommand('agentSwitchboard.acp.signOut', CONNECTION, { confirmed: true }), false);
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notification-list-item', hasText: `${VARIABLE} deleted from VS Code's secret storage` });
    await screenshot('acp-sign-out.png');
    await vscode.commands.executeCommand('notifications.hideList');
    await waitFor('connected again', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    await assert.rejects(startRun('hello'), /sign in first/);
  });

  test('removing the profile deletes its sign-in: added back as it was, the agent wants a sign-in again', async () => {
    const a = await api();
    const profile = { name: NAME, protocol: 'acp', command: process.execPath, args: [fixturePath('acp'), '--state-dir', stateDir, '--auth'] };
    assert.notEqual(await vscode.commands.executeCommand('agentSwitchboard.acp.signIn', CONNECTION, { method: METHOD, [VARIABLE]: KEY }), false);
    await startRun('hello');
    await removeConnections([NAME]);
    await waitFor('the connection gone', () => !a.store.state.connections.has(CONNECTION));
    await addConnections([profile]);
    await waitFor('connected again', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    await assert.rejects(startRun('hello'), /sign in first/);
  });
});

/**
 * What ships is what is tested: this suite runs in a launch of its own (runIntegration.mjs, "Installed package") on a
 * VS Code that has the packaged .vsix installed with `--install-extension` and no development path, so it exercises
 * the files the package holds, not the working tree. A file `.vscodeignore` leaves out (a lazy bundle, the webview's
 * script or stylesheet, the codicons) fails here. The extension runs as a user's does (ExtensionMode.Production): no
 * test hooks, only the public API, commands and the UI.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { TEST_HOOKS_COMMAND } from '../../extension/switchboardTestHooks';
import { api, EXTENSION_ID, screenshot, setConnections, SIDEBAR_WEBVIEW, startFixture, ui, waitFor, workspaceDir } from './support';

const CONNECTION = 'agency-proxy:Packaged AgencyProxy';

suite('Installed package', () => {
  let daemon: ChildProcess | undefined;

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('the extension that runs is the one installed from the .vsix, with its license and icon', async () => {
    const extensions = process.env.SWITCHBOARD_INSTALLED_EXTENSIONS;
    assert.ok(extensions, 'the runner names the extensions directory the package was installed into');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    assert.ok(fs.realpathSync(extension.extensionPath).startsWith(fs.realpathSync(extensions) + path.sep), `${extension.extensionPath} is not under ${extensions}`);
    const manifest = extension.packageJSON as { icon?: string; license?: string };
    assert.ok(manifest.icon && fs.existsSync(path.join(extension.extensionPath, manifest.icon)), 'the icon ships');
    assert.equal(manifest.license, 'MIT');
    assert.ok(fs.readdirSync(extension.extensionPath).some((f) => /^license/i.test(f)), 'the license file ships');
    await api();
    // Installed, it runs as a user's extension does: the hooks exist only for an extension under development.
    assert.deepEqual((await vscode.commands.getCommands(true)).filter((c) => c === TEST_HOOKS_COMMAND), []);
  });

  test('a run on a reference AgencyProxy streams into the Transcript webview (the drivers load on demand)', async () => {
    const a = await api();
    // The first connection loads the drivers (dist/driverClasses.js): a package without them fails to connect.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-vsix-'));
    const socketPath = path.join(dir, 'run', 'runtime.sock');
    daemon = startFixture('agencyProxy', ['--socket', socketPath, '--workspace', workspaceDir()]);
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
    await setConnections([{ name: 'Packaged AgencyProxy', protocol: 'agency-proxy', socketPath }]);
    const state = () => a.store.state.connections.get(CONNECTION)?.state;
    await waitFor('connected', () => state()?.kind === 'connected').catch((error: unknown) => {
      throw new Error(`${String(error)}; the connection: ${JSON.stringify(state() ?? 'none')}`);
    });
    const runKey = await vscode.commands.executeCommand<string>('agentSwitchboard.newRun', {
      connectionId: CONNECTION,
      provider: 'claude',
      model: '',
      permission: 'edit',
      prompt: 'Say hello from the package noedit',
      interactive: false,
    });
    assert.equal(typeof runKey, 'string', 'the command returns the new run');
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await vscode.commands.executeCommand('agentSwitchboard.transcript.focus');
    // The webview's script (dist/webview.js) rendered the answer as markdown.
    const texts = await waitFor('the answer in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="text"]', webview: true, frame: SIDEBAR_WEBVIEW }).catch((): string[] => []);
      return t.some((x) => x.includes('Plan')) && t;
    });
    assert.ok(texts.some((x) => x.includes('Plan') && !x.includes('## ')), `rendered markdown: ${texts.join(' | ')}`);
    // media/transcript.css loaded: the body takes the workbench's sidebar background.
    const style = (selector: string, properties: string[]): Promise<Record<string, string>> => ui({ action: 'style', selector, properties, webview: true, frame: SIDEBAR_WEBVIEW });
    const sidebar = await ui<Record<string, string>>({ action: 'style', selector: '.part.sidebar', properties: ['background-color'] });
    assert.equal((await style('body', ['background-color']))['background-color'], sidebar['background-color'], 'transcript.css is loaded');
    // dist/codicons/codicon.css loaded: it is what gives an icon its font.
    assert.match((await style('.codicon', ['font-family']))['font-family']!, /codicon/);
    await screenshot('installed-package-transcript.png');
  });

  test('the palette flows loaded on demand run from the package (their bundles ship)', async () => {
    const a = await api();
    // Each call loads its bundle (dist/runHistoryFeature.js, dist/approvalRuleCommandsFeature.js,
    // dist/workspaceConsentFeature.js, dist/manageConnectionsFeature.js): one the package left out rejects here.
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.searchRunHistory'), undefined, 'no run is archived');
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.revokeApprovalRule', 'no-such-rule'), false, 'no such rule');
    await vscode.commands.executeCommand('agentSwitchboard.forgetWorkspaceConnectionConsent');
    const profiles = vscode.workspace.getConfiguration('agentSwitchboard').get<{ socketPath?: string }[]>('connections') ?? [];
    const socketPath = profiles.find((p) => p.socketPath !== undefined)?.socketPath;
    assert.ok(socketPath, 'the daemon of the test before');
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.manageConnections', { socketPath, name: 'Packaged again' }), 'Packaged again');
    await waitFor('the added profile loaded', () => a.store.state.connections.has('agency-proxy:Packaged again'));
  });
});

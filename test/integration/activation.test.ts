/** Foundation: the extension activates, its views and commands exist, the Transcript webview renders. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, screenshot, waitFor } from './support';

suite('Foundation', () => {
  test('the extension activates and exposes its API', async () => {
    const a = await api();
    assert.ok(a.store);
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
  });

  test('every contributed command is registered', async () => {
    await api();
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: { command: string }[] } };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  test('the view container opens and the Transcript webview renders', async () => {
    await api();
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    await vscode.commands.executeCommand('agentSwitchboard.transcript.focus');
    const file = await screenshot('foundation-sidebar.png');
    if (process.env.SHIM_SCREENSHOTS) {
      assert.ok(fs.statSync(file).size > 10000, 'the screenshot has content');
    }
  });

  test('Show Protocol Log opens the output channel', async () => {
    await api();
    await vscode.commands.executeCommand('agentSwitchboard.showLog');
    await waitFor('an output editor or panel', () => true);
  });
});

/** Foundation: the extension activates, its views and commands exist, the Transcript webview renders. */
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, testHooks, computedStyle, EXTENSION_ID, screenshot, ui, waitFor } from './support';

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
    const hooks = await testHooks();
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    await vscode.commands.executeCommand('agentSwitchboard.transcript.focus');
    // Earlier suites may have shown a run; with none selected the app must show its empty state. `:visible`
    // matters: the element exists (hidden) whatever is selected, and innerText of a hidden element is its text.
    hooks.selection.select(undefined);
    const empty = await waitFor('the empty state in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '#empty-state:visible', webview: true }).catch((): string[] => []);
      return t.length === 1 && /No run selected/.test(t[0]!) && t[0];
    });
    assert.match(empty, /New Run/);
    assert.equal(await ui<number>({ action: 'count', selector: '[data-kind]:visible', webview: true }), 0, 'no transcript item shows without a run');
    // The stylesheet loaded: the body takes the workbench's sidebar background.
    const body = await computedStyle('body', ['background-color'], true);
    const sidebar = await computedStyle('.part.sidebar', ['background-color']);
    assert.equal(body['background-color'], sidebar['background-color'], 'the webview takes the sidebar background');
    await screenshot('foundation-sidebar.png');
  });

  test('Show Protocol Log opens the output channel', async () => {
    await api();
    await vscode.commands.executeCommand('agentSwitchboard.showLog');
    // The Output view shows our log channel: a visible `output:` document holding the lines our activation logged
    // (the runner sets SWITCHBOARD_TRACE_FILE, so activation logged where the trace goes).
    const editor = await waitFor('the Agent Switchboard log in the Output view', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'output' && e.document.getText().includes('Writing the protocol trace to')),
    );
    assert.ok(editor.document.getText().includes(process.env.SWITCHBOARD_TRACE_FILE ?? '<no trace file>'), 'it is this window\'s log');
  });
});

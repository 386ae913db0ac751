/**
 * *Show Protocol Log* in a real VS Code: at the default level it offers to switch the log to Trace; accepted, the
 * channel is at Trace and every frame of a connection appears in it (the HTTP-free AgencyProxy socket here).
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { connectAgencyProxyFixture, screenshot, setConnections, ui, waitFor } from './support';

const NAME = 'Log Proxy';
const NOTIFICATION_BUTTON = '.notification-toast .monaco-button, .notifications-center .monaco-button';

/** The Output panel's visible text (Monaco renders spaces as no-break spaces and wraps long lines). */
async function logText(): Promise<string> {
  const views = await ui<string[]>({ action: 'text', selector: '.panel .view-lines' }).catch((): string[] => []);
  return views.join('\n').replace(/\u00a0/g, ' ').replace(/\n/g, '');
}

suite('Protocol log', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-plog-'));
  });

  suiteTeardown(async () => {
    // Back to the default level, with the channel active, so later suites do not log every frame.
    await vscode.commands.executeCommand('agentSwitchboard.showLog');
    await vscode.commands.executeCommand('workbench.action.output.activeOutputLogLevel.3');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('Show Protocol Log offers Trace; accepted, the frames are in the log', async () => {
    const shown = vscode.commands.executeCommand('agentSwitchboard.showLog');
    // The harness keeps informational toasts in the notification center (do not disturb): open it.
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Show Every Frame (Trace)' });
    await shown;
    await waitFor('the confirmation in the log', async () => (await logText()).includes('Log level set to Trace'));
    // A frame exchange after the switch: Refresh lists the runs again.
    await vscode.commands.executeCommand('agentSwitchboard.refresh');
    const text = await waitFor('a frame in the log', async () => {
      const t = await logText();
      return /\[trace\] Log Proxy → \{.*?"type":"list_runs"/.test(t) && t;
    });
    assert.match(text, /\[trace\] Log Proxy ← \{.*?"type":"runs"/);
    await screenshot('protocol-log-trace.png');
  });
});

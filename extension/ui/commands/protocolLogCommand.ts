/**
 * *Show Protocol Log*: the extension's log, which lists every frame on every connection at Trace level. At any other
 * level it shows only connection events, so the command offers to switch the channel to Trace (VS Code's own
 * "Set Log Level" of the Output view, applied to this channel once it is the active one).
 */
import * as vscode from 'vscode';

/** VS Code's Output view action that sets the active output channel's level (1 = Trace). */
const SET_ACTIVE_CHANNEL_TRACE = 'workbench.action.output.activeOutputLogLevel.1';
const SHOW_FRAMES = 'Show Every Frame (Trace)';

/** Shows the log; below Trace it also offers Trace, without waiting for the answer (the command is done once shown). */
export function showProtocolLog(log: vscode.LogOutputChannel): void {
  log.show(true);
  if (log.logLevel !== vscode.LogLevel.Trace) {
    offerTrace(log).catch((error: unknown) => log.warn(`Switching the log to Trace: ${error instanceof Error ? error.message : String(error)}`));
  }
}

async function offerTrace(log: vscode.LogOutputChannel): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    `The log is at level ${vscode.LogLevel[log.logLevel]}: protocol frames are logged only at Trace.`,
    SHOW_FRAMES,
  );
  if (choice !== SHOW_FRAMES) {
    return;
  }
  log.show(true);
  // The level reaches the extension host a moment later: confirm it then, in the log itself.
  const confirm = log.onDidChangeLogLevel((level) => {
    confirm.dispose();
    if (level === vscode.LogLevel.Trace) {
      log.info('Log level set to Trace: every protocol frame is logged from now on (secrets redacted, long strings shortened).');
    }
  });
  try {
    await vscode.commands.executeCommand(SET_ACTIVE_CHANNEL_TRACE);
  } catch {
    // An editor without that Output view action: its own picker (choose "Agent Switchboard", then Trace).
    await vscode.commands.executeCommand('workbench.action.setLogLevel');
  }
}

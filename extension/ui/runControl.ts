/**
 * What a person does to a run — show it, send it a message, cancel it, end it — for every surface alike: the palette
 * commands resolve their argument to a run and call these, the transcript's messages call them with the run they
 * name. Each says why when the run's daemon cannot do it now.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../drivers/connectionManager';
import { errorText } from '../drivers/kit/errors';
import type { RunInfo } from '../model/modelTypes';
import type { RunKey } from '../model/runKeys';
import type { RunStore } from '../model/runStore';
import { isActiveRun, isEndableRun } from './commands/pickers';
import type { RunSelection } from './runSelection';
import type { TranscriptSidebar } from './transcript/transcriptSidebar';

export class RunControl {
  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly selection: RunSelection,
    private readonly sidebar: TranscriptSidebar,
  ) {}

  /** Selects the run and shows its transcript in the sidebar. */
  async show(runKey: RunKey): Promise<void> {
    this.selection.select(runKey);
    await this.sidebar.reveal();
  }

  /** Sends `text` to the run (asked for when not given); an empty message is not sent. */
  async send(run: RunInfo, text?: string): Promise<void> {
    const driver = this.connections.driver(run.connectionId);
    if (!driver?.sendMessage) {
      void vscode.window.showWarningMessage('This run does not take messages (its daemon is not connected or does not support it).');
      return;
    }
    const body = text ?? (await vscode.window.showInputBox({ prompt: `Message to "${run.title}"`, validateInput: (v) => (v.trim() ? undefined : 'Enter a message') }));
    if (!body) {
      return;
    }
    try {
      await this.deliver(run, body);
    } catch (error) {
      void vscode.window.showErrorMessage(`The message was not sent: ${errorText(error)}`);
    }
  }

  /**
   * Sends `text` the way the composer's Send does (the driver injects it, or queues it while a turn runs, as its
   * daemon does); throws with the reason when it was not accepted. For senders that keep what they send until it is
   * (Send Notes to Agent).
   */
  async deliver(run: RunInfo, text: string): Promise<void> {
    const driver = this.connections.driver(run.connectionId);
    if (!driver?.sendMessage) {
      throw new Error('its daemon is not connected or takes no messages');
    }
    await driver.sendMessage(run.runId, text);
  }

  async cancel(run: RunInfo): Promise<void> {
    const driver = this.connections.driver(run.connectionId);
    if (!driver?.cancelRun) {
      void vscode.window.showWarningMessage('This run cannot be cancelled from here (its daemon is not connected).');
      return;
    }
    try {
      await driver.cancelRun(run.runId);
    } catch (error) {
      void vscode.window.showErrorMessage(`Cancel failed: ${errorText(error)}`);
    }
  }

  /**
   * Ends an interactive run that waits for input. Such a run never ends by itself (WIRE.md 1.5): ending it is a
   * cancel_run once it waits. Says whether it was ended.
   */
  async end(run: RunInfo): Promise<boolean> {
    const driver = this.connections.driver(run.connectionId);
    if (!isEndableRun(this.store.state, run) || !driver?.cancelRun) {
      const why = run.state === 'idle' ? 'its daemon is not connected' : isActiveRun(run) ? 'it is not waiting for your message — Cancel Run stops it' : 'it has already ended';
      void vscode.window.showInformationMessage(`"${run.title}" cannot be ended now: ${why}.`);
      return false;
    }
    try {
      await driver.cancelRun(run.runId);
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(`End Run failed: ${errorText(error)}`);
      return false;
    }
  }
}

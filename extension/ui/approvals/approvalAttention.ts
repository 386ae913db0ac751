/**
 * Attention for approvals that arrive while the window is in the background: the status bar item's warning
 * background (and the badge's tooltip) say a request came in while the user was away, until it is answered; behind
 * `agentSwitchboard.approvals.osNotification` (off by default, local only) an OS notification too. The window's
 * focus is read through `WindowFocus`, which the integration tests can override (the test hooks, switchboardTestHooks.ts).
 */
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { attentionFor, osNotificationCommand } from './attentionPolicy';

/** Whether the window has focus: VS Code's window state, unless a test said otherwise. */
export class WindowFocus extends Disposable {
  private override: boolean | undefined;
  private readonly emitter = this._register(new vscode.EventEmitter<boolean>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this._register(vscode.window.onDidChangeWindowState((s) => this.override === undefined && this.emitter.fire(s.focused)));
  }

  get focused(): boolean {
    return this.override ?? vscode.window.state.focused;
  }

  /** Tests simulate focus loss with `false`; `undefined` returns to the real window state. */
  setOverride(focused: boolean | undefined): void {
    this.override = focused;
    this.emitter.fire(this.focused);
  }
}

export class ApprovalAttention extends Disposable {
  /** Requests that arrived while the window was not focused and still wait. */
  private readonly away = new Set<string>();
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  /** The OS notifications sent (their text), newest last: the tests read it where no notification daemon runs. */
  readonly osNotified: string[] = [];

  constructor(
    readonly focus: WindowFocus,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
  }

  /** A request was just announced with `message`. */
  arrived(approvalKey: string, message: string): void {
    const setting = vscode.workspace.getConfiguration('agentSwitchboard').get<boolean>('approvals.osNotification', false);
    const attention = attentionFor(this.focus.focused, setting, vscode.env.remoteName);
    if (attention.markAway) {
      this.away.add(approvalKey);
      this.emitter.fire();
    }
    if (attention.osNotification) {
      this.notifyOs(message);
    }
  }

  /** Whether any of `pendingKeys` arrived while the user was away. */
  anyAway(pendingKeys: readonly string[]): boolean {
    return pendingKeys.some((k) => this.away.has(k));
  }

  /** Forgets requests that no longer wait. */
  settled(approvalKey: string): void {
    if (this.away.delete(approvalKey)) {
      this.emitter.fire();
    }
  }

  private notifyOs(message: string): void {
    const command = osNotificationCommand(process.platform, 'Agent Switchboard', message);
    if (!command) {
      this.log.info(`No OS notification on ${process.platform}`);
      return;
    }
    this.osNotified.push(message);
    // Fixed program and arguments, no shell; a missing notify-send is a log line, not an error for the user.
    execFile(command.file, [...command.args], { timeout: 10_000 }, (error) => {
      if (error) {
        this.log.warn(`OS notification via ${command.file} failed: ${error.message}`);
      }
    });
  }
}

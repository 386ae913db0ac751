/**
 * The "Transcript" webview view in the sidebar: a TranscriptSurface that follows the run selection. Reopening the
 * view resolves it again and repaints from a fresh snapshot (no retainContextWhenHidden). Editor tabs of single runs
 * are TranscriptPanels'.
 */
import * as vscode from 'vscode';
import type { ChangeSetMessage, HostToWebview } from '../protocol/webviewMessages';
import { Disposable } from './disposable';
import type { RunSelection } from './runSelection';
import type { SurfaceDeps } from './transcript/transcriptSurface';
import { TranscriptSurface } from './transcript/transcriptSurface';

export class TranscriptViewProvider extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewType = 'agentSwitchboard.transcript';

  private view: vscode.WebviewView | undefined;
  private readonly visibilityEmitter = this._register(new vscode.EventEmitter<void>());
  /** `isVisible` may have changed (shown, hidden, resolved, disposed). */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;
  private surface: TranscriptSurface | undefined;
  /** A change set asked for before the view was resolved: handed to its surface. */
  private pendingChangeSet: ChangeSetMessage | undefined;

  constructor(
    private readonly deps: SurfaceDeps,
    private readonly selection: RunSelection,
  ) {
    super();
    this._register(selection.onDidChange(() => this.surface?.runChanged()));
    this._register({ dispose: () => this.disposeSurface() });
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeSurface();
    this.view = view;
    const surface = new TranscriptSurface(view.webview, { kind: 'selection', runKey: () => this.selection.runKey }, this.deps);
    this.surface = surface;
    if (this.pendingChangeSet) {
      surface.showChangeSet(this.pendingChangeSet);
      this.pendingChangeSet = undefined;
    }
    view.onDidChangeVisibility(() => this.visibilityEmitter.fire());
    view.onDidDispose(() => {
      if (this.surface === surface) {
        this.disposeSurface();
        this.view = undefined;
      }
      this.visibilityEmitter.fire();
    });
    this.visibilityEmitter.fire();
  }

  /** Reveals the view (and the sidebar) without stealing focus unless asked. */
  async reveal(focus = false): Promise<void> {
    await vscode.commands.executeCommand(`${TranscriptViewProvider.viewType}.focus`);
    if (!focus) {
      this.view?.show(true);
    }
  }

  post(message: HostToWebview): void {
    this.surface?.post(message);
  }

  /** Scrolls the view to the card of `approvalId` when it shows that approval's run. */
  revealApproval(approvalId: string): void {
    this.surface?.revealApproval(approvalId);
  }

  /**
   * Shows a run's change set in place of the transcript. The run should be the selected one; if the view is not
   * ready yet (it is being revealed), the message waits for its first snapshot.
   */
  showChangeSet(message: ChangeSetMessage): void {
    if (this.surface) {
      this.surface.showChangeSet(message);
    } else {
      this.pendingChangeSet = message;
    }
  }

  private disposeSurface(): void {
    this.surface?.dispose();
    this.surface = undefined;
  }
}

/**
 * The sidebar's "Transcript" view as the rest of the UI sees it: reveal it, post to it, show a change set or an
 * approval card in it. It holds the view and its surface once VS Code resolves the view (TranscriptViewProvider
 * builds the surface and attaches it here), so the services that show things in the transcript are built before, and
 * without, the surfaces whose messages they serve.
 */
import * as vscode from 'vscode';
import type { ChangeSetMessage, HostToWebview } from '../../protocol/webviewMessages';
import { Disposable } from '../disposable';
import type { TranscriptSurface } from './transcriptSurface';

export class TranscriptSidebar extends Disposable {
  static readonly viewType = 'agentSwitchboard.transcript';

  private view: vscode.WebviewView | undefined;
  private surface: TranscriptSurface | undefined;
  private readonly visibilityEmitter = this._register(new vscode.EventEmitter<void>());
  /** `isVisible` may have changed (shown, hidden, resolved, disposed). */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;
  /** A change set asked for before the view was resolved: handed to its surface. */
  private pendingChangeSet: ChangeSetMessage | undefined;

  constructor() {
    super();
    this._register({ dispose: () => this.disposeSurface() });
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The view VS Code resolved (again), with the surface built for it; replaces the one before. */
  attach(view: vscode.WebviewView, surface: TranscriptSurface): void {
    this.disposeSurface();
    this.view = view;
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

  /** The selection changed: the surface follows it. */
  runChanged(): void {
    this.surface?.runChanged();
  }

  /** Reveals the view (and the sidebar) without stealing focus unless asked. */
  async reveal(focus = false): Promise<void> {
    await vscode.commands.executeCommand(`${TranscriptSidebar.viewType}.focus`);
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

/**
 * Builds the sidebar's "Transcript" view when VS Code resolves it: a TranscriptSurface that follows the run selection,
 * handed to the TranscriptSidebar that the rest of the UI shows things through. Reopening the view resolves it again
 * and repaints from a fresh snapshot (no retainContextWhenHidden). Editor tabs of single runs are TranscriptPanels'.
 */
import type * as vscode from 'vscode';
import { Disposable } from './disposable';
import type { RunSelection } from './runSelection';
import type { TranscriptSidebar } from './transcript/transcriptSidebar';
import type { SurfaceDeps } from './transcript/transcriptSurface';
import { TranscriptSurface } from './transcript/transcriptSurface';

export class TranscriptViewProvider extends Disposable implements vscode.WebviewViewProvider {
  constructor(
    private readonly sidebar: TranscriptSidebar,
    private readonly deps: SurfaceDeps,
    private readonly selection: RunSelection,
  ) {
    super();
    this._register(selection.onDidChange(() => sidebar.runChanged()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.sidebar.attach(view, new TranscriptSurface(view.webview, { kind: 'selection', runKey: () => this.selection.runKey }, this.deps));
  }
}

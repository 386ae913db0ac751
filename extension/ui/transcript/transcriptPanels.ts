/**
 * Opens transcripts in editor tabs: one WebviewPanel per run ("Open in Editor"), beside the code, each a
 * TranscriptSurface fixed to its run, kept in TranscriptTabs. Opening a run that already has a tab reveals it. After
 * a window reload VS Code hands the tabs back to this serializer with the state their webview stored (`tabRunKey`,
 * see webview/uiState.ts); a tab whose run is not restored yet shows "waiting" and fills in when the run appears.
 */
import * as vscode from 'vscode';
import type { SurfaceDeps } from './transcriptSurface';
import { TranscriptSurface } from './transcriptSurface';
import type { TranscriptTabs } from './transcriptTabs';

export class TranscriptPanels implements vscode.WebviewPanelSerializer {
  static readonly viewType = 'agentSwitchboard.transcriptPanel';

  constructor(
    private readonly tabs: TranscriptTabs,
    private readonly deps: SurfaceDeps,
  ) {}

  /** Opens `runKey`'s transcript in an editor tab beside the active editor, or reveals its tab. */
  open(runKey: string, preserveFocus = false): void {
    const open = this.tabs.panelOf(runKey);
    if (open) {
      open.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      TranscriptPanels.viewType,
      this.tabs.titleOf(runKey),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      // The surface repaints from a snapshot when the tab is shown again: no retained hidden webview. No find widget:
      // it would search only the rows on screen; the transcript's own find (Ctrl/Cmd+F) searches the whole run.
      { enableScripts: true, enableFindWidget: false, retainContextWhenHidden: false },
    );
    this.adopt(panel, runKey);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const runKey = tabRunKeyOf(state);
    if (!runKey || this.tabs.panelOf(runKey)) {
      // Nothing says which run it showed (or that run has a tab already): a blank tab helps nobody.
      this.deps.log.warn('Closed a restored transcript tab that did not say which run it showed.');
      panel.dispose();
      return;
    }
    this.adopt(panel, runKey);
  }

  private adopt(panel: vscode.WebviewPanel, runKey: string): void {
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'transcript-tab-light.svg'),
      dark: vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'transcript-tab-dark.svg'),
    };
    this.tabs.add(runKey, panel, new TranscriptSurface(panel.webview, { kind: 'fixed', runKey }, this.deps));
  }
}

/** The run key a tab's webview stored with `setState` (webview/uiState.ts), if any. */
function tabRunKeyOf(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'tabRunKey' in state && typeof state.tabRunKey === 'string' && state.tabRunKey !== '') {
    return state.tabRunKey;
  }
  return undefined;
}

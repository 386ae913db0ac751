/**
 * Transcripts in editor tabs: one WebviewPanel per run ("Open in Editor"), beside the code, each a TranscriptSurface
 * fixed to its run. Opening a run that already has a tab reveals it. The tab's title follows the run's title. After a
 * window reload VS Code hands the tabs back to the serializer with the state their webview stored (`tabRunKey`,
 * see webview/uiState.ts); a tab whose run is not restored yet shows "waiting" and fills in when the run appears.
 */
import * as vscode from 'vscode';
import type { ChangeSetMessage, HostToWebview } from '../../protocol/webviewMessages';
import { Disposable } from '../disposable';
import type { SurfaceDeps } from './transcriptSurface';
import { TranscriptSurface } from './transcriptSurface';

const UNKNOWN_RUN_TITLE = 'Agent transcript';

interface OpenPanel {
  readonly panel: vscode.WebviewPanel;
  readonly surface: TranscriptSurface;
}

/** What the integration tests (and automation) may read about the open tabs. */
export interface TranscriptPanelInfo {
  readonly runKey: string;
  readonly title: string;
  /** Its webview loaded and was sent the run's snapshot. */
  readonly ready: boolean;
  readonly visible: boolean;
}

export class TranscriptPanels extends Disposable implements vscode.WebviewPanelSerializer {
  static readonly viewType = 'agentSwitchboard.transcriptPanel';

  private readonly panels = new Map<string, OpenPanel>();

  constructor(private readonly deps: SurfaceDeps) {
    super();
    this._register(deps.store.onDidChange(() => this.updateTitles()));
    this._register({ dispose: () => this.disposePanels() });
  }

  /** Opens `runKey`'s transcript in an editor tab beside the active editor, or reveals its tab. */
  open(runKey: string, preserveFocus = false): void {
    const open = this.panels.get(runKey);
    if (open) {
      open.panel.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      TranscriptPanels.viewType,
      this.titleOf(runKey),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      // The surface repaints from a snapshot when the tab is shown again: no retained hidden webview. No find widget:
      // it would search only the rows on screen; the transcript's own find (Ctrl/Cmd+F) searches the whole run.
      { enableScripts: true, enableFindWidget: false, retainContextWhenHidden: false },
    );
    this.adopt(panel, runKey);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const runKey = tabRunKeyOf(state);
    if (!runKey || this.panels.has(runKey)) {
      // Nothing says which run it showed (or that run has a tab already): a blank tab helps nobody.
      this.deps.log.warn('Closed a restored transcript tab that did not say which run it showed.');
      panel.dispose();
      return;
    }
    this.adopt(panel, runKey);
  }

  /** Shows a change set in its run's tab, if the run has one (it waits there for the tab's webview to be ready). */
  showChangeSet(message: ChangeSetMessage): void {
    this.panels.get(message.runKey)?.surface.showChangeSet(message);
  }

  /** Posts `message` to the transcript tab that is the active editor, if one is; says whether one was. */
  postToActive(message: HostToWebview): boolean {
    for (const { panel, surface } of this.panels.values()) {
      if (panel.active) {
        surface.post(message);
        return true;
      }
    }
    return false;
  }

  /** The open tabs, in the order they were opened. */
  list(): TranscriptPanelInfo[] {
    return [...this.panels].map(([runKey, { panel, surface }]) => ({ runKey, title: panel.title, ready: surface.isReady, visible: panel.visible }));
  }

  private adopt(panel: vscode.WebviewPanel, runKey: string): void {
    const surface = new TranscriptSurface(panel.webview, { kind: 'fixed', runKey }, this.deps);
    this.panels.set(runKey, { panel, surface });
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'transcript-tab-light.svg'),
      dark: vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'transcript-tab-dark.svg'),
    };
    panel.title = this.titleOf(runKey);
    panel.onDidDispose(() => {
      surface.dispose();
      if (this.panels.get(runKey)?.panel === panel) {
        this.panels.delete(runKey);
      }
    });
  }

  private titleOf(runKey: string): string {
    const title = this.deps.store.state.runs.get(runKey)?.title.trim();
    return title ? title : UNKNOWN_RUN_TITLE;
  }

  private updateTitles(): void {
    for (const [runKey, { panel }] of this.panels) {
      const title = this.titleOf(runKey);
      if (panel.title !== title) {
        panel.title = title;
      }
    }
  }

  private disposePanels(): void {
    // Only our side: the tabs themselves stay for the next window to restore.
    for (const { surface } of this.panels.values()) {
      surface.dispose();
    }
    this.panels.clear();
  }
}

/** The run key a tab's webview stored with `setState` (webview/uiState.ts), if any. */
function tabRunKeyOf(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'tabRunKey' in state && typeof state.tabRunKey === 'string' && state.tabRunKey !== '') {
    return state.tabRunKey;
  }
  return undefined;
}

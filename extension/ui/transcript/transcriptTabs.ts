/**
 * The transcripts open in editor tabs, one per run, as the rest of the UI sees them: show a change set in a run's tab,
 * post to the active one, list them. TranscriptPanels opens and restores the tabs (it builds their surfaces) and
 * adds each here, so the services that show things in a tab are built before, and without, those surfaces. The tab's
 * title follows the run's title.
 */
import type * as vscode from 'vscode';
import type { RunStore } from '../../model/runStore';
import type { ChangeSetMessage, HostToWebview } from '../../protocol/webviewMessages';
import { Disposable } from '../disposable';
import type { TranscriptSurface } from './transcriptSurface';

const UNKNOWN_RUN_TITLE = 'Agent transcript';

interface OpenTab {
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

export class TranscriptTabs extends Disposable {
  private readonly tabs = new Map<string, OpenTab>();

  constructor(private readonly store: RunStore) {
    super();
    this._register(store.onDidChange(() => this.updateTitles()));
    this._register({ dispose: () => this.disposeSurfaces() });
  }

  /** The tab of `runKey`, if it has one. */
  panelOf(runKey: string): vscode.WebviewPanel | undefined {
    return this.tabs.get(runKey)?.panel;
  }

  /** A tab opened or restored for `runKey`, with its surface: kept until the tab closes. */
  add(runKey: string, panel: vscode.WebviewPanel, surface: TranscriptSurface): void {
    this.tabs.set(runKey, { panel, surface });
    panel.title = this.titleOf(runKey);
    panel.onDidDispose(() => {
      surface.dispose();
      if (this.tabs.get(runKey)?.panel === panel) {
        this.tabs.delete(runKey);
      }
    });
  }

  /** Shows a change set in its run's tab, if the run has one (it waits there for the tab's webview to be ready). */
  showChangeSet(message: ChangeSetMessage): void {
    this.tabs.get(message.runKey)?.surface.showChangeSet(message);
  }

  /** Posts `message` to the run's tab, if it has one (e.g. its change set's review marks changed). */
  post(runKey: string, message: HostToWebview): void {
    this.tabs.get(runKey)?.surface.post(message);
  }

  /** Posts `message` to the transcript tab that is the active editor, if one is; says whether one was. */
  postToActive(message: HostToWebview): boolean {
    for (const { panel, surface } of this.tabs.values()) {
      if (panel.active) {
        surface.post(message);
        return true;
      }
    }
    return false;
  }

  /** The open tabs, in the order they were opened. */
  list(): TranscriptPanelInfo[] {
    return [...this.tabs].map(([runKey, { panel, surface }]) => ({ runKey, title: panel.title, ready: surface.isReady, visible: panel.visible }));
  }

  titleOf(runKey: string): string {
    const title = this.store.state.runs.get(runKey)?.title.trim();
    return title ? title : UNKNOWN_RUN_TITLE;
  }

  private updateTitles(): void {
    for (const [runKey, { panel }] of this.tabs) {
      const title = this.titleOf(runKey);
      if (panel.title !== title) {
        panel.title = title;
      }
    }
  }

  private disposeSurfaces(): void {
    // Only our side: the tabs themselves stay for the next window to restore.
    for (const { surface } of this.tabs.values()) {
      surface.dispose();
    }
    this.tabs.clear();
  }
}

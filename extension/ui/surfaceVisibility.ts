/**
 * Whether anyone can see the runs — one of the trees (Runs, Connections), the Transcript view, or a transcript tab
 * that is the active tab of its editor group — told to every driver that polls only to keep those views current
 * (`Driver.setWatched`: the hive, whose runs never need the user). With every view hidden no such poll runs; shown
 * again, the driver catches up at once. A driver that connects later is told on the store change that brings it.
 * Window focus does not count: a window in the background is still on screen.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../drivers/connectionManager';
import type { Driver } from '../drivers/driver';
import type { RunStore } from '../model/runStore';
import { Disposable } from './disposable';
import { TranscriptPanels } from './transcript/transcriptPanels';
import type { TranscriptSidebar } from './transcript/transcriptSidebar';

function transcriptTabShown(): boolean {
  return vscode.window.tabGroups.all.some((group) => {
    const input = group.activeTab?.input;
    return input instanceof vscode.TabInputWebview && input.viewType.endsWith(TranscriptPanels.viewType);
  });
}

export class SurfaceVisibility extends Disposable {
  /** What each driver was last told (a new driver object, after a profile edit, is told afresh). */
  private readonly told = new WeakMap<Driver, boolean>();
  private visible = false;

  constructor(
    trees: readonly vscode.TreeView<unknown>[],
    transcriptView: Pick<TranscriptSidebar, 'isVisible' | 'onDidChangeVisibility'>,
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
  ) {
    super();
    const update = (): void => {
      this.visible = trees.some((t) => t.visible) || transcriptView.isVisible || transcriptTabShown();
      this.tell();
    };
    for (const tree of trees) {
      this._register(tree.onDidChangeVisibility(update));
    }
    this._register(transcriptView.onDidChangeVisibility(update));
    this._register(vscode.window.tabGroups.onDidChangeTabs(update));
    this._register(vscode.window.tabGroups.onDidChangeTabGroups(update));
    // Cheap (a few connections): only drivers not yet told the current value are called.
    this._register(store.onDidChange(() => this.tell()));
    update();
  }

  private tell(): void {
    for (const id of this.store.state.connections.keys()) {
      const driver = this.connections.driver(id);
      if (driver?.setWatched && this.told.get(driver) !== this.visible) {
        this.told.set(driver, this.visible);
        driver.setWatched(this.visible);
      }
    }
  }
}

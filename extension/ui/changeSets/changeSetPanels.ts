/**
 * Publishes the "changeSet" side panel of every run that has a change set, for every daemon: whenever a run's
 * `ChangeSetInfo` changes in the model, its panel is rebuilt (changeSetFiles.ts) and merged into the run's panels.
 * The panel belongs to the UI, not to a driver, so its entry actions are carried out here (see
 * `runChangeSetPanelAction`, called by transcriptActions before any driver's `panelAction`).
 */
import * as vscode from 'vscode';
import type { ChangeSetInfo, ModelState } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { Disposable } from '../disposable';
import type { ChangeSetPanelAction } from './changeSetFiles';
import { buildChangeSetPanel, CHANGE_SET_PANEL_ID } from './changeSetFiles';

export class ChangeSetPanels extends Disposable {
  private readonly published = new Map<string, ChangeSetInfo>();
  private scheduled = false;

  constructor(private readonly store: RunStore) {
    super();
    this._register(store.onDidChange((state) => this.schedule(state)));
    this.schedule(store.state);
  }

  /** Publishes now if needed (e.g. before showing the transcript). */
  publish(runKey: string): void {
    const info = this.store.state.changeSets.get(runKey);
    if (info && this.store.state.runs.has(runKey)) {
      this.published.set(runKey, info);
      this.store.dispatch({ type: 'runPanels', runKey, panels: [buildChangeSetPanel(info)], merge: true });
    }
  }

  /** The change set changed, or a driver replaced the run's panels wholesale (dropping this one). */
  private isStale(state: ModelState, key: string, info: ChangeSetInfo): boolean {
    const run = state.runs.get(key);
    return run !== undefined && (this.published.get(key) !== info || !(run.panels ?? []).some((p) => p.id === CHANGE_SET_PANEL_ID));
  }

  private schedule(state: ModelState): void {
    const stale = [...state.changeSets].some(([key, info]) => this.isStale(state, key, info));
    if (!stale || this.scheduled) {
      return;
    }
    // Dispatching from inside a change notification would hand other listeners states out of order: defer.
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (this.isDisposed) {
        return;
      }
      for (const key of [...this.published.keys()]) {
        if (!this.store.state.changeSets.has(key)) {
          this.published.delete(key);
        }
      }
      for (const [key, info] of this.store.state.changeSets) {
        if (this.isStale(this.store.state, key, info)) {
          this.publish(key);
        }
      }
    });
  }
}

/** The command behind each panel action; file actions get the entry id (`file:N`) as the file argument. */
const COMMANDS: Readonly<Record<ChangeSetPanelAction, string>> = {
  openAll: 'agentSwitchboard.openAllChanges',
  applyAll: 'agentSwitchboard.applyChangeSet',
  copyPatch: 'agentSwitchboard.copyChangeSetPatch',
  savePatch: 'agentSwitchboard.saveChangeSetPatch',
  openDiff: 'agentSwitchboard.openChangeSetFileDiff',
  applyFile: 'agentSwitchboard.applyChangeSetFile',
  applyHunks: 'agentSwitchboard.applyChangeSetHunks',
};

/** Carries out an action of the "changeSet" panel through the same commands as the palette. */
export async function runChangeSetPanelAction(runKey: string, entryId: string, actionId: string): Promise<void> {
  const command = (COMMANDS as Readonly<Record<string, string>>)[actionId];
  if (!command) {
    throw new Error(`Unknown change-set action "${actionId}".`);
  }
  await vscode.commands.executeCommand(command, runKey, entryId);
}

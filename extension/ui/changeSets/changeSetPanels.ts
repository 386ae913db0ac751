/**
 * The actions of the "changeSet" side panel. The panel itself is derived from the run's `ChangeSetInfo` whenever
 * the view reads the run's panels (runPanels.ts); it belongs to the UI, not to a driver, so its entry actions are
 * carried out here (see `runChangeSetPanelAction`, called by transcriptActions before any driver's `panelAction`).
 */
import * as vscode from 'vscode';
import type { ChangeSetPanelAction } from './changeSetFiles';

/** The command behind each panel action; file actions get the entry id (`file:N`) as the file argument. */
const COMMANDS: Readonly<Record<ChangeSetPanelAction, string>> = {
  openAll: 'agentSwitchboard.openAllChanges',
  applyAll: 'agentSwitchboard.applyChangeSet',
  copyPatch: 'agentSwitchboard.copyChangeSetPatch',
  savePatch: 'agentSwitchboard.saveChangeSetPatch',
  openDiff: 'agentSwitchboard.openChangeSetFileDiff',
  applyFile: 'agentSwitchboard.applyChangeSetFile',
  applyHunks: 'agentSwitchboard.applyChangeSetHunks',
  revertAll: 'agentSwitchboard.revertChangeSet',
  revertFile: 'agentSwitchboard.revertChangeSetFile',
  revertHunks: 'agentSwitchboard.revertChangeSetHunks',
};

/** Carries out an action of the "changeSet" panel through the same commands as the palette. */
export async function runChangeSetPanelAction(runKey: string, entryId: string, actionId: string): Promise<void> {
  const command = (COMMANDS as Readonly<Record<string, string>>)[actionId];
  if (!command) {
    throw new Error(`Unknown change-set action "${actionId}".`);
  }
  await vscode.commands.executeCommand(command, runKey, entryId);
}

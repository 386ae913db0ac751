/**
 * The actions of the "changeSet" side panel. The panel itself is derived from the run's `ChangeSetInfo` whenever
 * the view reads the run's panels (runPanels.ts); it belongs to the UI, not to a driver, so its entry actions are
 * carried out here (see `runChangeSetPanelAction`, called by transcriptActions before any driver's `panelAction`),
 * through the services the palette commands call: ChangeSetViews (open) and ChangeSetEdits (apply, revert, patch).
 */
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { readyChangeSetOf } from '../commands/changeSetSelection';
import type { ChangeSetEdits } from './changeSetEdits';
import type { ChangeSetPanelAction } from './changeSetFiles';
import { ALL_FILES_ENTRY, CHANGE_SET_PANEL_ACTIONS, fileOfEntry } from './changeSetFiles';
import type { ChangeSetViews } from './changeSetViews';

export interface ChangeSetPanelServices {
  readonly store: RunStore;
  readonly changeSets: ChangeSetViews;
  readonly changeSetEdits: ChangeSetEdits;
}

/** What a panel entry stands for: the whole change set, or one file of it (an index into its files). */
export type ChangeSetEntryTarget = { readonly kind: 'all' } | { readonly kind: 'file'; readonly index: number };

function isPanelAction(actionId: string): actionId is ChangeSetPanelAction {
  return (CHANGE_SET_PANEL_ACTIONS as readonly string[]).includes(actionId);
}

/**
 * Carries out an action of the "changeSet" panel on the entry it was offered on. Reverts ask the person first (the
 * panel is not automation); Apply All has asked already when the panel marked it `confirm`.
 */
export async function runChangeSetPanelAction(services: ChangeSetPanelServices, run: RunInfo, entryId: string, actionId: string): Promise<void> {
  if (!isPanelAction(actionId)) {
    throw new Error(`Unknown change-set action "${actionId}".`);
  }
  const cs = await readyChangeSetOf(services.store, run);
  if (!cs) {
    return;
  }
  const index = entryId === ALL_FILES_ENTRY ? undefined : fileOfEntry(cs.files, entryId);
  const target: ChangeSetEntryTarget | undefined = entryId === ALL_FILES_ENTRY ? { kind: 'all' } : index !== undefined ? { kind: 'file', index } : undefined;
  if (!target) {
    throw new Error('That item changed meanwhile; try again.');
  }
  const { changeSets, changeSetEdits: edits } = services;
  if (target.kind === 'all') {
    switch (actionId) {
      case 'openAll':
        await changeSets.openAll(cs);
        return;
      case 'applyAll':
        await edits.applyAll(cs);
        return;
      case 'revertAll':
        await edits.revertAll(cs);
        return;
      case 'copyPatch':
        await edits.copyPatch(cs);
        return;
      case 'savePatch':
        await edits.savePatch(cs);
        return;
      default:
        throw new Error(`"${actionId}" is an action on one file, not on the whole change set.`);
    }
  }
  switch (actionId) {
    case 'openDiff':
      await changeSets.openFileDiff(cs, target.index);
      return;
    case 'applyFile':
      await edits.applyFile(cs, target.index);
      return;
    case 'applyHunks':
      await edits.applyHunks(cs, target.index);
      return;
    case 'revertFile':
      await edits.revertFile(cs, target.index);
      return;
    case 'revertHunks':
      await edits.revertHunks(cs, target.index);
      return;
    default:
      throw new Error(`"${actionId}" is an action on the whole change set, not on one file.`);
  }
}

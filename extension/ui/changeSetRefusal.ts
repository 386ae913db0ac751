/**
 * A refused change set (its digest, length or base64 check failed) on the run's tree row: the reason in the tooltip
 * and a red "!" decoration. The icon and the words ("change set refused") are the run's look (model/runLook.ts), the
 * same on the board and in the transcript header — a run whose result cannot be trusted must not keep its green tick.
 */
import * as vscode from 'vscode';
import type { ChangeSetInfo } from '../model/modelTypes';

export function isRefused(changeSet: ChangeSetInfo | undefined): changeSet is ChangeSetInfo {
  return changeSet?.status === 'refused';
}

export function refusalText(changeSet: ChangeSetInfo): string {
  return `Change set refused: ${changeSet.reason ?? 'it failed verification'}`;
}

/** Marks a run's tree item whose change set was refused (no-op otherwise). */
export function markRefusedChangeSet(item: vscode.TreeItem, changeSet: ChangeSetInfo | undefined): void {
  if (!isRefused(changeSet)) {
    return;
  }
  item.tooltip = `${typeof item.tooltip === 'string' ? `${item.tooltip}\n` : ''}${refusalText(changeSet)}`;
}

/** The row's decoration when no approval badge takes the place. */
export function refusedChangeSetDecoration(changeSet: ChangeSetInfo | undefined): vscode.FileDecoration | undefined {
  return isRefused(changeSet) ? new vscode.FileDecoration('!', refusalText(changeSet), new vscode.ThemeColor('list.errorForeground')) : undefined;
}

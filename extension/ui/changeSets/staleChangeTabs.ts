/**
 * Multi-diff tabs of change sets that VS Code restored after a window reload. The workbench restores such a tab
 * before this extension has activated and before the run's change set is back from the journal, so the diff
 * documents fail to resolve and the tab says "No Changed Files" under its old title. On activation each such tab is
 * closed, and opened afresh (same command, same title) as soon as its run's change set is ready again.
 */
import * as vscode from 'vscode';
import type { RunStore } from '../../model/runStore';
import { CHANGES_SCHEME } from './changeSetDocuments';

/** The run keys a tab's diff documents belong to, if it is a multi-diff tab of ours. */
function runKeysOf(tab: vscode.Tab): string[] {
  // TabInputTextMultiDiff (1.139 has it at runtime; the @types in use predate it): `textDiffs` of original/modified.
  const input = tab.input as { readonly textDiffs?: readonly { readonly original?: vscode.Uri; readonly modified?: vscode.Uri }[] } | undefined;
  if (!input || !Array.isArray(input.textDiffs)) {
    return [];
  }
  const keys = new Set<string>();
  for (const diff of input.textDiffs) {
    for (const uri of [diff.original, diff.modified]) {
      const run = uri?.scheme === CHANGES_SCHEME ? new URLSearchParams(uri.query).get('run') : null;
      if (run) {
        keys.add(run);
      }
    }
  }
  return [...keys];
}

/** Closes the restored change-set tabs and reopens each when its change set is ready (`open` takes the run key). */
export function reopenRestoredChangeTabs(store: RunStore, open: (runKey: string) => Promise<unknown>, log: (message: string) => void): vscode.Disposable {
  const waiting = new Set<string>();
  const stale: vscode.Tab[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const keys = runKeysOf(tab);
      if (keys.length > 0) {
        stale.push(tab);
        keys.forEach((key) => waiting.add(key));
      }
    }
  }
  if (stale.length === 0) {
    return { dispose: () => undefined };
  }
  vscode.window.tabGroups.close(stale, true).then(undefined, (error: unknown) => log(`Closing restored change-set tabs: ${String(error)}`));
  const check = (): void => {
    for (const key of waiting) {
      if (store.state.changeSets.get(key)?.status === 'ready') {
        waiting.delete(key);
        open(key).then(undefined, (error: unknown) => log(`Reopening the change set of ${key}: ${String(error)}`));
      }
    }
    if (waiting.size === 0) {
      subscription.dispose();
    }
  };
  const subscription = store.onDidChange(check);
  check();
  return subscription;
}

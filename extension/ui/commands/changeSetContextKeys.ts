/**
 * The context keys the review commands' `when` clauses read (changeSetReviewCommands.ts): whether some run has a
 * ready change set, and a ready local one (the agent's edits are on disk). Kept at activation, in the core: the
 * palette shows the commands before their bundle is loaded.
 */
import * as vscode from 'vscode';
import type { ChangeSetInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';

const ANY_CHANGE_SET = 'agentSwitchboard.anyChangeSet';
const ANY_LOCAL_CHANGE_SET = 'agentSwitchboard.anyLocalChangeSet';

export function watchChangeSetContextKeys(store: RunStore): vscode.Disposable {
  let last: ReadonlyMap<string, ChangeSetInfo> | undefined;
  const update = (): void => {
    const changeSets = store.state.changeSets;
    if (last === changeSets) {
      return; // the table is replaced when a change set changes: nothing to look at otherwise
    }
    last = changeSets;
    const ready = [...changeSets.values()].filter((c) => c.status === 'ready');
    void vscode.commands.executeCommand('setContext', ANY_CHANGE_SET, ready.length > 0);
    void vscode.commands.executeCommand('setContext', ANY_LOCAL_CHANGE_SET, ready.some((c) => c.source === 'local'));
  };
  update();
  return store.onDidChange(update);
}

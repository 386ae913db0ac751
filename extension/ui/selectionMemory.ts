/**
 * Remembers which run the Transcript view showed (per workspace) and selects it again after a window reload, once
 * its connection has restored it from the journal. A selection the user makes first wins: the memory only fills
 * an empty selection, and stops looking as soon as anything is selected.
 */
import type * as vscode from 'vscode';
import type { RunStore } from '../model/runStore';
import type { RunSelection } from './runSelection';
import type { Event } from '../base/emitter';

const KEY = 'agentSwitchboard.selectedRun';

export function rememberSelection(
  selection: Pick<RunSelection, 'runKey' | 'select' | 'onDidChange'>,
  store: RunStore,
  memento: vscode.Memento,
  /** Called once the remembered run is selected again (e.g. to reveal its row). */
  restored: (runKey: string) => void,
  /** Runs the person removed (ui/removedRuns.ts): a removed run is not remembered. */
  removedRuns?: Event<string>,
): vscode.Disposable {
  let remembered = memento.get<string>(KEY);
  const forgetting = removedRuns?.((runKey) => {
    if (memento.get<string>(KEY) === runKey) {
      void memento.update(KEY, undefined);
    }
    if (remembered === runKey) {
      remembered = undefined;
    }
  });
  const saving = selection.onDidChange((runKey) => {
    if (runKey) {
      void memento.update(KEY, runKey);
    }
  });
  let waiting: { dispose(): void } | undefined;
  const tryRestore = (): boolean => {
    if (selection.runKey !== undefined) {
      return true; // the user (or a notification) chose already
    }
    if (remembered && store.state.runs.has(remembered)) {
      selection.select(remembered);
      restored(remembered);
      return true;
    }
    return false;
  };
  if (remembered && !tryRestore()) {
    waiting = store.onDidChange(() => {
      if (tryRestore()) {
        waiting?.dispose();
        waiting = undefined;
      }
    });
  }
  return {
    dispose: () => {
      saving.dispose();
      forgetting?.dispose();
      waiting?.dispose();
    },
  };
}

/**
 * What the editor keeps per run goes when the person removes the run (ui/removedRuns.ts): the remembered selection
 * (selectionMemory.ts) and the composer draft (draftStore.ts, as extension.ts wires it) are forgotten in the
 * workspace state; another run's are kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { RunStore } from '../../../extension/model/runStore';
import { DraftStore } from '../../../extension/ui/draftStore';
import { RemovedRuns } from '../../../extension/ui/removedRuns';
import { Emitter } from '../../../extension/base/emitter';
import { rememberSelection } from '../../../extension/ui/selectionMemory';

function memento(): vscode.Memento & { readonly data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback) as T,
    update: (key: string, value: unknown) => {
      if (value === undefined) {
        data.delete(key);
      } else {
        data.set(key, value);
      }
      return Promise.resolve();
    },
  };
}

test('removing a run forgets its remembered selection and its draft, and only those', async () => {
  const state = memento();
  const removed = new RemovedRuns();
  const drafts = new DraftStore(state);
  removed.onDidRemove((runKey) => drafts.set(runKey, ''));
  // The selection as the view has it (ui/runSelection.ts, which needs a real editor).
  const changed = new Emitter<string | undefined>();
  const selection = {
    runKey: undefined as string | undefined,
    select(runKey: string | undefined) {
      this.runKey = runKey;
      changed.fire(runKey);
    },
    onDidChange: changed.event,
  };
  const memory = rememberSelection(selection, new RunStore(() => 0), state, () => undefined, removed.onDidRemove);
  selection.select('c::gone');
  drafts.set('c::gone', 'half a thought');
  drafts.set('c::kept', 'another');
  await drafts.flush();
  assert.equal(state.get('agentSwitchboard.selectedRun'), 'c::gone');

  removed.removed('c::gone');
  await drafts.flush();
  assert.equal(state.get('agentSwitchboard.selectedRun'), undefined, 'the selection memory forgot it');
  const stored = JSON.stringify(state.get('agentSwitchboard.drafts'));
  assert.ok(!stored.includes('c::gone') && stored.includes('c::kept'), `only the other run's draft is stored: ${stored}`);
  removed.removed('c::other');
  assert.equal(drafts.get('c::kept'), 'another');
  memory.dispose();
  drafts.dispose();
  removed.dispose();
});

/**
 * This editor window's id for the drivers (DriverContext.windowId): random, kept in the workspace state so it stays
 * the same across the window's reloads — the window that started a run owns it and writes its journal again after a
 * reload (drivers/kit/runWriters.ts, drivers/agencyProxy/runOwnership.ts). Two windows that share one workspace state
 * share the id; the writer lease (its pid) still tells them apart, so they never both write or ack a run.
 */
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';

const WINDOW_ID_KEY = 'switchboard.windowId';

export function editorWindowId(state: vscode.Memento): string {
  const kept = state.get<unknown>(WINDOW_ID_KEY);
  if (typeof kept === 'string' && kept !== '') {
    return kept;
  }
  const id = randomUUID();
  void state.update(WINDOW_ID_KEY, id);
  return id;
}

/** What the history commands (historyCommands.ts) tell the person when a run is kept; no `vscode`, so unit-tested. */
import type { RunWriterWindow } from '../../drivers/driver';

/** What removal tells the person when another editor window records the run: which window that is. */
export function heldElsewhereText(title: string, holder: RunWriterWindow): string {
  const window = holder.name !== undefined ? `the editor window “${holder.name}” (extension host ${holder.pid})` : `another editor window (extension host ${holder.pid})`;
  return `“${title}” is kept: ${window} is recording it. Remove it there, or once that window is closed.`;
}

/** What removal tells the person when a run is not finished. */
export const NOT_FINISHED_TEXT = 'is not finished: its daemon may still be writing it. Stop or end it first, then remove it.';

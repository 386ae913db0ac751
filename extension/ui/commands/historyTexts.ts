/** What the history and rewind commands tell the person when a run is kept or refused; no `vscode`, so unit-tested. */
import type { RunWriterWindow } from '../../drivers/driver';

/** The editor window that records a run, in words (removal, rewind: what is refused names where to do it). */
export function writerWindowText(holder: RunWriterWindow | undefined): string {
  if (holder === undefined) {
    return 'another editor window';
  }
  return holder.name !== undefined ? `the editor window “${holder.name}” (extension host ${holder.pid})` : `another editor window (extension host ${holder.pid})`;
}

/** What removal tells the person when another editor window records the run: which window that is. */
export function heldElsewhereText(title: string, holder: RunWriterWindow): string {
  return `“${title}” is kept: ${writerWindowText(holder)} is recording it. Remove it there, or once that window is closed.`;
}

/** What removal tells the person when a run is not finished. */
export const NOT_FINISHED_TEXT = 'is not finished: its daemon may still be writing it. Stop or end it first, then remove it.';

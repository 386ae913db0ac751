/**
 * File-checkpoint marker rows (issue #26): one row per checkpoint a run's writer recorded. *Redo* is offered on the
 * newest rewind only, and only until the next mark — a rewind after it, or a new turn (whose edits a redo would
 * overwrite without asking: they are the run's own): the row that offered it is updated, never searched for
 * (`redoItemId`). A marker leaves streaming items open. Part of the run reducer.
 */
import type { RunEvent } from './modelActions';
import type { RunEditor } from './runEditor';

export function applyFileCheckpoint(ed: RunEditor, event: Extract<RunEvent, { kind: 'fileCheckpoint' }>): void {
  // No `closeStreams`: a snapshot ends whenever git is done, often in the middle of the next answer, and must not
  // split its text (a canonical `textCompleted` replaces the open text item it would have closed).
  if (ed.run.redoItemId !== undefined) {
    ed.update(ed.run.redoItemId, { redo: false });
  }
  const id = ed.nextId('k');
  const redo = event.mark === 'rewound';
  ed.add({
    id,
    kind: 'checkpoint',
    checkpointId: event.checkpointId,
    mark: event.mark,
    rewindable: event.rewindable,
    ...(event.turn !== undefined ? { turn: event.turn } : {}),
    ...(event.files !== undefined ? { files: event.files } : {}),
    ...(event.summary !== undefined ? { summary: event.summary } : {}),
    ...(event.unavailable !== undefined ? { unavailable: event.unavailable } : {}),
    ...(redo ? { redo: true } : {}),
  });
  ed.run = { ...ed.run, redoItemId: redo ? id : undefined };
}

/**
 * What the person does while reviewing a run's change set (issue #26), for every surface alike — the change-set
 * view's toggles and buttons, the native diff's *Mark File Reviewed*, the palette: mark hunks or files reviewed
 * (*Keep* is that), and, for edits already on disk (a local change set: the agent wrote the working tree itself),
 * *Undo* a hunk or a file.
 *
 * Undo is the existing revert of the reversed local change set (changeSetEdits.ts): checked against the file as it
 * is now (a hunk that no longer applies is refused with the line that differs, nothing written), a protected path
 * (`.vscode/`, workspace files) named for an explicit decision, `.git/` never written, one WorkspaceEdit — so VS
 * Code's own Undo brings the agent's version back — and its message offers *Redo*, which applies that hunk (or file)
 * of the change set as it was again. The review mark of an undone hunk stays stored: a Redo brings the same content
 * back, and with it the mark.
 */
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { ReadyChangeSet } from '../commands/changeSetSelection';
import { readyChangeSetOf } from '../commands/changeSetSelection';
import type { ApplyOutcome } from './changeSetApply';
import type { ChangeSetEdits } from './changeSetEdits';
import { hunksSelectable } from './changeSetFiles';
import type { ChangeSetViews } from './changeSetViews';
import type { ReviewMarksStore } from './reviewMarks';
import { StaleReviewError, unitsOf } from './reviewMarks';

export class ChangeSetReviews {
  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    readonly marks: ReviewMarksStore,
    private readonly views: ChangeSetViews,
    private readonly edits: ChangeSetEdits,
  ) {}

  /** A toggle of the change-set view: the units with `keys` of file `fileIndex` (as the view was shown them). */
  async setReviewed(run: RunInfo, fileIndex: number, keys: readonly string[], reviewed: boolean): Promise<void> {
    const cs = await readyChangeSetOf(this.store, run);
    if (cs) {
      await this.refreshedWhenStale(run.key, () => this.marks.setReviewed(run.key, cs.files, fileIndex, reviewed, keys));
    }
  }

  /** Every hunk of a file reviewed (or not): *Mark File Reviewed*. Says how many of the change set's units are. */
  async markFile(cs: ReadyChangeSet, fileIndex: number, reviewed = true): Promise<{ readonly reviewed: number; readonly total: number }> {
    await this.marks.setReviewed(cs.run.key, cs.files, fileIndex, reviewed);
    const { reviewed: done, total } = await this.marks.progress(cs.run.key, cs.files);
    return { reviewed: done, total };
  }

  /** *Keep Hunk*: the agent's hunk stays as it is, and is marked reviewed. */
  async keepHunk(cs: ReadyChangeSet, fileIndex: number, hunkIndex: number): Promise<void> {
    const unit = unitsOf(cs.files)[fileIndex]?.find((u) => u.hunk === hunkIndex);
    if (!unit) {
      throw new StaleReviewError();
    }
    await this.marks.setReviewed(cs.run.key, cs.files, fileIndex, true, [unit.key]);
  }

  /** *Undo* from the change-set view: checks the view's keys against the change set now first. */
  async undoFromView(run: RunInfo, fileIndex: number, hunkIndex: number | undefined, keys: readonly string[]): Promise<ApplyOutcome | undefined> {
    const cs = await readyChangeSetOf(this.store, run);
    if (!cs) {
      return undefined;
    }
    const units = unitsOf(cs.files)[fileIndex] ?? [];
    const current = hunkIndex === undefined ? units.map((u) => u.key) : units.filter((u) => u.hunk === hunkIndex).map((u) => u.key);
    if (current.length === 0 || current.length !== keys.length || current.some((key, i) => key !== keys[i])) {
      await this.views.refreshShown(run.key);
      throw new StaleReviewError();
    }
    return this.undo(cs, fileIndex, hunkIndex);
  }

  /**
   * Writes back what the agent had before, for one hunk of a file (or the whole file), as one undoable edit; the
   * message that reports it offers *Redo*. Only for a local change set (a daemon's was never on disk unless applied).
   */
  async undo(cs: ReadyChangeSet, fileIndex: number, hunkIndex?: number): Promise<ApplyOutcome | undefined> {
    const file = cs.files[fileIndex];
    if (!file) {
      return undefined;
    }
    if (hunkIndex !== undefined && !hunksSelectable(file)) {
      throw new Error(`${file.newPath} is undone as a whole (it is ${file.binary ? 'binary' : file.status}): use Undo File.`);
    }
    const redo = {
      label: 'Redo',
      run: async (): Promise<void> => {
        const outcome = hunkIndex === undefined ? await this.edits.applyFile(cs, fileIndex) : await this.edits.applyHunks(cs, fileIndex, [hunkIndex]);
        if (outcome && outcome.applied.length > 0) {
          await this.changed(cs.run);
        }
      },
    };
    // The button or command was the decision: no modal (the edit is undoable); a protected path is still asked about.
    const outcome = hunkIndex === undefined ? await this.edits.revertFile(cs, fileIndex, true, redo) : await this.edits.revertHunks(cs, fileIndex, [hunkIndex], true, redo);
    if (outcome && outcome.applied.length > 0) {
      await this.views.refreshShown(cs.run.key); // revert recomputed the change set already
    }
    return outcome;
  }

  /** After a write of the run's files: its change set computed again, and shown as it is now. */
  private async changed(run: RunInfo): Promise<void> {
    await this.connections.driver(run.connectionId)?.refreshChangeSet?.(run.runId);
    await this.views.refreshShown(run.key);
  }

  private async refreshedWhenStale<T>(runKey: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof StaleReviewError) {
        await this.views.refreshShown(runKey);
      }
      throw error;
    }
  }
}

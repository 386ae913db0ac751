/**
 * The `changeSet` message for the transcript webview: a run's parsed change-set files with their hunks encoded
 * one string per hunk (see extension/protocol/changeSetRows.ts for why). Pure (no `vscode`), unit-tested.
 */
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ReviewProgress, ReviewUnit } from '../../changeSets/reviewState';
import { fileReviewUnits } from '../../changeSets/reviewState';
import type { FileAuthor } from '../../model/boardRows';
import type { ChangeSetInfo } from '../../model/modelTypes';
import { encodeHunkLines } from '../../protocol/changeSetRows';
import type { ChangeSetFileView, ChangeSetMessage, ChangeSetReview } from '../../protocol/webviewMessages';
import { hunksSelectable } from './changeSetFiles';
import { unitsOf } from './reviewMarks';

/**
 * Hunk text beyond this budget is not sent: files that no longer fit go without hunks (marked `omitted`), so the
 * view stays responsive and the diff editor still shows them. A 4 MiB patch fits comfortably.
 */
export const MAX_WEBVIEW_DIFF_CHARS = 16 * 1024 * 1024;

/** Where the payload's build may give the event loop back (a `TimeSlices`, base/timeSlices.ts). */
interface Pauses {
  pause(): Promise<void>;
}

/** What *Undo* a file of a local change set offers (see `ChangeSetFileView.undo`); none for a daemon's or a copy. */
function undoOf(file: PatchFile, source: ChangeSetInfo['source']): ChangeSetFileView['undo'] {
  if (source !== 'local' || file.status === 'copied') {
    return undefined;
  }
  return hunksSelectable(file) ? 'hunks' : 'file';
}

/** The review marks as the view takes them. */
export function reviewView(progress: Pick<ReviewProgress, 'files'>): ChangeSetReview {
  return { files: progress.files.map((f) => ({ reviewed: [...f.reviewed], dropped: f.dropped })) };
}

/** One file's view within what is left of the budget, and how much of the budget the view used. */
function fileView(file: PatchFile, index: number, budget: number, units: readonly ReviewUnit[], source: ChangeSetInfo['source']): [ChangeSetFileView, number] {
  const undo = undoOf(file, source);
  const renamed = file.status === 'renamed' || file.status === 'copied';
  const view: ChangeSetFileView = {
    index,
    path: file.newPath,
    ...(renamed ? { oldPath: file.oldPath } : {}),
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    binary: file.binary,
    ...(file.oldMode !== undefined ? { oldMode: file.oldMode } : {}),
    ...(file.newMode !== undefined ? { newMode: file.newMode } : {}),
    hunks: [],
    ...(undo ? { undo } : {}),
  };
  if (file.binary || file.hunks.length === 0) {
    return [{ ...view, ...(units[0] ? { key: units[0].key } : {}) }, 0];
  }
  const hunks = file.hunks.map((hunk, i) => ({ header: hunk.header, oldStart: hunk.oldStart, newStart: hunk.newStart, lines: encodeHunkLines(hunk.lines), key: units[i]?.key ?? '' }));
  const size = hunks.reduce((n, hunk) => n + hunk.header.length + hunk.lines.length, 0);
  if (size > budget) {
    return [{ ...view, omitted: true }, 0]; // smaller files after it may still fit
  }
  return [{ ...view, hunks }, size];
}

export function changeSetMessage(
  run: { readonly key: string; readonly title: string },
  info: Pick<ChangeSetInfo, 'source'>,
  files: readonly PatchFile[],
  maxChars = MAX_WEBVIEW_DIFF_CHARS,
  review?: ChangeSetReview,
): ChangeSetMessage {
  let budget = maxChars;
  const units = unitsOf(files);
  const views = files.map((file, index): ChangeSetFileView => {
    const [view, used] = fileView(file, index, budget, units[index] ?? [], info.source);
    budget -= used;
    return view;
  });
  return { type: 'changeSet', runKey: run.key, title: run.title, source: info.source, files: views, ...(review ? { review } : {}) };
}

/**
 * `changeSetMessage` without stalling the host (issue #25 §3): the hunks of a 4 MiB change set are encoded file by
 * file, giving the event loop back between files once a slice has used its budget. The same message.
 */
export async function changeSetMessageSliced(
  run: { readonly key: string; readonly title: string },
  info: Pick<ChangeSetInfo, 'source'>,
  files: readonly PatchFile[],
  slices: Pauses,
  maxChars = MAX_WEBVIEW_DIFF_CHARS,
  review?: ChangeSetReview,
): Promise<ChangeSetMessage> {
  let budget = maxChars;
  const views: ChangeSetFileView[] = [];
  for (const [index, file] of files.entries()) {
    // Hashed file by file here too (a 4 MiB patch is ~20 ms of hashing): the whole set's units are cached for later.
    const [view, used] = fileView(file, index, budget, fileReviewUnits(file, index), info.source);
    views.push(view);
    budget -= used;
    await slices.pause();
  }
  return { type: 'changeSet', runKey: run.key, title: run.title, source: info.source, files: views, ...(review ? { review } : {}) };
}

/**
 * The message with each file's author where runs share the tree (model/sharedTrees.ts `authors`): a file another
 * run changed is shown as theirs, not silently as this run's. The run's own files are left as they are.
 */
export function withAuthors(message: ChangeSetMessage, authors: ReadonlyMap<string, FileAuthor>): ChangeSetMessage {
  if (![...authors.values()].some((a) => a.kind !== 'self')) {
    return message;
  }
  const files = message.files.map((file): ChangeSetFileView => {
    const author = authors.get(file.path);
    if (!author || author.kind === 'self') {
      return file;
    }
    return { ...file, author: author.kind === 'run' ? { kind: 'run', title: author.title } : { kind: 'shared' } };
  });
  return { ...message, files };
}

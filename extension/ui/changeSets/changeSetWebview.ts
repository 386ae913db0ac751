/**
 * The `changeSet` message for the transcript webview: a run's parsed change-set files with their hunks encoded
 * one string per hunk (see extension/protocol/changeSetRows.ts for why). Pure (no `vscode`), unit-tested.
 */
import type { PatchFile } from '../../changeSets/patchTypes';
import type { FileAuthor } from '../../model/boardRows';
import type { ChangeSetInfo } from '../../model/modelTypes';
import { encodeHunkLines } from '../../protocol/changeSetRows';
import type { ChangeSetFileView, ChangeSetMessage } from '../../protocol/webviewMessages';

/**
 * Hunk text beyond this budget is not sent: files that no longer fit go without hunks (marked `omitted`), so the
 * view stays responsive and the diff editor still shows them. A 4 MiB patch fits comfortably.
 */
export const MAX_WEBVIEW_DIFF_CHARS = 16 * 1024 * 1024;

/** Where the payload's build may give the event loop back (a `TimeSlices`, base/timeSlices.ts). */
interface Pauses {
  pause(): Promise<void>;
}

/** One file's view within what is left of the budget, and how much of the budget the view used. */
function fileView(file: PatchFile, index: number, budget: number): [ChangeSetFileView, number] {
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
  };
  if (file.binary || file.hunks.length === 0) {
    return [view, 0];
  }
  const hunks = file.hunks.map((hunk) => ({ header: hunk.header, oldStart: hunk.oldStart, newStart: hunk.newStart, lines: encodeHunkLines(hunk.lines) }));
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
): ChangeSetMessage {
  let budget = maxChars;
  const views = files.map((file, index): ChangeSetFileView => {
    const [view, used] = fileView(file, index, budget);
    budget -= used;
    return view;
  });
  return { type: 'changeSet', runKey: run.key, title: run.title, source: info.source, files: views };
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
): Promise<ChangeSetMessage> {
  let budget = maxChars;
  const views: ChangeSetFileView[] = [];
  for (const [index, file] of files.entries()) {
    const [view, used] = fileView(file, index, budget);
    views.push(view);
    budget -= used;
    await slices.pause();
  }
  return { type: 'changeSet', runKey: run.key, title: run.title, source: info.source, files: views };
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

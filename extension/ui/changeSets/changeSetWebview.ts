/**
 * The `changeSet` message for the transcript webview: a run's parsed change-set files with their hunks encoded
 * one string per hunk (see extension/protocol/changeSetRows.ts for why). Pure (no `vscode`), unit-tested.
 */
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo } from '../../model/modelTypes';
import { encodeHunkLines } from '../../protocol/changeSetRows';
import type { ChangeSetFileView, ChangeSetMessage } from '../../protocol/webviewMessages';

/**
 * Hunk text beyond this budget is not sent: files that no longer fit go without hunks (marked `omitted`), so the
 * view stays responsive and the diff editor still shows them. A 4 MiB patch fits comfortably.
 */
export const MAX_WEBVIEW_DIFF_CHARS = 16 * 1024 * 1024;

export function changeSetMessage(
  run: { readonly key: string; readonly title: string },
  info: Pick<ChangeSetInfo, 'source'>,
  files: readonly PatchFile[],
  maxChars = MAX_WEBVIEW_DIFF_CHARS,
): ChangeSetMessage {
  let budget = maxChars;
  const views = files.map((file, index): ChangeSetFileView => {
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
      return view;
    }
    const hunks = file.hunks.map((hunk) => ({ header: hunk.header, oldStart: hunk.oldStart, newStart: hunk.newStart, lines: encodeHunkLines(hunk.lines) }));
    const size = hunks.reduce((n, hunk) => n + hunk.header.length + hunk.lines.length, 0);
    if (size > budget) {
      return { ...view, omitted: true }; // smaller files after it may still fit
    }
    budget -= size;
    return { ...view, hunks };
  });
  return { type: 'changeSet', runKey: run.key, title: run.title, source: info.source, files: views };
}

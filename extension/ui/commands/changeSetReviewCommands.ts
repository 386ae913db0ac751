/**
 * Reviewing a change set from the palette and the native diff (issue #26): *Mark File Reviewed* (the diff editor's
 * title bar, on a change-set document, marks that file), *Keep Hunk…* (the hunk stays, marked reviewed) and *Undo
 * Hunk…* (an edit already on disk written back, undoable, with *Redo*). Each takes the run (tree node or run key,
 * else the selected run, else a pick), a file (index or path, else a pick) and a hunk index (else a pick), and calls
 * ChangeSetReviews, as the change-set view does. The context keys of their `when` clauses: changeSetContextKeys.ts.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import { changeSetDocumentOf } from '../changeSets/changeSetDocuments';
import { fileLabel, hunksSelectable } from '../changeSets/changeSetFiles';
import type { ReadyChangeSet } from './changeSetSelection';
import { givenHunks, pickFile, readyChangeSet, readyChangeSetOf } from './changeSetSelection';
import type { CommandContext } from './commandContext';
import type { CommandHandler } from '../lazyCommands';

/** The change-set document a command was given (the editor title passes its resource) or the active editor shows. */
function documentTarget(target: unknown): { readonly runKey: string; readonly index: number } | undefined {
  const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  return uri ? changeSetDocumentOf(uri) : undefined;
}

async function pickHunk(file: PatchFile, given: unknown, verb: string): Promise<number | undefined> {
  const index = givenHunks(given)?.[0] ?? (typeof given === 'number' ? given : undefined);
  if (index !== undefined) {
    return Number.isInteger(index) && index >= 0 && index < file.hunks.length ? index : undefined;
  }
  const items = file.hunks.map((hunk, i) => {
    const first = hunk.lines.find((l) => l.kind === 'add' || l.kind === 'del');
    return { label: hunk.header, detail: first ? `${first.kind === 'add' ? '+' : '−'} ${first.text.slice(0, 120)}` : undefined, index: i };
  });
  return items.length === 1 ? 0 : (await vscode.window.showQuickPick(items, { placeHolder: `Which hunk of ${fileLabel(file)} to ${verb}?` }))?.index;
}

async function fileAndHunk(cs: ReadyChangeSet, fileRef: unknown, hunk: unknown, verb: string, filter: (f: PatchFile) => boolean): Promise<[number, number] | undefined> {
  const index = await pickFile(cs, fileRef, `${verb[0]!.toUpperCase()}${verb.slice(1)} a hunk of which file?`, filter);
  const file = index === undefined ? undefined : cs.files[index];
  const hunkIndex = file && (await pickHunk(file, hunk, verb));
  return index !== undefined && hunkIndex !== undefined ? [index, hunkIndex] : undefined;
}

/** The handlers of the review commands (registered by ui/reviewTools/reviewTools.ts, loaded with their bundle). */
export function changeSetReviewHandlers(ctx: CommandContext): [string, CommandHandler][] {
  return [
    ['agentSwitchboard.markFileReviewed', async (target?: unknown, fileRef?: unknown) => {
      const doc = documentTarget(target);
      const run = doc ? ctx.store.state.runs.get(doc.runKey) : undefined;
      const cs = run ? await readyChangeSetOf(ctx.store, run) : await readyChangeSet(ctx, target);
      const index = cs && (doc && run ? doc.index : await pickFile(cs, fileRef, 'Mark which file reviewed?', () => true));
      const file = index === undefined ? undefined : cs?.files[index];
      if (!cs || index === undefined || !file) {
        return undefined;
      }
      const progress = await ctx.reviews.markFile(cs, index);
      void vscode.window.setStatusBarMessage(`$(check) ${fileLabel(file)} reviewed · ${progress.reviewed} of ${progress.total} hunks of "${cs.run.title}" reviewed`, 4000);
      return progress;
    }],
    ['agentSwitchboard.keepHunk', async (target?: unknown, fileRef?: unknown, hunk?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const chosen = cs && (await fileAndHunk(cs, fileRef, hunk, 'keep', (f) => f.hunks.length > 0));
      if (cs && chosen) {
        await ctx.reviews.keepHunk(cs, chosen[0], chosen[1]);
        return true;
      }
      return undefined;
    }],
    ['agentSwitchboard.undoHunk', async (target?: unknown, fileRef?: unknown, hunk?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      if (cs && cs.info.source !== 'local') {
        void vscode.window.showInformationMessage(`The change set of "${cs.run.title}" comes from the daemon and is not in your files unless you applied it: Undo reverts an apply.`);
        return undefined;
      }
      const chosen = cs && (await fileAndHunk(cs, fileRef, hunk, 'undo', hunksSelectable));
      return cs && chosen ? ctx.reviews.undo(cs, chosen[0], chosen[1]) : undefined;
    }],
  ];
}

/**
 * The palette and editor commands of notes to the agent (issue #26):
 * - *Add Note for Agent* on the selection of the right-hand (after) side of a change-set diff editor
 *   (changeSetDocuments.ts); a context key says when that side is the active editor, so the command shows only
 *   there (afterSide.ts). Its text is asked for (or given, for automation).
 * - *Send Notes to Agent* and *Discard Notes*: the run given (a tree node or run key), else the run of the active
 *   change-set editor, else the selected run.
 */
import * as vscode from 'vscode';
import { anchorOfAfterLines } from '../../changeSets/reviewNoteAnchors';
import { notePlace } from '../../changeSets/reviewNoteMessage';
import { MAX_NOTE_CHARS } from '../../protocol/reviewNotes';
import { visibleText } from '../../protocol/visibleText';
import { readChangeSet } from '../changeSets/changeSetReading';
import type { CommandContext } from '../commands/commandContext';
import { runKeyOfTarget } from '../commands/commandContext';
import type { CommandHandler } from '../lazyCommands';
import { afterSideOf } from './afterSide';
import type { NotesSendOutcome, ReviewNoteActions } from './reviewNoteActions';

/** The handlers of the note commands (registered by ui/reviewTools/reviewTools.ts, loaded with their bundle). */
export function reviewNoteHandlers(ctx: CommandContext, notes: ReviewNoteActions): [string, CommandHandler][] {
  const runKeyOf = (target: unknown): string | undefined => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return runKeyOfTarget(target) ?? (uri && afterSideOf(uri)?.runKey) ?? ctx.selection.runKey;
  };
  return [
    ['agentSwitchboard.addNoteForAgent', async (text?: unknown) => {
      const editor = vscode.window.activeTextEditor;
      const side = editor && afterSideOf(editor.document.uri);
      if (!editor || !side) {
        void vscode.window.showInformationMessage('Add Note for Agent works on the right-hand side of a change-set diff: select lines there first.');
        return undefined;
      }
      return addFromEditor(ctx, notes, editor, side, typeof text === 'string' ? text : undefined);
    }],
    ['agentSwitchboard.sendNotesToAgent', async (target?: unknown): Promise<NotesSendOutcome | undefined> => {
      const runKey = runKeyOf(target);
      if (!runKey) {
        void vscode.window.showInformationMessage('Select the run whose notes to send first.');
        return undefined;
      }
      return notes.send(runKey);
    }],
    ['agentSwitchboard.discardNotes', async (target?: unknown): Promise<boolean> => {
      const runKey = runKeyOf(target);
      return runKey ? notes.discard(runKey) : false;
    }],
  ];
}

/** A note on the editor's selected lines: asks for its text (unless given), then keeps it with the run. */
async function addFromEditor(ctx: CommandContext, notes: ReviewNoteActions, editor: vscode.TextEditor, side: { runKey: string; fileIndex: number }, given: string | undefined): Promise<string | undefined> {
  const info = ctx.store.state.changeSets.get(side.runKey);
  const parsed = info?.status === 'ready' ? await readChangeSet(info) : undefined;
  const file = parsed?.ok ? parsed.files[side.fileIndex] : undefined;
  if (!file) {
    void vscode.window.showWarningMessage('This change set is no longer available: reopen the diff from the run.');
    return undefined;
  }
  if (file.status === 'deleted' || file.binary) {
    void vscode.window.showInformationMessage(`${file.newPath} has no lines after the run to note (${file.binary ? 'binary' : 'deleted'}).`);
    return undefined;
  }
  const selection = editor.selection;
  // A selection that ends at the start of a line does not take that line (as the editor's own line commands).
  const last = selection.end.line > selection.start.line && selection.end.character === 0 ? selection.end.line - 1 : selection.end.line;
  const first = selection.start.line;
  const texts = Array.from({ length: last - first + 1 }, (_, i) => editor.document.lineAt(first + i).text);
  const anchor = anchorOfAfterLines(file, first + 1, last + 1, texts);
  const text =
    given ??
    (await vscode.window.showInputBox({
      title: `Note for the agent on ${visibleText(notePlace(anchor))}`,
      prompt: 'Sent with the run\u2019s other notes by Send Notes to Agent',
      validateInput: (v) => (v.trim() === '' ? 'Write the note' : v.length > MAX_NOTE_CHARS ? `At most ${MAX_NOTE_CHARS} characters` : undefined),
    }));
  if (!text?.trim()) {
    return undefined;
  }
  const note = await notes.notes.add(side.runKey, anchor, text);
  const count = (await notes.notes.notes(side.runKey)).length;
  void vscode.window.setStatusBarMessage(`$(comment) Note on ${notePlace(note)} kept (${count} to send)`, 4000);
  return note.id;
}

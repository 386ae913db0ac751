/**
 * The first message of a run continued from a checkpoint (issue #26), seen and edited before it is sent: the draft
 * (the earlier conversation as a context block, then an instruction) opens in an untitled editor; *Start Run* sends
 * what the editor then holds, *Cancel* (or closing the editor) sends nothing. A test host answers with a function
 * instead (ui/testHooks.ts).
 */
import * as vscode from 'vscode';

export interface FirstMessageDraft {
  /** The earlier run's title, for the question. */
  readonly runTitle: string;
  /** Where the conversation stops, in words ("turn 1"). */
  readonly upTo: string;
  readonly draft: string;
  /** `agent`: the agent goes on from its own copy of the session (`how`: its action, e.g. "Fork Run"), the draft is only
   * the next message; `message`: the draft quotes the earlier conversation. */
  readonly carriedBy: 'agent' | 'message';
  readonly how?: string;
}

/** The message to send (the person's edit of the draft), or undefined: start nothing. */
export type EditFirstMessage = (draft: FirstMessageDraft) => Promise<string | undefined>;

const START = 'Start Run';

export const editorFirstMessage: EditFirstMessage = async ({ runTitle, upTo, draft, carriedBy, how }) => {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: draft });
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  // The end of the draft is the instruction the person most likely rewrites: put the cursor there.
  const end = document.lineAt(document.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
  editor.revealRange(new vscode.Range(end, end));
  let closed = false;
  const closing = vscode.workspace.onDidCloseTextDocument((d) => {
    closed ||= d === document;
  });
  try {
    const what =
      carriedBy === 'agent'
        ? `the agent keeps the conversation itself (${how ?? 'its own session'}): write what it should do next`
        : 'edit its first message in the editor (the earlier conversation, then what to do next)';
    const answer = await vscode.window.showInformationMessage(
      `Continue “${runTitle}” from ${upTo} in a new run: ${what}, then press Start Run.`,
      START,
      'Cancel',
    );
    if (answer !== START || closed) {
      return undefined;
    }
    const text = document.getText();
    return text.trim() === '' ? undefined : text;
  } finally {
    closing.dispose();
    if (!closed) {
      // The draft was the person's to edit, not to keep: closed without asking to save it.
      await vscode.window.showTextDocument(document).then(
        () => vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor'),
        () => undefined,
      );
    }
  }
};

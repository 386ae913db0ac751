/**
 * The question before runs are deleted for good (*Remove Run*, *Clear Finished Runs…*), given to the history
 * commands through `UserPrompts` (userPrompts.ts): a modal for the person, an answer a test sets in a test host.
 */
import * as vscode from 'vscode';

/** What is asked: the question and what deleting does. */
export interface RemovalQuestion {
  readonly message: string;
  readonly detail: string;
}

/** Resolves true when the runs may be deleted. */
export type ConfirmRemoval = (question: RemovalQuestion) => Promise<boolean>;

export const modalConfirmRemoval: ConfirmRemoval = async (question) =>
  (await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, 'Remove')) === 'Remove';

/**
 * The right-hand (after) side of a change-set diff editor, where *Add Note for Agent* works: which run and file a
 * document of that side shows, and the context key that shows the command only there — kept from activation, in
 * the core, since the command's bundle loads at its first use (reviewNoteCommands.ts).
 */
import * as vscode from 'vscode';
import { CHANGES_SCHEME } from '../changeSets/changeSetDocuments';

const AFTER_SIDE_CONTEXT = 'agentSwitchboard.changeSetAfterSide';

/** The run and file of a change-set document's after side, from its URI (undefined: not one). */
export function afterSideOf(uri: vscode.Uri): { runKey: string; fileIndex: number } | undefined {
  if (uri.scheme !== CHANGES_SCHEME) {
    return undefined;
  }
  const query = new URLSearchParams(uri.query);
  const runKey = query.get('run');
  const fileIndex = Number(query.get('file'));
  return query.get('side') === 'after' && runKey && Number.isInteger(fileIndex) && fileIndex >= 0 ? { runKey, fileIndex } : undefined;
}

export function watchAfterSideContext(): vscode.Disposable {
  const update = (): void => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    void vscode.commands.executeCommand('setContext', AFTER_SIDE_CONTEXT, uri !== undefined && afterSideOf(uri) !== undefined);
  };
  update();
  return vscode.window.onDidChangeActiveTextEditor(update);
}

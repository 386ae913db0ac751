/**
 * Read-only virtual documents for actions whose result is a document (a hive agent's logs, the host journal, SCV's
 * daemon status, AgencyProxy's account usage): `agent-switchboard-doc:` URIs, so VS Code never asks to save them.
 * Each remembers the action, target and answers that made it, so *Refresh* in its editor title performs the action
 * again and replaces the content.
 */
import * as vscode from 'vscode';
import type { ActionAnswers, ActionTarget } from '../../drivers/kit/daemonActions';
import { Disposable } from '../disposable';

export const ACTION_DOCUMENT_SCHEME = 'agent-switchboard-doc';

interface DocumentOrigin {
  readonly command: string;
  readonly target: ActionTarget;
  readonly answers: ActionAnswers;
}

interface ShownDocument {
  readonly origin: DocumentOrigin;
  content: string;
}

export class ActionDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly documents = new Map<string, ShownDocument>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(ACTION_DOCUMENT_SCHEME, this));
    // A closed document's content is not needed any more (a refresh of it cannot be asked for).
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => this.documents.delete(doc.uri.toString())));
  }

  /** One URI per action, target and answers: showing the same view again refreshes its tab instead of adding one. */
  uriFor(origin: DocumentOrigin, connectionName: string, name: string): vscode.Uri {
    const query = new URLSearchParams({ command: origin.command, connection: origin.target.connectionId, answers: JSON.stringify(origin.answers) });
    if (origin.target.runId !== undefined) {
      query.set('run', origin.target.runId);
    }
    return vscode.Uri.from({ scheme: ACTION_DOCUMENT_SCHEME, path: `/${connectionName.replace(/[\\/]/g, '_')}/${name.replace(/[\\/]/g, '_')}`, query: query.toString() });
  }

  /** `rendered`: a markdown document is shown as VS Code's markdown preview (it follows later refreshes). */
  async show(uri: vscode.Uri, origin: DocumentOrigin, language: string, content: string, rendered = false): Promise<void> {
    this.update(uri, origin, content);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== language) {
      doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    }
    if (rendered && language === 'markdown') {
      try {
        await vscode.commands.executeCommand('markdown.showPreview', uri);
        return;
      } catch {
        // No markdown preview (the built-in extension disabled): the text, which reads well too.
      }
    }
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** What made the document at `uri`, if it is one of ours and still open. */
  originOf(uri: vscode.Uri): DocumentOrigin | undefined {
    return this.documents.get(uri.toString())?.origin;
  }

  update(uri: vscode.Uri, origin: DocumentOrigin, content: string): void {
    const text = content === '' ? '(empty)\n' : content.endsWith('\n') ? content : `${content}\n`;
    this.documents.set(uri.toString(), { origin, content: text });
    this.changeEmitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString())?.content ?? '(Not loaded: run the command again.)\n';
  }
}

/**
 * Read-only virtual documents on the `agent-switchboard-proposal:` scheme: the proposed side of an approval diff.
 * Backed by a map; `clear` removes the content when the approval settles.
 */
import * as vscode from 'vscode';
import { Disposable } from '../disposable';

export const PROPOSAL_SCHEME = 'agent-switchboard-proposal';

export class ProposalContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
  }

  /**
   * A URI for one proposed file of one approval. The path is the real file's path (so the editor picks the language
   * and the multi-diff editor shows the file, not a rename); the query keeps each side of each approval distinct.
   */
  uriFor(approvalKey: string, index: number, filePath: string, side: 'proposed' | 'original'): vscode.Uri {
    return vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: filePath.startsWith('/') ? filePath : `/${filePath}`,
      query: new URLSearchParams({ approval: approvalKey, side, index: String(index) }).toString(),
    });
  }

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changeEmitter.fire(uri);
  }

  has(uri: vscode.Uri): boolean {
    return this.contents.has(uri.toString());
  }

  clearApproval(approvalKey: string): void {
    for (const key of [...this.contents.keys()]) {
      if (approvalKeyOfUri(vscode.Uri.parse(key)) === approvalKey) {
        this.contents.delete(key);
      }
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '(This proposal is no longer available: the approval was settled.)';
  }
}

export function approvalKeyOfUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== PROPOSAL_SCHEME) {
    return undefined;
  }
  return new URLSearchParams(uri.query).get('approval') ?? undefined;
}

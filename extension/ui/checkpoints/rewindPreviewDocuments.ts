/**
 * Read-only documents on the `agent-switchboard-rewind:` scheme: the two sides of each file of a rewind preview — the
 * files now (the preview's own snapshot, so the diff shows exactly what the rewind compares) and at the checkpoint —
 * read from the scope's git objects (the repository's, or the private git dir of a folder that is not one). A URI
 * names a preview by a token this provider handed out, never a git dir or tree: a URI another extension makes up
 * reads nothing. The last few previews are kept; older tokens read as gone.
 */
import * as vscode from 'vscode';
import type { RewindPreview } from '../../changeSets/rewindPreview';
import { readScopeBlob } from '../../changeSets/snapshotScope';
import { Disposable } from '../disposable';

export const REWIND_SCHEME = 'agent-switchboard-rewind';

/** Previews kept for their documents (each a few tree ids: small). */
const KEPT_PREVIEWS = 8;
/** A side larger than this is not shown as text (the diff editor would struggle; the rewind writes it all the same). */
const MAX_SIDE_BYTES = 5 * 1024 * 1024;

export type RewindSide = 'now' | 'target';

export class RewindPreviewDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly previews = new Map<string, RewindPreview>();
  private next = 0;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REWIND_SCHEME, this));
  }

  /** Keeps the preview for its documents; returns its token. */
  register(preview: RewindPreview): string {
    const token = `p${++this.next}`;
    this.previews.set(token, preview);
    for (const old of [...this.previews.keys()].slice(0, Math.max(0, this.previews.size - KEPT_PREVIEWS))) {
      this.previews.delete(old);
    }
    return token;
  }

  uriFor(token: string, scope: number, path: string, side: RewindSide): vscode.Uri {
    return vscode.Uri.from({ scheme: REWIND_SCHEME, path: `/${path}`, query: new URLSearchParams({ p: token, s: String(scope), side }).toString() });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const scope = this.previews.get(query.get('p') ?? '')?.scopes[Number(query.get('s'))];
    if (scope === undefined) {
      return '(this preview is gone: preview the rewind again)\n';
    }
    const path = uri.path.slice(1);
    const tree = query.get('side') === 'now' ? scope.nowTree : scope.targetTree;
    const blob = await readScopeBlob(scope, tree, path);
    if (blob === undefined) {
      return '';
    }
    if (blob.length > MAX_SIDE_BYTES || blob.subarray(0, 8000).includes(0)) {
      return `(${path}: ${blob.length.toLocaleString('en-US')} bytes, not shown as text)\n`;
    }
    return blob.toString('utf8');
  }
}

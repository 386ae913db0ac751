/**
 * Read-only virtual documents on the `agent-switchboard-changes:` scheme: the before/after sides of each file of a
 * run's change set (see changeSetSides.ts), computed on demand from the model. The URI path is the file's path (so
 * the editor picks the language and labels it like the workspace file); side, file index and run are in the query.
 * An open side follows its run's change set: computed again (a later turn, an Undo, a Redo), the open diff and
 * multi-diff editors are redrawn from it, never left showing the change set as it was.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo, ModelState } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { Disposable } from '../disposable';
import { readChangeSet } from './changeSetReading';
import type { FileSides } from './changeSetSides';
import { availableTrees, fileSides } from './changeSetSides';
import { changeSetTarget } from './changeSetWorkspace';

export const CHANGES_SCHEME = 'agent-switchboard-changes';

type Side = 'before' | 'after';

/** The run and file a change-set document shows (either side), or undefined for any other URI. */
export function changeSetDocumentOf(uri: vscode.Uri): { readonly runKey: string; readonly index: number } | undefined {
  if (uri.scheme !== CHANGES_SCHEME) {
    return undefined;
  }
  const query = new URLSearchParams(uri.query);
  const runKey = query.get('run');
  const index = Number(query.get('file'));
  return runKey && Number.isInteger(index) && index >= 0 ? { runKey, index } : undefined;
}

export class ChangeSetDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly sides = new WeakMap<ChangeSetInfo, Map<number, Promise<FileSides>>>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;
  /** Which change set each side was last drawn from (by URI): redrawn when its run's is another one. */
  private readonly drawnFrom = new Map<string, ChangeSetInfo | undefined>();
  private seenChangeSets: ModelState['changeSets'];

  constructor(private readonly store: RunStore) {
    super();
    this.seenChangeSets = store.state.changeSets;
    this._register(vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, this));
    this._register(store.onDidChange((state) => this.redrawChanged(state)));
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => this.drawnFrom.delete(doc.uri.toString())));
  }

  /** O(open sides), only when some change set changed (the map is persistent: same object, nothing changed). */
  private redrawChanged(state: ModelState): void {
    if (state.changeSets === this.seenChangeSets) {
      return;
    }
    this.seenChangeSets = state.changeSets;
    for (const [uri, drawn] of this.drawnFrom) {
      const run = new URLSearchParams(vscode.Uri.parse(uri).query).get('run');
      const now = run ? state.changeSets.get(run) : undefined;
      // One being captured again is drawn once it is ready: until then the side shows the one before.
      if (run && now !== drawn && now?.status !== 'capturing') {
        this.changeEmitter.fire(vscode.Uri.parse(uri));
      }
    }
  }

  /**
   * Both sides share the file's own path (so editors label them like the workspace file, and only a rename shows
   * as one); the side, the file index and the run are in the query.
   */
  uriFor(runKey: string, index: number, file: PatchFile, side: Side): vscode.Uri {
    const path = side === 'before' ? file.oldPath : file.newPath;
    return vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `/${path}`, query: new URLSearchParams({ side, file: String(index), run: runKey }).toString() });
  }

  /** Both sides of one file (cached per change set), once its patch is read. */
  async fileSides(runKey: string, info: ChangeSetInfo, index: number): Promise<FileSides | undefined> {
    const parsed = await readChangeSet(info);
    const file = parsed.ok ? parsed.files[index] : undefined;
    if (!file) {
      return undefined;
    }
    let perFile = this.sides.get(info);
    if (!perFile) {
      perFile = new Map();
      this.sides.set(info, perFile);
    }
    let sides = perFile.get(index);
    if (!sides) {
      sides = (async () => {
        const target = await changeSetTarget(this.store, runKey);
        const trees = await availableTrees({ ...(target?.repo ? { repo: target.repo } : {}), ...(info.baseTree ? { baseTree: info.baseTree } : {}), ...(info.resultTree ? { resultTree: info.resultTree } : {}) });
        return fileSides(file, target?.repo, trees);
      })();
      perFile.set(index, sides);
    }
    return sides;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const runKey = query.get('run');
    const side = query.get('side');
    const info = runKey ? this.store.state.changeSets.get(runKey) : undefined;
    this.drawnFrom.set(uri.toString(), info);
    const index = await fileIndexOf(info, Number(query.get('file')), uri.path.slice(1), side);
    if (!runKey || info?.status !== 'ready' || (side !== 'before' && side !== 'after') || !Number.isInteger(index)) {
      return '(This change set is no longer available.)';
    }
    const sides = await this.fileSides(runKey, info, index);
    if (!sides) {
      return '(This file is not part of the change set.)';
    }
    return side === 'before' ? sides.left : sides.right;
  }
}

/**
 * The file a side shows: the one at `index` when it still has the side's path, else the one with that path now (a
 * change set computed again may order its files differently); `index` as it was when neither is found.
 */
async function fileIndexOf(info: ChangeSetInfo | undefined, index: number, path: string, side: string | null): Promise<number> {
  if (info?.status !== 'ready') {
    return index;
  }
  const parsed = await readChangeSet(info);
  if (!parsed.ok) {
    return index;
  }
  const pathOf = (file: PatchFile): string => (side === 'before' ? file.oldPath : file.newPath);
  const atIndex = parsed.files[index];
  if (atIndex && pathOf(atIndex) === path) {
    return index;
  }
  const found = parsed.files.findIndex((file) => pathOf(file) === path);
  return found >= 0 ? found : index;
}

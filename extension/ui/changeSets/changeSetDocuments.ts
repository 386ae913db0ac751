/**
 * Read-only virtual documents on the `agent-switchboard-changes:` scheme: the before/after sides of each file of a
 * run's change set (see changeSetSides.ts), computed on demand from the model. The URI path is the file's path (so
 * the editor picks the language and labels it like the workspace file); side, file index and run are in the query.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo } from '../../model/modelTypes';
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

  constructor(private readonly store: RunStore) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, this));
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
    const index = Number(query.get('file'));
    const info = runKey ? this.store.state.changeSets.get(runKey) : undefined;
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

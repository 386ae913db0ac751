/**
 * The two sides of one file of a change set, for diff views. Left: the file in `base_tree` read from git when the
 * workspace repository has that tree, else what the patch itself reveals (`reconstructSides`, unknown lines shown
 * as "⋯"). Right: the file in `result_tree` when git has it, else the left side with the hunks applied, else the
 * reconstruction. Read-only git access (`cat-file`); no `vscode`.
 */
import { applyHunks, reconstructSides } from '../../changeSets/hunkApply';
import type { PatchFile } from '../../changeSets/patchTypes';
import { hasGitTree, readTreeBlob } from '../../changeSets/gitTrees';

export interface FileSides {
  readonly left: string;
  readonly right: string;
  /** Where each side came from, for the diff title. */
  readonly leftFrom: 'git' | 'patch' | 'none';
  readonly rightFrom: 'git' | 'patch' | 'none';
}

export interface TreeSource {
  /** The repository top level holding the trees, if any. */
  readonly repo?: string;
  readonly baseTree?: string;
  readonly resultTree?: string;
}

const FILLER = '⋯';

function binaryNote(file: PatchFile, side: 'before' | 'after'): string {
  return `(binary file ${side === 'before' ? file.oldPath : file.newPath}: not shown as text)\n`;
}

/** Which trees of a change set the repository actually holds (a daemon's trees may live elsewhere). */
export async function availableTrees(source: TreeSource): Promise<{ base?: string; result?: string }> {
  if (source.repo === undefined) {
    return {};
  }
  const repo = source.repo;
  const held = async (tree: string | undefined): Promise<string | undefined> => (tree !== undefined && (await hasGitTree(repo, tree)) ? tree : undefined);
  const [base, result] = await Promise.all([held(source.baseTree), held(source.resultTree)]);
  return { ...(base !== undefined ? { base } : {}), ...(result !== undefined ? { result } : {}) };
}

/** Both sides of `file`; `trees` from {@link availableTrees}. */
export async function fileSides(file: PatchFile, repo: string | undefined, trees: { base?: string; result?: string }): Promise<FileSides> {
  if (file.binary) {
    return {
      left: file.status === 'added' ? '' : binaryNote(file, 'before'),
      right: file.status === 'deleted' ? '' : binaryNote(file, 'after'),
      leftFrom: 'none',
      rightFrom: 'none',
    };
  }
  const reconstructed = reconstructSides(file, { filler: FILLER });
  let left = reconstructed.left.text;
  let leftFrom: FileSides['leftFrom'] = file.status === 'added' ? 'none' : 'patch';
  if (file.status !== 'added' && repo !== undefined && trees.base !== undefined) {
    const blob = await readTreeBlob(repo, trees.base, file.oldPath);
    if (blob !== undefined) {
      left = blob.toString('utf8');
      leftFrom = 'git';
    }
  }
  if (file.status === 'deleted') {
    return { left, right: '', leftFrom, rightFrom: 'none' };
  }
  if (repo !== undefined && trees.result !== undefined) {
    const blob = await readTreeBlob(repo, trees.result, file.newPath);
    if (blob !== undefined) {
      return { left, right: blob.toString('utf8'), leftFrom, rightFrom: 'git' };
    }
  }
  if (leftFrom === 'git' || file.status === 'added') {
    const applied = applyHunks(left, file);
    if (applied.ok) {
      return { left, right: applied.text, leftFrom, rightFrom: leftFrom === 'git' ? 'git' : 'patch' };
    }
  }
  // The base file does not match the patch (or is unknown): show both sides as the patch reveals them.
  return {
    left: reconstructed.left.text,
    right: reconstructed.right.text,
    leftFrom: file.status === 'added' ? 'none' : 'patch',
    rightFrom: 'patch',
  };
}

/**
 * How many files a checkpoint changed since the one before it (the transcript's marker says "files: 3 changed"):
 * per scope, the paths that differ from the previous checkpoint's tree — after a rewind, the files right after it.
 * Undefined when it cannot be told (a first checkpoint has nothing before it but is counted as 0; a tree gone).
 */
import type { FileCheckpoint, ScopeTree } from './fileCheckpointRecords';
import { changedPaths } from './rewindPreview';

function baselineOf(previous: FileCheckpoint): readonly ScopeTree[] {
  return previous.kind === 'beforeRewind' ? (previous.after ?? previous.trees) : previous.trees;
}

export async function filesChangedSince(history: readonly FileCheckpoint[], checkpoint: FileCheckpoint): Promise<number | undefined> {
  const index = history.findIndex((c) => c.id === checkpoint.id);
  const previous = index > 0 ? history[index - 1] : undefined;
  if (previous === undefined) {
    return 0;
  }
  let count = 0;
  for (const tree of checkpoint.trees) {
    const before = baselineOf(previous).find((t) => t.top === tree.top && t.gitDir === tree.gitDir);
    if (before === undefined) {
      return undefined;
    }
    try {
      count += before.tree === tree.tree ? 0 : (await changedPaths(tree, before.tree, tree.tree)).size;
    } catch {
      return undefined;
    }
  }
  return count;
}

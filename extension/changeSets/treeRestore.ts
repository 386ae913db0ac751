/**
 * Restoring a scope's files to a snapshot tree (issue #26, rewind and redo): what differs between the working tree's
 * snapshot now and the target (`diff-tree`, per path: added, deleted, modified, mode or type changed), and writing
 * exactly those paths back.
 *
 * Files are written by git itself from a private index holding the target tree (`read-tree` then `checkout-index
 * -f -- <paths>`): contents, the executable bit and symbolic links come out as git stores them, and git refuses to
 * write through a symbolically linked parent folder. Deletions are ours, after checking that no parent folder below
 * the top is a symbolic link (a link to `/etc` must not turn "delete a/x" into "delete /etc/x"). The user's index
 * and HEAD are never read or written. Submodules (gitlinks) are reported, never touched. Pure Node, no `vscode`.
 */
import { lstat, mkdtemp, rm, rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { treeHex } from './gitTrees';
import { scopeGit } from './snapshotScope';
import type { SnapshotScope } from './snapshotScope';

/** How one path differs between now and the target, as the restore will change it. */
export type RestoreChange = 'add' | 'delete' | 'modify' | 'mode' | 'type';

export interface RestoreEntry {
  /** Relative to the scope's top, `/`-separated, as git names it. */
  readonly path: string;
  readonly change: RestoreChange;
  /** Git modes (`100644`, `100755`, `120000`, `160000`; `000000`: absent). */
  readonly nowMode: string;
  readonly targetMode: string;
}

/** Why a path was not restored. */
export interface RestoreFailure {
  readonly path: string;
  readonly reason: string;
}

const GITLINK = '160000';
const ABSENT = '000000';

function changeOf(nowMode: string, targetMode: string, status: string): RestoreChange {
  if (nowMode === ABSENT) {
    return 'add';
  }
  if (targetMode === ABSENT) {
    return 'delete';
  }
  if (status === 'T') {
    return 'type';
  }
  return status === 'M' && nowMode !== targetMode ? 'mode' : 'modify';
}

/**
 * The paths that differ from `nowTree` to `targetTree`. A path that changes content and mode is `modify`; `mode`
 * is a mode change alone (the blob ids are then equal).
 */
export async function restorePlan(scope: SnapshotScope, nowTree: string, targetTree: string): Promise<RestoreEntry[]> {
  const raw = await scopeGit(scope, ['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', treeHex(nowTree), treeHex(targetTree)]);
  const fields = raw.toString('utf8').split('\0');
  const out: RestoreEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:<now mode> <target mode> <now blob> <target blob> <status>` then the path.
    const [nowMode, targetMode, nowBlob, targetBlob, status] = (fields[i] as string).slice(1).split(' ');
    const path = fields[i + 1] as string;
    if (nowMode === undefined || targetMode === undefined || status === undefined) {
      continue;
    }
    const change = changeOf(nowMode, targetMode, status);
    out.push({ path, change: change === 'mode' && nowBlob !== targetBlob ? 'modify' : change, nowMode, targetMode });
  }
  return out;
}

/** The first parent folder of `path` (below `top`) that is not a plain folder, if any. */
async function unsafeParent(top: string, path: string): Promise<string | undefined> {
  const parts = path.split('/');
  let at = top;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const stat = await lstat(at).catch(() => undefined);
    if (stat === undefined) {
      return undefined;
    }
    if (!stat.isDirectory()) {
      return at;
    }
  }
  return undefined;
}

/** Removes the folders a deletion emptied, up to (not including) the top. */
async function removeEmptyParents(top: string, path: string): Promise<void> {
  let dir = dirname(join(top, path));
  while (dir.length > top.length && dir.startsWith(top)) {
    try {
      await rmdir(dir);
    } catch {
      return; // not empty (or already gone): everything above is kept too
    }
    dir = dirname(dir);
  }
}

async function deleteEntry(top: string, entry: RestoreEntry): Promise<RestoreFailure | undefined> {
  const parent = await unsafeParent(top, entry.path);
  if (parent !== undefined) {
    return { path: entry.path, reason: `${parent} is not a plain folder (a symbolic link or a file): nothing was deleted through it` };
  }
  const full = join(top, entry.path);
  const stat = await lstat(full).catch(() => undefined);
  if (stat?.isDirectory()) {
    return { path: entry.path, reason: 'a folder is where the file was: it was left as it is' };
  }
  await unlink(full).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') {
      throw error;
    }
  });
  await removeEmptyParents(top, entry.path);
  return undefined;
}

/** Git's argument list has a size limit: paths are written in batches of about this many bytes. */
const ARG_BATCH_BYTES = 64 * 1024;

function batches(paths: readonly string[]): string[][] {
  const out: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    if (bytes + path.length > ARG_BATCH_BYTES && batch.length > 0) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(path);
    bytes += path.length + 1;
  }
  if (batch.length > 0) {
    out.push(batch);
  }
  return out;
}

/**
 * Writes `entries` (from {@link restorePlan} towards `targetTree`) into the scope's working tree: deletions first
 * (a deleted `a/b` may leave room for a file `a`), then every added or changed path from the target. Each path that
 * could not be restored is returned with its reason; the others are done.
 */
export async function restoreEntries(scope: SnapshotScope, targetTree: string, entries: readonly RestoreEntry[]): Promise<RestoreFailure[]> {
  const failures: RestoreFailure[] = [];
  const writes: string[] = [];
  for (const entry of entries) {
    if (entry.nowMode === GITLINK || entry.targetMode === GITLINK) {
      failures.push({ path: entry.path, reason: 'a submodule: rewind leaves submodules as they are' });
      continue;
    }
    if (entry.change === 'delete' || entry.change === 'type') {
      const failure = await deleteEntry(scope.top, entry);
      if (failure !== undefined) {
        failures.push(failure);
        continue;
      }
    }
    if (entry.change !== 'delete') {
      writes.push(entry.path);
    }
  }
  const writable: string[] = [];
  for (const path of writes) {
    const stat = await lstat(join(scope.top, path)).catch(() => undefined);
    if (stat?.isDirectory()) {
      failures.push({ path, reason: 'a folder is where the file goes: it was left as it is' });
    } else {
      writable.push(path);
    }
  }
  if (writable.length === 0) {
    return failures;
  }
  const dir = await mkdtemp(join(tmpdir(), 'sb-restore-'));
  const index = join(dir, 'index');
  try {
    await scopeGit(scope, ['read-tree', treeHex(targetTree)], index);
    for (const batch of batches(writable)) {
      try {
        await scopeGit(scope, ['checkout-index', '-f', '-q', '--', ...batch], index);
      } catch {
        // git goes on past a path it cannot write and then fails: find out which, path by path (rare).
        for (const path of batch) {
          await scopeGit(scope, ['checkout-index', '-f', '-q', '--', path], index).catch((error: unknown) => {
            failures.push({ path, reason: error instanceof Error ? error.message : String(error) });
          });
        }
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return failures;
}

/**
 * Where a workspace root's file checkpoints live, and how one is taken (issue #26, checkpoints and rewind).
 *
 * In a git work tree the scope is the repository's top level and the snapshot is `snapshotWorkingTree`'s (a copy of
 * the user's index, `add -A`, `write-tree`): the objects go to the repository's own object store, where the local
 * change sets already put theirs, so the change-set UI reads either side of a checkpoint diff from the repository as
 * it does for a change set, and unchanged blobs cost nothing. Nothing touches the user's index, HEAD or branches.
 *
 * In a folder that is not in a git work tree the scope is the folder itself, snapshotted into a *private* bare
 * repository under the extension's storage (`GIT_DIR` there, `GIT_WORK_TREE` the folder, a private index): the
 * folder gets no `.git` and no file of ours. It is bounded — the folder's `.gitignore` files and a default exclude
 * list of dependency and cache folders apply, and past a file-count or byte cap the snapshot is refused with a reason
 * the UI can show (a checkpoint there would copy a whole home folder into the extension's storage).
 *
 * Snapshots are kept from `git gc` by refs under `refs/agent-switchboard/checkpoints/<run>/<checkpoint>` that point
 * at the trees: `git log --all`, `git branch` and the editor's own git view list no tree refs, and `update-ref` on
 * them changes nothing else (no HEAD, no index, no reflog outside `refs/heads`). Pure Node, no `vscode`.
 */
import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyIndex, GitError, gitTopLevel, runGit, snapshotWorkingTree, treeHex } from './gitTrees';

/** One place checkpoints are taken of: a repository's work tree, or a plain folder with a private git dir. */
export interface SnapshotScope {
  /** The work tree's top level: every checkpoint path is relative to it. */
  readonly top: string;
  /** The private git dir of a folder that is not a git work tree (absent: the repository's own). */
  readonly gitDir?: string;
}

/** Bounds of a private snapshot (folders that are not git work trees). */
export interface PrivateSnapshotLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export const DEFAULT_PRIVATE_LIMITS: PrivateSnapshotLimits = { maxFiles: 10_000, maxBytes: 100 * 1024 * 1024 };

/** What a private snapshot leaves out besides the folder's own `.gitignore` files: dependencies, caches, builds of tools. */
export const PRIVATE_EXCLUDES = ['node_modules/', '.venv/', 'venv/', '__pycache__/', '*.pyc', '.cache/', '.DS_Store', 'Thumbs.db', '.git'];

/** A snapshot could not be taken here; `reason` finishes "No checkpoint of <root>: …". */
export class SnapshotUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SnapshotUnavailable';
  }
}

const CONFIG = ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', '-c', 'gc.auto=0', '-c', 'core.quotePath=false'];

function hashOf(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** The environment git needs for a scope (plus a private index when given). */
export function scopeEnv(scope: SnapshotScope, index?: string): Record<string, string> {
  return {
    GIT_LITERAL_PATHSPECS: '1',
    ...(scope.gitDir !== undefined ? { GIT_DIR: scope.gitDir, GIT_WORK_TREE: scope.top } : {}),
    ...(index !== undefined ? { GIT_INDEX_FILE: index } : {}),
  };
}

/** git in a scope, with our fixed configuration (raw bytes, no auto-gc). */
export function scopeGit(scope: SnapshotScope, args: readonly string[], index?: string, maxBuffer?: number): Promise<Buffer> {
  return runGit(scope.top, [...CONFIG, ...args], { env: scopeEnv(scope, index), ...(maxBuffer !== undefined ? { maxBuffer } : {}) });
}

/**
 * The bytes of `path` in a tree of the scope (a private git dir's too: the preview diff reads both sides this way),
 * or undefined when the tree has no such blob.
 */
export async function readScopeBlob(scope: SnapshotScope, tree: string, path: string): Promise<Buffer | undefined> {
  try {
    return await scopeGit(scope, ['cat-file', 'blob', `${treeHex(tree)}:${path}`]);
  } catch {
    return undefined;
  }
}

/**
 * The scope of a workspace root: its repository's top level, or (not in a git work tree) the folder itself with a
 * private git dir under `privateRoot`, one per folder (runs in the same folder share its objects).
 */
export async function resolveSnapshotScope(root: string, privateRoot: string): Promise<SnapshotScope> {
  const top = await gitTopLevel(root);
  if (top !== undefined) {
    return { top };
  }
  const stat = await lstat(root).catch(() => undefined);
  if (stat === undefined || !stat.isDirectory()) {
    throw new SnapshotUnavailable(`${root} is not a folder on this machine`);
  }
  return { top: root, gitDir: join(privateRoot, `${hashOf(root, 24)}.git`) };
}

/** Creates the private git dir once: bare (no work tree of its own), with the default excludes. */
async function ensurePrivateGitDir(gitDir: string): Promise<void> {
  if ((await lstat(join(gitDir, 'HEAD')).catch(() => undefined)) !== undefined) {
    return;
  }
  await mkdir(gitDir, { recursive: true });
  await runGit(gitDir, ['init', '-q', '--bare', gitDir]);
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'info', 'exclude'), `${PRIVATE_EXCLUDES.join('\n')}\n`);
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(0)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
}

/** Refuses a folder past the limits, before any byte of it is copied into the private store. */
async function checkPrivateSize(scope: SnapshotScope, index: string, limits: PrivateSnapshotLimits): Promise<void> {
  let listing: Buffer;
  try {
    // Roughly 1 KiB of names per file is more than any real tree needs: past that the count is over anyway.
    listing = await scopeGit(scope, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], index, limits.maxFiles * 1024);
  } catch (error) {
    if (error instanceof GitError && error.tooLarge) {
      throw new SnapshotUnavailable(`the folder holds more than ${limits.maxFiles.toLocaleString('en-US')} files (the limit for folders that are not git repositories)`);
    }
    throw error;
  }
  const names = listing.toString('utf8').split('\0').filter((n) => n !== '');
  if (names.length > limits.maxFiles) {
    throw new SnapshotUnavailable(`the folder holds ${names.length.toLocaleString('en-US')} files, more than ${limits.maxFiles.toLocaleString('en-US')} (the limit for folders that are not git repositories)`);
  }
  let bytes = 0;
  for (const name of names) {
    const stat = await lstat(join(scope.top, name)).catch(() => undefined);
    bytes += stat?.isFile() ? stat.size : 0;
    if (bytes > limits.maxBytes) {
      throw new SnapshotUnavailable(`the folder holds more than ${sizeText(limits.maxBytes)} of files (the limit for folders that are not git repositories)`);
    }
  }
}

/**
 * A private snapshot. The private index is kept between snapshots for its stat cache: each snapshot works on a copy
 * and renames it back (two at once both write a valid index; the later one wins).
 */
async function snapshotPrivate(scope: SnapshotScope & { readonly gitDir: string }, limits: PrivateSnapshotLimits): Promise<string> {
  await ensurePrivateGitDir(scope.gitDir);
  const kept = join(scope.gitDir, 'switchboard-index');
  const dir = await mkdtemp(join(tmpdir(), 'sb-ckpt-'));
  const index = join(dir, 'index');
  try {
    await copyIndex(kept, index).catch(() => undefined);
    await checkPrivateSize(scope, index, limits);
    await scopeGit(scope, ['add', '-A', '--', '.'], index);
    const tree = (await scopeGit(scope, ['write-tree'], index)).toString('utf8').trim();
    await copyFile(index, `${kept}.${process.pid}.tmp`);
    await rename(`${kept}.${process.pid}.tmp`, kept).catch(() => undefined);
    return `git-tree:${treeHex(tree)}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The scope's working tree now, as a tree id (`git-tree:<hex>`). */
export function snapshotScope(scope: SnapshotScope, limits: PrivateSnapshotLimits = DEFAULT_PRIVATE_LIMITS): Promise<string> {
  const gitDir = scope.gitDir;
  return gitDir === undefined ? snapshotWorkingTree(scope.top) : snapshotPrivate({ top: scope.top, gitDir }, limits);
}

// --- Refs that keep checkpoint trees from `git gc` ---------------------------------------------------------------------

const REF_ROOT = 'refs/agent-switchboard/checkpoints';

/** The ref folder of one run's checkpoints: a hash of the run's identity, valid as a ref name whatever the id holds. */
export function runRefFolder(runIdentity: string): string {
  return `${REF_ROOT}/${hashOf(runIdentity, 32)}`;
}

/** Checkpoint ids are ours (`c12`, `r3`); anything else is refused rather than turned into a ref name. */
function refOf(runIdentity: string, checkpointId: string): string {
  if (!/^[a-z][0-9]{1,9}$/.test(checkpointId)) {
    throw new GitError(`${JSON.stringify(checkpointId)} is not a checkpoint id`);
  }
  return `${runRefFolder(runIdentity)}/${checkpointId}`;
}

/** Points the checkpoint's ref at its tree (the tree is then kept by `git gc`). */
export async function pinTree(scope: SnapshotScope, runIdentity: string, checkpointId: string, tree: string): Promise<void> {
  await scopeGit(scope, ['update-ref', '--no-deref', refOf(runIdentity, checkpointId), treeHex(tree)]);
}

/** Deletes every checkpoint ref of the run in this scope (their trees go at the next `git gc`). Removal is rare: one call each. */
export async function unpinRun(scope: SnapshotScope, runIdentity: string): Promise<void> {
  const refs = (await scopeGit(scope, ['for-each-ref', '--format=%(refname)', `${runRefFolder(runIdentity)}/`])).toString('utf8');
  for (const ref of refs.split('\n').filter((r) => r !== '')) {
    await scopeGit(scope, ['update-ref', '--no-deref', '-d', ref]);
  }
}

/**
 * Read-mostly git plumbing for change sets: snapshot a working tree as a tree object, diff two trees, and read a
 * file of a tree. Nothing here touches the user's index, HEAD, refs or working tree: a snapshot is written from a
 * *copy* of the index (GIT_INDEX_FILE), so the only lasting effect is new objects in the object database — the
 * same approach the A3S harness uses for its change sets. Pure Node (child_process), no `vscode`.
 *
 * Daemon-independent: it takes a repository path and tree ids, nothing of any wire protocol — local change sets
 * (localChangeSet.ts) snapshot and diff with it, and the change-set UI reads the base side of a daemon's or a
 * local change set from it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The patch limit of A3S change sets (WIRE.md 3.8); local change sets use the same bound. */
export const CHANGE_SET_PATCH_LIMIT = 4_194_304;

const TREE_HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export class GitError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

interface GitOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly maxBuffer?: number;
  readonly timeoutMs?: number;
}

/**
 * A child environment without inherited `GIT_*` variables: a hook, a terminal or the editor's own git integration
 * could otherwise point us at another repository or index.
 */
export function gitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('GIT_')) {
      env[k] = v;
    }
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', ...extra };
}

/** The git subcommand of an argument list (after any `-c key=value` pairs), for messages. */
function subcommand(args: readonly string[]): string {
  let i = 0;
  while (args[i] === '-c') {
    i += 2;
  }
  return args[i] ?? '';
}

export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<Buffer> {
  const maxBuffer = options.maxBuffer ?? 64 * 1024 * 1024;
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env: gitEnv(options.env), encoding: 'buffer', maxBuffer, timeout: options.timeoutMs ?? 120_000, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const tooLarge = code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
          const detail = stderr.toString('utf8').trim() || error.message;
          reject(new GitError(`git ${subcommand(args)}: ${detail}`, tooLarge));
        } else {
          resolvePromise(stdout);
        }
      },
    );
  });
}

/** The top level of the work tree containing `dir`, or undefined (not a repository, or git is not installed). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  try {
    const out = (await runGit(dir, ['rev-parse', '--show-toplevel'], { timeoutMs: 15_000 })).toString('utf8').trim();
    return out === '' ? undefined : out;
  } catch {
    return undefined;
  }
}

/** `git-tree:<hex>` → `<hex>`; a bare id is returned as is. Throws on anything that is not a tree id. */
export function treeHex(treeId: string): string {
  const hex = treeId.startsWith('git-tree:') ? treeId.slice('git-tree:'.length) : treeId;
  if (!TREE_HEX.test(hex)) {
    throw new GitError(`${JSON.stringify(treeId)} is not a git tree id`);
  }
  return hex;
}

/**
 * The whole working tree (tracked and untracked files, `.gitignore` honoured) as a tree id, `git-tree:<hex>`.
 * Works on a copy of the user's index (for its stat cache), so the user's index and HEAD are left byte-identical.
 */
export async function snapshotWorkingTree(repoRoot: string): Promise<string> {
  const gitPath = (await runGit(repoRoot, ['rev-parse', '--git-path', 'index'])).toString('utf8').trim();
  const userIndex = isAbsolute(gitPath) ? gitPath : resolve(repoRoot, gitPath);
  const dir = await mkdtemp(join(tmpdir(), 'sb-index-'));
  const index = join(dir, 'index');
  try {
    try {
      await copyIndex(userIndex, index);
    } catch {
      // No index yet (fresh repository): start from an empty one.
    }
    const env = { GIT_INDEX_FILE: index };
    // Raw bytes: no CRLF conversion, so the patch applies to the files as they are on disk.
    const config = ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', '-c', 'gc.auto=0'];
    await runGit(repoRoot, [...config, 'add', '-A', '--', '.'], { env });
    const tree = (await runGit(repoRoot, [...config, 'write-tree'], { env })).toString('utf8').trim();
    return `git-tree:${treeHex(tree)}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Copies an index with its modification time: git trusts an entry's cached stat only when the file is older than the
 * index (racy-git), so a copy stamped "now" would let a file rewritten in the same second as the index, at the same
 * size, pass as unchanged — a snapshot missing an agent's edit.
 */
export async function copyIndex(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  const times = await stat(from);
  await utimes(to, times.atime, times.mtime);
}

/**
 * `git diff --binary` from `base` to `result` with fixed prefixes, quoting and rename detection, whatever the
 * user's configuration says — the format `parseGitPatch` reads. Throws a `GitError` with `tooLarge` past `maxBytes`.
 */
export async function diffTrees(repoRoot: string, base: string, result: string, maxBytes = CHANGE_SET_PATCH_LIMIT): Promise<Buffer> {
  const patch = await runGit(
    repoRoot,
    [
      '-c', 'core.quotePath=true', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false',
      'diff', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '-M',
      '--src-prefix=a/', '--dst-prefix=b/', treeHex(base), treeHex(result),
    ],
    { maxBuffer: maxBytes + 1 },
  ).catch((error: unknown) => {
    if (error instanceof GitError && error.tooLarge) {
      throw new GitError(`the diff is larger than ${maxBytes.toLocaleString('en-US')} bytes`, true);
    }
    throw error;
  });
  if (patch.length > maxBytes) {
    throw new GitError(`the diff is larger than ${maxBytes.toLocaleString('en-US')} bytes`, true);
  }
  return patch;
}

/** Whether the repository holds the tree object (e.g. the base tree of a daemon's change set). */
export async function hasGitTree(repoRoot: string, treeId: string): Promise<boolean> {
  try {
    await runGit(repoRoot, ['cat-file', '-e', `${treeHex(treeId)}^{tree}`], { timeoutMs: 15_000 });
    return true;
  } catch {
    return false;
  }
}

/** The bytes of `path` in a tree (no filters or textconv), or undefined when the tree has no such blob. */
export async function readTreeBlob(repoRoot: string, treeId: string, path: string): Promise<Buffer | undefined> {
  try {
    return await runGit(repoRoot, ['cat-file', 'blob', `${treeHex(treeId)}:${path}`], { timeoutMs: 30_000 });
  } catch {
    return undefined;
  }
}

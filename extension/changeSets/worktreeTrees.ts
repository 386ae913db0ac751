/**
 * Tree plumbing for merging a run's worktree back (worktreeMerge.ts): the per-path entries of a tree diff, a tree
 * made from another with some paths set or removed (in a private index), blobs read and written, and git's own
 * three-way text merge (`git merge-file`). Nothing touches the user's index, HEAD or branches. Pure Node, no `vscode`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnv, runGit, treeHex } from './gitTrees';
import type { TreeEntry } from './worktreeRecords';

const ABSENT = '000000';
const CONFIG = ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', '-c', 'gc.auto=0'];

/** One path that differs between two trees: its entry on each side (absent where that tree has no such path). */
export interface PathChange {
  readonly path: string;
  readonly from?: TreeEntry;
  readonly to?: TreeEntry;
}

export function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.mode === b.mode && a.blob === b.blob;
}

/** Every path that differs from `from` to `to` (no rename detection: a rename is a deletion and an addition). */
export async function treeChanges(repo: string, from: string, to: string): Promise<PathChange[]> {
  const raw = await runGit(repo, ['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', treeHex(from), treeHex(to)]);
  const fields = raw.toString('utf8').split('\0');
  const out: PathChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [fromMode, toMode, fromBlob, toBlob] = (fields[i] as string).slice(1).split(' ');
    const path = fields[i + 1] as string;
    if (fromMode === undefined || toMode === undefined || fromBlob === undefined || toBlob === undefined) {
      continue;
    }
    out.push({
      path,
      ...(fromMode !== ABSENT ? { from: { mode: fromMode, blob: fromBlob } } : {}),
      ...(toMode !== ABSENT ? { to: { mode: toMode, blob: toBlob } } : {}),
    });
  }
  return out;
}

/** Git's argument list has a size limit: entries go in batches. */
function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/** `base` with each given path set to its entry (or removed where the entry is absent), as a new tree id. */
export async function treeWith(repo: string, base: string, changes: readonly { readonly path: string; readonly entry?: TreeEntry }[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-wt-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await runGit(repo, [...CONFIG, 'read-tree', treeHex(base)], { env });
    const sets = changes.filter((c) => c.entry !== undefined);
    const removals = changes.filter((c) => c.entry === undefined).map((c) => c.path);
    for (const batch of batchesOf(removals, 200)) {
      await runGit(repo, [...CONFIG, 'update-index', '--force-remove', '--', ...batch], { env });
    }
    for (const batch of batchesOf(sets, 200)) {
      await runGit(repo, [...CONFIG, 'update-index', '--add', ...batch.flatMap((c) => ['--cacheinfo', `${c.entry!.mode},${c.entry!.blob},${c.path}`])], { env });
    }
    const tree = (await runGit(repo, [...CONFIG, 'write-tree'], { env })).toString('utf8').trim();
    return `git-tree:${treeHex(tree)}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function readBlob(repo: string, blob: string): Promise<Buffer> {
  return runGit(repo, ['cat-file', 'blob', blob]);
}

/** Writes bytes into the object store as they are (no filters); resolves with the blob id. */
export async function writeBlob(repo: string, content: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-wt-blob-'));
  try {
    await writeFile(join(dir, 'blob'), content);
    return (await runGit(repo, ['hash-object', '-w', '--no-filters', join(dir, 'blob')])).toString('utf8').trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether git would call the bytes binary (a NUL in the first 8000 bytes): a text merge is not tried then. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** The three-way text merge of one file: the result, and how many conflicts it marked (0: clean). */
export interface TextMerge {
  readonly merged: Buffer;
  readonly conflicts: number;
}

/** `git merge-file -p` with labels naming the sides; rejects when git cannot merge them (it exits negative). */
export async function mergeText(ours: Buffer, base: Buffer, theirs: Buffer, labels: readonly [string, string, string]): Promise<TextMerge> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-wt-merge-'));
  try {
    const files = ['ours', 'base', 'theirs'].map((n) => join(dir, n));
    await Promise.all([ours, base, theirs].map((content, i) => writeFile(files[i]!, content)));
    const args = ['merge-file', '-p', '-L', labels[0], '-L', labels[1], '-L', labels[2], ...files];
    return await new Promise<TextMerge>((resolvePromise, reject) => {
      execFile('git', args, { cwd: dir, env: gitEnv(), encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000, windowsHide: true }, (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        // merge-file exits with the number of conflicts (capped at 127); anything else is a failure to merge.
        if (typeof code === 'number' && code >= 0 && code < 128) {
          resolvePromise({ merged: stdout, conflicts: code });
        } else {
          reject(new Error(`git merge-file: ${stderr.toString('utf8').trim() || String(error?.message)}`));
        }
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

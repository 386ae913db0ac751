/**
 * What is kept of a run's worktree (issue #26, "a worktree per run"): one small JSON file per worktree next to its
 * folder under the extension's storage (`<folder>/<id>.json` beside `<folder>/<id>/`), written before the worktree
 * exists and deleted after it is gone — so a crash at any step leaves either a record or a folder that the orphan
 * check finds (runWorktrees.ts). The files are read leniently (anything malformed is skipped, never trusted: the
 * paths in a record are only acted on when they are below the storage folder or are the repository git lists).
 * Pure Node, no `vscode`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A path's entry in a tree: git mode and blob id. Absent (undefined) where the tree has no such path. */
export interface TreeEntry {
  readonly mode: string;
  readonly blob: string;
}

/** One path a merge wrote into the main tree: what it was before and what the merge made it. */
export interface MergedPath {
  readonly path: string;
  readonly before?: TreeEntry;
  readonly after?: TreeEntry;
}

/** The last merge of a run's worktree into the main tree, kept so *Undo Merge* restores exactly what it replaced. */
export interface MergeRecord {
  readonly at: number;
  readonly paths: readonly MergedPath[];
}

export interface RunWorktree {
  /** `w` + 16 hex digits: the folder's and the ref's name. */
  readonly id: string;
  /** The main work tree's top level (the repository the run's changes go back to). */
  readonly repo: string;
  /** The worktree's top level. */
  readonly path: string;
  /** The workspace root relative to `repo` ('' at the top): the run works in `path`/`subdir`. */
  readonly subdir: string;
  /** The commit the worktree was made from: the user's files as they were (the start tree), HEAD as its parent. */
  readonly startCommit: string;
  /** `git-tree:<hex>` of the user's files when the run started: the base of the run's change set and of a merge. */
  readonly startTree: string;
  readonly createdAt: number;
  /** The run working there, once it started (absent: a crash came between the worktree and the run). */
  readonly run?: { readonly connectionId: string; readonly runId: string };
  readonly merge?: MergeRecord;
}

const ID = /^w[0-9a-f]{16}$/;
const HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const MODE = /^(?:100644|100755|120000|160000)$/;

export function newWorktreeId(): string {
  return `w${randomBytes(8).toString('hex')}`;
}

export function isWorktreeId(id: string): boolean {
  return ID.test(id);
}

function entryOf(value: unknown): TreeEntry | undefined {
  const v = value as Record<string, unknown> | null;
  return v !== null && typeof v === 'object' && typeof v.mode === 'string' && MODE.test(v.mode) && typeof v.blob === 'string' && HEX.test(v.blob) ? { mode: v.mode, blob: v.blob } : undefined;
}

function mergeOf(value: unknown): MergeRecord | undefined {
  const v = value as Record<string, unknown> | null;
  if (v === null || typeof v !== 'object' || typeof v.at !== 'number' || !Array.isArray(v.paths)) {
    return undefined;
  }
  const paths: MergedPath[] = [];
  for (const item of v.paths as unknown[]) {
    const p = item as Record<string, unknown> | null;
    if (p !== null && typeof p === 'object' && typeof p.path === 'string' && p.path !== '') {
      const before = entryOf(p.before);
      const after = entryOf(p.after);
      paths.push({ path: p.path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
    }
  }
  return { at: v.at, paths };
}

/** A record read back from its file; undefined when anything that matters is missing or malformed. */
export function parseWorktreeRecord(text: string, expectedId: string): RunWorktree | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Record<string, unknown> | null;
  if (v === null || typeof v !== 'object' || v.id !== expectedId || !ID.test(expectedId)) {
    return undefined;
  }
  const { repo, path, subdir, startCommit, startTree, createdAt } = v;
  if (typeof repo !== 'string' || typeof path !== 'string' || typeof subdir !== 'string' || typeof startCommit !== 'string' || !HEX.test(startCommit)) {
    return undefined;
  }
  if (typeof startTree !== 'string' || !HEX.test(startTree.replace(/^git-tree:/, '')) || typeof createdAt !== 'number') {
    return undefined;
  }
  const run = v.run as Record<string, unknown> | undefined;
  const merge = mergeOf(v.merge);
  return {
    id: expectedId, repo, path, subdir, startCommit, startTree, createdAt,
    ...(run && typeof run.connectionId === 'string' && typeof run.runId === 'string' ? { run: { connectionId: run.connectionId, runId: run.runId } } : {}),
    ...(merge ? { merge } : {}),
  };
}

/** The record files of one storage folder: read, written (atomically: a crash leaves the old or the new), deleted. */
export class WorktreeRecordFiles {
  constructor(readonly folder: string) {}

  fileOf(id: string): string {
    return join(this.folder, `${id}.json`);
  }

  async write(record: RunWorktree): Promise<void> {
    const file = this.fileOf(record.id);
    await mkdir(this.folder, { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify(record, null, 1)}\n`);
    await rename(`${file}.tmp`, file);
  }

  async delete(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
  }

  /** Every readable record, and the names under the folder that are worktree ids (folders or records). */
  async readAll(): Promise<{ readonly records: RunWorktree[]; readonly ids: ReadonlySet<string> }> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const ids = new Set<string>();
    const records: RunWorktree[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
      if (!ID.test(id)) {
        continue;
      }
      ids.add(id);
      if (name.endsWith('.json')) {
        const record = parseWorktreeRecord(await readFile(join(this.folder, name), 'utf8').catch(() => ''), id);
        if (record) {
          records.push(record);
        }
      }
    }
    return { records, ids };
  }
}

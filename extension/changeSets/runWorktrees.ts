/**
 * A git worktree per run (issue #26): the run works in a folder of its own, made from the user's files as they are
 * when it starts, so its change set is exactly its own whatever else changes in the main tree meanwhile.
 *
 * Made without touching the user's index, HEAD or branches: the working tree is snapshotted as a tree from a copy of
 * the index (gitTrees.ts), `git commit-tree` makes an unreferenced commit of it (HEAD as its parent, when there is
 * one), a ref under `refs/agent-switchboard/worktrees/<id>` keeps it from `git gc` (no branch: `git branch` and the
 * editor's git view list none), and `git worktree add --detach` checks it out under the extension's storage. The
 * run's change set is then the diff from that start tree to a snapshot of the worktree (the local change sets do this
 * already when the run's folder is the worktree); merging it back is worktreeMerge.ts.
 *
 * Its record (worktreeRecords.ts) is written before the worktree and deleted after it, so a crash at any step leaves
 * something `orphans` finds; removal is `git worktree remove --force`, prune, ref and record deletion, and only ever
 * deletes folders below the storage folder. Files that git ignores (dependencies, builds) are not in the worktree.
 * One writer: the instance the UI holds. Pure Node, no `vscode`.
 */
import { readFile, realpath, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { GitError, gitTopLevel, runGit, snapshotWorkingTree, treeHex } from './gitTrees';
import type { MergeRecord, RunWorktree } from './worktreeRecords';
import { isWorktreeId, newWorktreeId, WorktreeRecordFiles } from './worktreeRecords';

/** A worktree cannot be made for this folder; `reason` finishes "No worktree: …". */
export class WorktreeUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WorktreeUnavailable';
  }
}

/** A worktree whose run is gone (or never started): offered for cleanup, never removed without the person. */
export interface OrphanWorktree {
  readonly id: string;
  /** Absent: a folder without a record (the editor stopped while making it). */
  readonly record?: RunWorktree;
  readonly reason: string;
}

/** Whether a run is known: true, false (its connection's runs are loaded and it is not there), undefined (cannot tell yet). */
export type RunKnown = (connectionId: string, runId: string) => boolean | undefined;

const REF_ROOT = 'refs/agent-switchboard/worktrees';
const CONFIG = ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', '-c', 'gc.auto=0'];
/** commit-tree needs an identity; the user may have none configured, and the commit is ours anyway. */
const IDENTITY = { GIT_AUTHOR_NAME: 'Agent Switchboard', GIT_AUTHOR_EMAIL: 'agent-switchboard@localhost', GIT_COMMITTER_NAME: 'Agent Switchboard', GIT_COMMITTER_EMAIL: 'agent-switchboard@localhost' };

export function worktreeRef(id: string): string {
  return `${REF_ROOT}/${id}`;
}

/** Whether `child` is `root` or below it (both absolute). */
function isWithin(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export class RunWorktrees {
  private readonly files: WorktreeRecordFiles;
  private readonly records = new Map<string, RunWorktree>();
  /** Made by this instance and waiting for their run (not orphans while the run is starting). */
  private readonly starting = new Set<string>();
  private loaded: Promise<void> | undefined;

  constructor(
    /** The storage folder: worktrees are `<folder>/<id>/`, records `<folder>/<id>.json`. */
    readonly folder: string,
    private readonly now: () => number = Date.now,
  ) {
    this.files = new WorktreeRecordFiles(folder);
  }

  /** Reads the records once (later calls wait for the same read). */
  load(): Promise<void> {
    this.loaded ??= this.files.readAll().then(({ records }) => {
      for (const record of records) {
        this.records.set(record.id, { ...record, path: this.pathOf(record.id) });
      }
    });
    return this.loaded;
  }

  all(): readonly RunWorktree[] {
    return [...this.records.values()];
  }

  get(id: string): RunWorktree | undefined {
    return this.records.get(id);
  }

  forRun(connectionId: string, runId: string): RunWorktree | undefined {
    return this.all().find((w) => w.run?.connectionId === connectionId && w.run.runId === runId);
  }

  /** The worktree `folder` is in (a run's working directory), if it is one of ours. */
  containing(folder: string): RunWorktree | undefined {
    const at = resolve(folder);
    return this.all().find((w) => isWithin(w.path, at));
  }

  /** Where a worktree's folder is: always below the storage folder, whatever a record says. */
  pathOf(id: string): string {
    return join(this.folder, id);
  }

  /**
   * Makes a worktree of `root`'s repository from its files now. Resolves with the record (its `path`/`subdir` is the
   * run's working directory); rejects with `WorktreeUnavailable` for a folder that is not in a git work tree.
   */
  async create(root: string): Promise<RunWorktree> {
    await this.load();
    const top = await gitTopLevel(root);
    if (top === undefined) {
      throw new WorktreeUnavailable(`${root} is not in a git repository (a run's worktree is made from one)`);
    }
    const subdir = relative(await realpath(top), await realpath(root)).split(sep).join('/');
    const id = newWorktreeId();
    const startTree = await snapshotWorkingTree(top);
    const head = await runGit(top, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).then((b) => b.toString('utf8').trim(), () => '');
    const message = ['-m', 'Agent Switchboard: the files a run started from'];
    const commit = (await runGit(top, [...CONFIG, 'commit-tree', treeHex(startTree), ...(head ? ['-p', head] : []), ...message], { env: IDENTITY })).toString('utf8').trim();
    const record: RunWorktree = { id, repo: top, path: this.pathOf(id), subdir: subdir.startsWith('..') ? '' : subdir, startCommit: commit, startTree, createdAt: this.now() };
    // The record first: a crash from here on leaves something the orphan check finds.
    this.starting.add(id);
    await this.write(record);
    try {
      await runGit(top, ['update-ref', '--no-deref', worktreeRef(id), commit]);
      await runGit(top, [...CONFIG, 'worktree', 'add', '--detach', '--quiet', record.path, commit]);
    } catch (error) {
      await this.remove(id).catch(() => undefined);
      throw error;
    }
    return record;
  }

  /** The folder the run works in: the worktree, or the same sub-folder of it as the workspace root was of the repository. */
  workingDirectory(worktree: RunWorktree): string {
    return worktree.subdir === '' ? worktree.path : join(worktree.path, ...worktree.subdir.split('/'));
  }

  /** Records the run that works in the worktree (it is no longer an orphan once its run is gone… until it is). */
  async attach(id: string, connectionId: string, runId: string): Promise<void> {
    const record = this.records.get(id);
    if (record) {
      await this.write({ ...record, run: { connectionId, runId } });
    }
    this.starting.delete(id);
  }

  /** Keeps (or clears) the record of the last merge, which *Undo Merge* reads. */
  async setMerge(id: string, merge: MergeRecord | undefined): Promise<void> {
    const record = this.records.get(id);
    if (record) {
      const { merge: _old, ...rest } = record;
      await this.write(merge ? { ...rest, merge } : rest);
    }
  }

  /**
   * Removes the worktree: `git worktree remove --force` (its files, and git's own entry for it), then the ref and the
   * record. A worktree git no longer knows (its repository moved, or the crash came first) has its folder deleted and
   * the repository's worktree list pruned.
   */
  async remove(id: string): Promise<void> {
    if (!isWorktreeId(id)) {
      throw new GitError(`${JSON.stringify(id)} is not a worktree id`);
    }
    await this.load();
    const record = this.records.get(id);
    const path = this.pathOf(id);
    const commonDir = record ? undefined : await commonDirOf(path);
    const git = (args: readonly string[]): Promise<unknown> =>
      record ? runGit(record.repo, args) : commonDir ? runGit(this.folder, [`--git-dir=${commonDir}`, ...args]) : Promise.resolve();
    await git(['worktree', 'remove', '--force', '--force', path]).catch(() => undefined);
    await rm(path, { recursive: true, force: true, maxRetries: 5 });
    await git(['worktree', 'prune']).catch(() => undefined);
    await git(['update-ref', '-d', worktreeRef(id)]).catch(() => undefined);
    await this.files.delete(id);
    this.records.delete(id);
    this.starting.delete(id);
  }

  /** Worktrees whose run is gone, never started, or unknown (a folder without a record); runs `known` cannot tell are kept. */
  async orphans(known: RunKnown): Promise<OrphanWorktree[]> {
    await this.load();
    const { ids } = await this.files.readAll();
    const out: OrphanWorktree[] = [];
    for (const id of ids) {
      if (this.starting.has(id)) {
        continue;
      }
      const record = this.records.get(id);
      if (!record) {
        out.push({ id, reason: 'no record says which run it was made for (the editor stopped while making it)' });
      } else if (!record.run) {
        out.push({ id, record, reason: 'its run never started (the editor stopped while starting it)' });
      } else if (known(record.run.connectionId, record.run.runId) === false) {
        out.push({ id, record, reason: 'its run was removed' });
      }
    }
    return out;
  }

  private async write(record: RunWorktree): Promise<void> {
    await this.files.write(record);
    this.records.set(record.id, record);
  }
}

/** The repository a worktree folder belongs to, from its `.git` file (`gitdir: <common>/worktrees/<name>`). */
async function commonDirOf(path: string): Promise<string | undefined> {
  const text = await readFile(join(path, '.git'), 'utf8').catch(() => '');
  const match = /^gitdir: (.+)$/m.exec(text);
  const gitDir = match?.[1]?.trim();
  if (!gitDir || !isAbsolute(gitDir)) {
    return undefined;
  }
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').then((c) => resolve(gitDir, c.trim()), () => undefined);
  return common;
}

/**
 * What rewinding to a checkpoint would do, before anything is written (issue #26: "a preview diff first; asks when
 * files changed since, by the user or another run"): per scope the diff from the files now to the checkpoint — as a
 * git patch parsed into the change-set model the UI already renders — the restore plan, and the questions a person
 * must answer first: a path that changed since the run's last checkpoint (someone else's edit, or the run's own turn
 * still under way), and a protected path (`.vscode/`, agent settings: protocol/protectedPaths.ts), which nothing
 * writes without an explicit decision.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { GitError, treeHex, CHANGE_SET_PATCH_LIMIT } from './gitTrees';
import { parseGitPatch } from './patchParser';
import type { ParsedPatch } from './patchTypes';
import { scopeGit, snapshotScope } from './snapshotScope';
import type { PrivateSnapshotLimits, SnapshotScope } from './snapshotScope';
import { restorePlan } from './treeRestore';
import type { RestoreEntry } from './treeRestore';
import type { FileCheckpoint, ScopeTree } from './fileCheckpointRecords';
import { protectedPathOf } from '../protocol/protectedPaths';

/** A path the UI must ask about before a rewind writes it. */
export interface RewindQuestion {
  readonly top: string;
  readonly path: string;
  /**
   * `changed since`: the file changed after the run's last checkpoint (by the user, another run, or this run's turn
   * under way); rewinding would discard that. `protected`: a protected path (`detail` says why). `ignored file`:
   * the checkpoint has the file, and a file git now ignores (so no snapshot holds it) is in its place.
   */
  readonly reason: 'changed since' | 'protected' | 'ignored file';
  readonly detail: string;
}

/** A person's answer to a question: write the checkpoint's version, or keep the file as it is now. */
export interface RewindDecision {
  readonly top: string;
  readonly path: string;
  readonly decision: 'restore' | 'keep';
}

export interface ScopePreview extends SnapshotScope {
  /** The files now (the before-state a rewind records for *Redo*). */
  readonly nowTree: string;
  readonly targetTree: string;
  readonly entries: readonly RestoreEntry[];
  /** `git diff --binary` from now to the checkpoint, and its parse; absent with `patchUnavailable` saying why. */
  readonly patch?: string;
  readonly parsed?: ParsedPatch;
  readonly patchUnavailable?: string;
}

export interface RewindPreview {
  readonly checkpoint: FileCheckpoint;
  readonly scopes: readonly ScopePreview[];
  readonly questions: readonly RewindQuestion[];
}

/** The key a question and its decision share. */
export function questionKey(top: string, path: string): string {
  return `${top}\0${path}`;
}

/** The same diff `diffTrees` makes, in a scope (a private git dir needs its environment). */
async function scopeDiff(scope: SnapshotScope, from: string, to: string): Promise<Pick<ScopePreview, 'patch' | 'parsed' | 'patchUnavailable'>> {
  try {
    const bytes = await scopeGit(
      scope,
      [
        '-c', 'core.quotePath=true', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false',
        'diff', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames',
        '--src-prefix=a/', '--dst-prefix=b/', treeHex(from), treeHex(to),
      ],
      undefined,
      CHANGE_SET_PATCH_LIMIT + 1,
    );
    if (bytes.length > CHANGE_SET_PATCH_LIMIT) {
      throw new GitError('too large', true);
    }
    const patch = new TextDecoder('utf-8').decode(bytes);
    return { patch, parsed: parseGitPatch(patch) };
  } catch (error) {
    if (error instanceof GitError && error.tooLarge) {
      return { patchUnavailable: `the diff is larger than ${CHANGE_SET_PATCH_LIMIT.toLocaleString('en-US')} bytes; the file list is still shown` };
    }
    return { patchUnavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** The paths that differ between two trees of a scope. */
export async function changedPaths(scope: SnapshotScope, from: string, to: string): Promise<Set<string>> {
  const raw = await scopeGit(scope, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', treeHex(from), treeHex(to)]);
  return new Set(raw.toString('utf8').split('\0').filter((p) => p !== ''));
}

function treeOf(trees: readonly ScopeTree[] | undefined, top: string): string | undefined {
  return trees?.find((t) => t.top === top)?.tree;
}

/**
 * The paths of `top` that are not the run's own work as of `nowTree` — a rewind over them would discard someone
 * else's edit: whatever changed since the run's latest turn checkpoint, except what this store itself restored in
 * rewinds since then (and did not change again afterwards); a path a person kept in such a rewind stays someone
 * else's. Undefined when a tree is gone (a `git gc` without our refs): then every path is asked about.
 */
export async function foreignPaths(scope: SnapshotScope, history: readonly FileCheckpoint[], nowTree: string): Promise<Set<string> | undefined> {
  const lastTurn = history.findLastIndex((c) => c.kind === 'turn' && treeOf(c.trees, scope.top) !== undefined);
  const turnTree = lastTurn < 0 ? undefined : treeOf(history[lastTurn]?.trees, scope.top);
  if (turnTree === undefined) {
    return undefined;
  }
  try {
    const foreign = await changedPaths(scope, turnTree, nowTree);
    const rewinds = history.slice(lastTurn + 1).filter((c) => c.kind === 'beforeRewind');
    const ours = new Set<string>();
    const kept = new Set<string>();
    for (const rewind of rewinds) {
      const before = treeOf(rewind.trees, scope.top);
      const after = treeOf(rewind.after, scope.top);
      if (before !== undefined && after !== undefined) {
        (await changedPaths(scope, before, after)).forEach((p) => ours.add(p));
      }
      rewind.kept?.filter((k) => k.top === scope.top).forEach((k) => kept.add(k.path));
    }
    const latestAfter = treeOf(rewinds.at(-1)?.after, scope.top);
    const sinceLatest = latestAfter === undefined ? new Set<string>() : await changedPaths(scope, latestAfter, nowTree);
    for (const path of foreign) {
      if (ours.has(path) && !kept.has(path) && !sinceLatest.has(path)) {
        foreign.delete(path);
      }
    }
    return foreign;
  } catch {
    return undefined;
  }
}

/**
 * Snapshots each scope of `checkpoint` now and compares. `history`: the run's checkpoints, for "changed since".
 * A scope whose last known tree is gone (a repository `git gc`'d without our refs) asks about every path.
 */
export async function previewRewind(checkpoint: FileCheckpoint, history: readonly FileCheckpoint[], limits?: PrivateSnapshotLimits): Promise<RewindPreview> {
  const scopes: ScopePreview[] = [];
  const questions: RewindQuestion[] = [];
  for (const target of checkpoint.trees) {
    const scope: SnapshotScope = { top: target.top, ...(target.gitDir !== undefined ? { gitDir: target.gitDir } : {}) };
    const nowTree = await snapshotScope(scope, limits);
    const entries = await restorePlan(scope, nowTree, target.tree);
    scopes.push({ ...scope, nowTree, targetTree: target.tree, entries, ...(await scopeDiff(scope, nowTree, target.tree)) });
    const changed = await foreignPaths(scope, history, nowTree);
    for (const entry of entries) {
      if (changed === undefined || changed.has(entry.path)) {
        questions.push({ top: target.top, path: entry.path, reason: 'changed since', detail: 'changed after the run’s last checkpoint (by you, another run, or this run’s turn under way)' });
      }
      if (entry.change === 'add' && (await lstat(join(target.top, entry.path)).catch(() => undefined)) !== undefined) {
        questions.push({ top: target.top, path: entry.path, reason: 'ignored file', detail: 'a file git ignores now is in its place: no checkpoint holds it, so rewinding would lose it for good' });
      }
      const guarded = protectedPathOf(entry.path);
      if (guarded !== undefined) {
        questions.push({ top: target.top, path: entry.path, reason: 'protected', detail: guarded.reason });
      }
    }
  }
  return { checkpoint, scopes, questions };
}

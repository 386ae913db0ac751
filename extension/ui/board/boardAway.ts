/**
 * A board row's "since you looked" (issue #26): the files of a run that changed since the user last looked at it —
 * a change-set file whose diff is not the one seen (model/changeSetSignatures.ts), a seen file no longer changed
 * (undone), or a file the agent said it edited after that (RunInfo.reportedEdits) — each with who changed it where
 * runs share the tree (model/sharedTrees.ts). O(the run's files): no transcript is read; the result is cached per
 * run until its change set, its reported edits, its seen record or the runs sharing its tree change. Pure (no
 * `vscode`).
 */
import type { AwayFile, BoardAway, FileAuthor } from '../../model/boardRows';
import { MAX_AWAY_FILES } from '../../model/boardRows';
import { changeSetSignatures } from '../../model/changeSetSignatures';
import type { ChangeSetInfo, RunInfo } from '../../model/modelTypes';
import { treeRelative } from '../../model/reportedEdits';
import type { RunStore } from '../../model/runStore';
import { SharedTrees, treeOf } from '../../model/sharedTrees';
import type { SeenRecord, SeenRuns } from './seenRuns';

/** What the rows' "since you looked" reads: the seen records, and the run being looked at now (it has none). */
export interface BoardSeen {
  readonly runs: SeenRuns;
  /** The run the Transcript view shows while it is visible: changes to it are seen as they happen. */
  looking(): string | undefined;
}

/** What one run's summary is computed from. */
export interface AwayInputs {
  readonly run: RunInfo;
  readonly changeSet: ChangeSetInfo | undefined;
  readonly tree: string | undefined;
  readonly seen: SeenRecord | undefined;
  /** When seen state began to be kept: a run older than that and never seen has nothing to report. */
  readonly since: number;
}

/** The run's files now, path → signature: its change set's, or its summary's while its transcript is not loaded. */
export function currentSignatures(run: RunInfo, changeSet: ChangeSetInfo | undefined): ReadonlyMap<string, string> {
  if (changeSet) {
    return changeSetSignatures(changeSet);
  }
  return new Map(Object.entries(run.unloaded?.fileSignatures ?? {}));
}

/** What changed since the run was seen, or undefined when nothing did (or there is nothing to compare with). */
export function awayOf(inputs: AwayInputs, authors: (paths: readonly string[]) => ReadonlyMap<string, FileAuthor>): BoardAway | undefined {
  const { run, changeSet, tree, seen, since } = inputs;
  if (!seen && run.createdAt < since) {
    return undefined;
  }
  const changed = new Map<string, number>(); // path → when (reported) or 0 (seen in the change set's content)
  const signatures = currentSignatures(run, changeSet);
  for (const [path, signature] of signatures) {
    if (seen?.signatures[path] !== signature) {
      changed.set(path, 0);
    }
  }
  // A file the user saw changed that is no longer in the change set was undone: a change too. Only while the change
  // set is known (a captured or unreadable one says nothing about its files).
  if (seen && (changeSet?.status === 'ready' || (!changeSet && run.unloaded?.fileSignatures))) {
    for (const path of Object.keys(seen.signatures)) {
      if (!signatures.has(path)) {
        changed.set(path, 0);
      }
    }
  }
  for (const [path, at] of Object.entries(run.reportedEdits ?? run.unloaded?.reportedEdits ?? {})) {
    if (seen === undefined || at > seen.at) {
      const shown = treeRelative(path, tree) ?? path;
      changed.set(shown, Math.max(at, changed.get(shown) ?? 0));
    }
  }
  if (changed.size === 0) {
    return undefined;
  }
  // Newest reports first, then the rest by name: the tooltip names what happened last.
  const ordered = [...changed].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_AWAY_FILES).map(([path]) => path);
  const by = authors(ordered);
  const files: AwayFile[] = ordered.map((path) => {
    const author = by.get(path);
    return author && author.kind !== 'self' ? { path, by: author } : { path };
  });
  return { files, count: changed.size, ...(seen ? { seenAt: seen.at } : {}) };
}

/** One cached summary per run, recomputed only when what it is computed from changed. */
export class AwayCache {
  private readonly entries = new Map<string, { readonly key: readonly unknown[]; readonly away: BoardAway | undefined }>();

  get(inputs: AwayInputs, trees: SharedTrees): BoardAway | undefined {
    // Identity of the inputs (the reducer replaces what changes) and of its tree's members (the same array while
    // none of them changed: model/sharedTrees.ts), so a row whose tree did not change costs O(1).
    const self = trees.run(inputs.run.key);
    const members = inputs.tree !== undefined ? trees.membersOf(inputs.tree) : undefined;
    const key: unknown[] = [inputs.changeSet, inputs.seen, inputs.tree, self, members];
    const cached = this.entries.get(inputs.run.key);
    if (cached && cached.key.length === key.length && cached.key.every((k, i) => k === key[i])) {
      return cached.away;
    }
    const away = awayOf(inputs, (paths) => trees.authors(inputs.run.key, paths));
    this.entries.set(inputs.run.key, { key, away });
    return away;
  }

  /** Drops the runs no longer on the board. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) {
      if (!keys.has(key)) {
        this.entries.delete(key);
      }
    }
  }
}

/** The board's source of "since you looked": one shared-tree index per projection, one cached summary per run. */
export class AwaySource {
  private readonly cache = new AwayCache();
  private trees: SharedTrees | undefined;
  /** The last projection's index: its views are reused by the next. */
  private last: SharedTrees | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly seen: BoardSeen,
  ) {}

  /** The run's summary now (none while the user looks at it). */
  of(runKey: string): BoardAway | undefined {
    const state = this.store.state;
    const run = state.runs.get(runKey);
    if (!run || this.seen.looking() === runKey) {
      return undefined;
    }
    this.trees = this.trees?.source === state ? this.trees : new SharedTrees(state, this.last);
    const inputs = { run, changeSet: state.changeSets.get(runKey), tree: treeOf(state, run), seen: this.seen.runs.get(runKey), since: this.seen.runs.since };
    return this.cache.get(inputs, this.trees);
  }

  /** A projection ended: the index is its own, and runs no longer on the board are forgotten. */
  projected(rows: ReadonlyMap<string, unknown>): void {
    this.last = this.trees ?? this.last;
    this.last?.release();
    this.trees = undefined;
    this.cache.retain(new Set(rows.keys()));
  }
}

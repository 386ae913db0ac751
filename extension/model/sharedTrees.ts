/**
 * The runs of the store as changeAttribution.ts sees them — each run's tree, window and reported edits — indexed by
 * tree, built once per board projection (or change-set view) in O(runs + reported files). Which tree a run works in:
 * its change set's repository when it has a local one, else its first workspace root. Pure.
 */
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { FileAuthor } from './boardRows';
import type { AttributionRun } from './changeAttribution';
import { attributeFiles, runsSharingTree } from './changeAttribution';
import type { ModelState, RunInfo } from './modelTypes';
import { reportedInTree } from './reportedEdits';

export class SharedTrees {
  private readonly byTree = new Map<string, AttributionRun[]>();
  private readonly byRun = new Map<string, AttributionRun>();
  /** Runs with no tree of their own (an ACP session outside git) that reported edits: they share any tree they edit in. */
  private readonly untreed: RunInfo[] = [];

  constructor(private readonly state: ModelState) {
    for (const run of state.runs.values()) {
      const entry = attributionRunOf(state, run, treeOf(state, run));
      this.byRun.set(run.key, entry);
      if (entry.tree !== undefined) {
        this.byTree.set(entry.tree, [...(this.byTree.get(entry.tree) ?? []), entry]);
      } else if (Object.keys(run.reportedEdits ?? run.unloaded?.reportedEdits ?? {}).length > 0) {
        this.untreed.push(run);
      }
    }
  }

  /** The run as attribution sees it, if it is in the store. */
  run(runKey: string): AttributionRun | undefined {
    return this.byRun.get(runKey);
  }

  /** The other runs that worked in the run's tree while it did (none: the run had the tree to itself). */
  sharing(runKey: string): readonly AttributionRun[] {
    const run = this.byRun.get(runKey);
    if (run?.tree === undefined) {
      return [];
    }
    const tree = run.tree;
    const visitors = this.untreed.map((other) => attributionRunOf(this.state, other, tree)).filter((other) => other.reported.size > 0);
    return runsSharingTree(run, [...(this.byTree.get(tree) ?? []), ...visitors]);
  }

  /** The authors of the run's files (paths inside its tree). */
  authors(runKey: string, paths: Iterable<string>): Map<string, FileAuthor> {
    const run = this.byRun.get(runKey);
    return run ? attributeFiles(run, paths, this.sharing(runKey)) : new Map();
  }

  /** The store these were built from (a caller keeps one per state). */
  get source(): ModelState {
    return this.state;
  }
}

/** A run's tree: its change set's repository, else its first workspace root. */
export function treeOf(state: ModelState, run: RunInfo): string | undefined {
  return state.changeSets.get(run.key)?.repo ?? run.unloaded?.repo ?? run.workspaceRoots?.[0];
}

/** The run as attribution sees it in `tree` (its own, or one it reported edits in). */
function attributionRunOf(state: ModelState, run: RunInfo, tree: string | undefined): AttributionRun {
  const reported = reportedInTree(run.reportedEdits ?? run.unloaded?.reportedEdits, tree);
  const live = !isTerminalRunState(run.state) && run.state !== 'stopped';
  // A finished run's window ends at the last time it is known to have worked: its last reported edit, or when its
  // summary last saw it active. No clock in the model: nothing later is known.
  const last = Math.max(run.createdAt, run.unloaded?.activeAt ?? 0, ...reported.values());
  return {
    runKey: run.key,
    title: run.title,
    tree,
    start: run.createdAt,
    ...(live ? {} : { end: last }),
    reported,
    delivered: state.changeSets.get(run.key)?.source === 'daemon',
  };
}

/**
 * The runs of the store as changeAttribution.ts sees them — each run's tree, window and reported edits — indexed by
 * tree, built once per board projection (or change-set view) in O(runs). Which tree a run works in: its change set's
 * repository when it has a local one, else its first workspace root. A run's attribution view is carried over from
 * the previous index while what it is made of is unchanged (a streamed chunk replaces the RunInfo, not its reported
 * edits), so a tree's member list keeps its identity between projections and the board's cached rows stay valid.
 * Pure.
 */
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { FileAuthor } from './boardRows';
import type { AttributionRun } from './changeAttribution';
import { attributeFiles, runsSharingTree } from './changeAttribution';
import type { ModelState, RunInfo } from './modelTypes';
import { reportedInTree } from './reportedEdits';

/** A run's attribution view with what it was made of (the next index reuses it while those are the same). */
interface Cached {
  readonly parts: readonly unknown[];
  readonly entry: AttributionRun;
}

export class SharedTrees {
  private readonly byTree = new Map<string, RunInfo[]>();
  private readonly trees = new Map<string, string | undefined>();
  private readonly delivered = new Set<string>();
  /** Runs with no tree of their own (an ACP session outside git) that reported edits: they share any tree they edit in. */
  private readonly untreed: RunInfo[] = [];
  /** Attribution views by `<tree>\n<runKey>`. */
  private readonly views = new Map<string, Cached>();
  /** Each tree's members (its runs and the untreed runs that edited in it), once asked. */
  private readonly members = new Map<string, readonly AttributionRun[]>();

  /** O(runs), one change-set lookup each. `previous`: the last projection's index, whose views are reused. */
  constructor(
    private readonly state: ModelState,
    private previous?: SharedTrees,
  ) {
    for (const run of state.runs.values()) {
      const changeSet = state.changeSets.get(run.key);
      const tree = changeSet?.repo ?? run.unloaded?.repo ?? run.workspaceRoots?.[0];
      this.trees.set(run.key, tree);
      if (changeSet?.source === 'daemon') {
        this.delivered.add(run.key);
      }
      if (tree !== undefined) {
        let runs = this.byTree.get(tree);
        if (!runs) {
          runs = [];
          this.byTree.set(tree, runs);
        }
        runs.push(run);
      } else if (run.reportedEdits !== undefined || run.unloaded?.reportedEdits !== undefined) {
        this.untreed.push(run);
      }
    }
  }

  /** Lets the previous index go (once this one is the previous of the next: no chain of indexes is kept). */
  release(): void {
    this.previous = undefined;
  }

  /** The store these were built from (a caller keeps one per state). */
  get source(): ModelState {
    return this.state;
  }

  /** The run as attribution sees it, if it is in the store. */
  run(runKey: string): AttributionRun | undefined {
    const run = this.state.runs.get(runKey);
    return run ? this.view(run, this.trees.get(runKey)) : undefined;
  }

  /**
   * The runs that worked in the tree (its own and visitors), the same array while none of them changed: what a
   * cached row's validity is checked against.
   */
  membersOf(tree: string): readonly AttributionRun[] {
    let members = this.members.get(tree);
    if (!members) {
      const inTree = (this.byTree.get(tree) ?? []).map((run) => this.view(run, tree));
      const visitors = this.untreed.map((run) => this.view(run, tree)).filter((v) => v.reported.size > 0);
      const fresh = [...inTree, ...visitors];
      const before = this.previous?.members.get(tree);
      members = before && before.length === fresh.length && before.every((m, i) => m === fresh[i]) ? before : fresh;
      this.members.set(tree, members);
    }
    return members;
  }

  /** The other runs that worked in the run's tree while it did (none: the run had the tree to itself). */
  sharing(runKey: string): readonly AttributionRun[] {
    const run = this.run(runKey);
    return run?.tree !== undefined ? runsSharingTree(run, this.membersOf(run.tree)) : [];
  }

  /** The authors of the run's files (paths inside its tree). */
  authors(runKey: string, paths: Iterable<string>): Map<string, FileAuthor> {
    const run = this.run(runKey);
    return run ? attributeFiles(run, paths, this.sharing(runKey)) : new Map();
  }

  /** The run's view in `tree` (its own, or one it reported edits in), reused from the previous index when unchanged. */
  private view(run: RunInfo, tree: string | undefined): AttributionRun {
    const key = `${tree ?? ''}\n${run.key}`;
    const live = !isTerminalRunState(run.state) && run.state !== 'stopped';
    const parts = [run.reportedEdits, run.unloaded, run.title, run.createdAt, live, this.delivered.has(run.key)];
    const cached = this.views.get(key) ?? this.previous?.views.get(key);
    if (cached && cached.parts.every((p, i) => p === parts[i])) {
      this.views.set(key, cached);
      return cached.entry;
    }
    const entry = attributionRunOf(run, tree, live, this.delivered.has(run.key));
    this.views.set(key, { parts, entry });
    return entry;
  }
}

/** A run's tree: its change set's repository, else its first workspace root. */
export function treeOf(state: ModelState, run: RunInfo): string | undefined {
  return state.changeSets.get(run.key)?.repo ?? run.unloaded?.repo ?? run.workspaceRoots?.[0];
}

function attributionRunOf(run: RunInfo, tree: string | undefined, live: boolean, delivered: boolean): AttributionRun {
  const reported = reportedInTree(run.reportedEdits ?? run.unloaded?.reportedEdits, tree);
  // A finished run's window ends at the last time it is known to have worked: its last reported edit, or when its
  // summary last saw it active. No clock in the model: nothing later is known.
  let last = Math.max(run.createdAt, run.unloaded?.activeAt ?? 0);
  for (const at of reported.values()) {
    last = Math.max(last, at);
  }
  return { runKey: run.key, title: run.title, tree, start: run.createdAt, ...(live ? {} : { end: last }), reported, delivered };
}

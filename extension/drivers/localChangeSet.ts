/**
 * Change sets computed by the editor for daemons that send none (AgencyProxy now; SCV and hyperhive later): when a
 * run starts in a git workspace the working tree is snapshotted as a tree object, when it ends it is snapshotted
 * again, and the change set is `git diff --binary <base> <result>` — published to the model with source `local`.
 * The user's index and HEAD are never touched (see gitTrees.ts). Pure Node, no `vscode`.
 *
 * Caveat shown to the user: a local change set contains *everything* that changed in the working tree while the
 * run was active, including edits made by hand or by other tools meanwhile.
 */
import type { ChangeSetInfo } from '../model/modelTypes';
import { runKeyOf } from '../model/modelTypes';
import type { RunStore } from '../model/runStore';
import type { DriverLog } from './connectionManager';
import { diffTrees, gitTopLevel, snapshotWorkingTree } from './gitTrees';
import { errorText } from './kit/errors';

/** What a driver persists per run (in its stored `extra`) so a reload can still compute the change set. */
export interface LocalChangeSetRecord {
  /** The repository top level the trees belong to. */
  readonly repo: string;
  /** `git-tree:<hex>` of the working tree when the run started. */
  readonly baseTree: string;
  /** `git-tree:<hex>` of the working tree when the run ended, once known. */
  readonly resultTree?: string;
}

const EXTRA_KEY = 'localChangeSet';

/** Reads a record back from a stored run's `extra` (lenient: anything malformed is ignored). */
export function localChangeSetFromExtra(extra: Readonly<Record<string, unknown>> | undefined): LocalChangeSetRecord | undefined {
  const value = extra?.[EXTRA_KEY];
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  const v = value as Record<string, unknown>;
  if (typeof v.repo !== 'string' || typeof v.baseTree !== 'string') {
    return undefined;
  }
  return { repo: v.repo, baseTree: v.baseTree, ...(typeof v.resultTree === 'string' ? { resultTree: v.resultTree } : {}) };
}

/** The `extra` entry to store for a record. */
export function localChangeSetExtra(record: LocalChangeSetRecord): Record<string, unknown> {
  return { [EXTRA_KEY]: { ...record } };
}

const CAPTURING_NOTE = 'The change set is computed after each answer and when the run ends.';
const LOCAL_NOTE = 'Computed by the editor from the working tree before and after the run (it includes any other edits made meanwhile).';

/**
 * Snapshots and diffs for one connection's runs, publishing `changeSet` actions. Each step is idempotent per run:
 * `finish` runs once even if terminal events are seen twice (live and on reload).
 */
export class LocalChangeSets {
  private readonly finishing = new Map<string, Promise<LocalChangeSetRecord>>();

  constructor(
    private readonly store: RunStore,
    private readonly connectionId: string,
    private readonly log: DriverLog,
  ) {}

  /**
   * Snapshot at run start when `root` is inside a git work tree; undefined otherwise (no change set for the run).
   * Never throws: a failing snapshot only means no local change set.
   */
  async begin(runId: string, root: string | undefined): Promise<LocalChangeSetRecord | undefined> {
    if (root === undefined) {
      return undefined;
    }
    const repo = await gitTopLevel(root);
    if (repo === undefined) {
      return undefined;
    }
    try {
      const baseTree = await snapshotWorkingTree(repo);
      this.publish(runId, { status: 'capturing', reason: CAPTURING_NOTE, baseTree });
      return { repo, baseTree };
    } catch (error) {
      this.log.warn(`No local change set for ${runId}: ${errorText(error)}`);
      return undefined;
    }
  }

  /** Republishes what is known after a reload, before `finish` (if needed) computes the rest. */
  restore(runId: string, record: LocalChangeSetRecord): void {
    this.publish(runId, { status: 'capturing', reason: CAPTURING_NOTE, baseTree: record.baseTree });
  }

  /**
   * At run end: snapshots the result (unless already recorded), diffs and publishes `ready` — or `unavailable`
   * with the reason. Resolves with the record including the result tree (persist it so a reload diffs the same
   * trees instead of the working tree of that later moment).
   */
  finish(runId: string, record: LocalChangeSetRecord): Promise<LocalChangeSetRecord> {
    let pending = this.finishing.get(runId);
    if (!pending) {
      pending = this.compute(runId, record);
      this.finishing.set(runId, pending);
    }
    return pending;
  }

  /**
   * For runs that span many turns (an SCV session, an interactive AgencyProxy run): the change set from the run's
   * start to the working tree now, recomputed each time (not cached like `finish`).
   */
  refresh(runId: string, record: LocalChangeSetRecord): Promise<LocalChangeSetRecord> {
    return this.compute(runId, { repo: record.repo, baseTree: record.baseTree }, true);
  }

  /**
   * `interim` (a refresh while the run is open): once `finish` started, its result is the final one, and an
   * interim diff that completes later (its snapshot taken earlier) must not replace it.
   */
  private async compute(runId: string, record: LocalChangeSetRecord, interim = false): Promise<LocalChangeSetRecord> {
    let resultTree = record.resultTree;
    try {
      resultTree ??= await snapshotWorkingTree(record.repo);
      const patch = await diffTrees(record.repo, record.baseTree, resultTree);
      if (interim && this.finishing.has(runId)) {
        return record;
      }
      this.publish(runId, {
        status: 'ready',
        reason: LOCAL_NOTE,
        patch: new TextDecoder('utf-8').decode(patch),
        baseTree: record.baseTree,
        resultTree,
      });
    } catch (error) {
      const message = errorText(error);
      this.log.warn(`Local change set of ${runId}: ${message}`);
      if (interim && this.finishing.has(runId)) {
        return record;
      }
      this.publish(runId, { status: 'unavailable', reason: `The editor could not compute the change set: ${message}`, baseTree: record.baseTree });
    }
    return { ...record, ...(resultTree !== undefined ? { resultTree } : {}) };
  }

  private publish(runId: string, fields: Omit<ChangeSetInfo, 'runKey' | 'source'>): void {
    const runKey = runKeyOf(this.connectionId, runId);
    if (!this.store.state.runs.has(runKey)) {
      return;
    }
    this.store.dispatch({ type: 'changeSet', changeSet: { runKey, source: 'local', ...fields } });
  }
}

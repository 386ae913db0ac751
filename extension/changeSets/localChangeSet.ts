/**
 * Change sets computed by the editor for daemons that send none (AgencyProxy now; SCV and hyperhive later): when a
 * run starts in a git workspace the working tree is snapshotted as a tree object, when it ends it is snapshotted
 * again, and the change set is `git diff --binary <base> <result>` — handed to the host's {@link LocalChangeSetSink}
 * (a driver publishes it to the model with source `local`, see drivers/kit/localChangeSetSink.ts).
 * The user's index and HEAD are never touched (see gitTrees.ts). Pure Node, no `vscode`.
 *
 * Daemon-independent: it knows runs only by id and reports through the sink, so any driver can use it without
 * this module knowing the run model or any wire protocol.
 *
 * Caveat shown to the user: a local change set contains *everything* that changed in the working tree while the
 * run was active, including edits made by hand or by other tools meanwhile.
 */
import { diffTrees, gitTopLevel, snapshotWorkingTree } from './gitTrees';

/** One state of a run's local change set, as the host should show it. */
export interface LocalChangeSetUpdate {
  readonly status: 'capturing' | 'ready' | 'unavailable';
  readonly reason: string;
  /** The unified diff (present when `ready`). */
  readonly patch?: string;
  readonly baseTree: string;
  readonly resultTree?: string;
  /** The repository top level (the tree runs may share: model/changeAttribution.ts). */
  readonly repo?: string;
}

/** Where local change sets go: the driver owning the runs publishes each update and logs the warnings. */
export interface LocalChangeSetSink {
  publish(runId: string, update: LocalChangeSetUpdate): void;
  warn(message: string): void;
}

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
 * Snapshots and diffs for one connection's runs, handing each state to the sink. Each step is idempotent per run:
 * `finish` runs once even if terminal events are seen twice (live and on reload).
 */
export class LocalChangeSets {
  private readonly finishing = new Map<string, Promise<LocalChangeSetRecord>>();

  constructor(private readonly sink: LocalChangeSetSink) {}

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
      this.sink.publish(runId, { status: 'capturing', reason: CAPTURING_NOTE, baseTree, repo });
      return { repo, baseTree };
    } catch (error) {
      this.sink.warn(`No local change set for ${runId}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Republishes what is known after a reload, before `finish` (if needed) computes the rest. */
  restore(runId: string, record: LocalChangeSetRecord): void {
    this.sink.publish(runId, { status: 'capturing', reason: CAPTURING_NOTE, baseTree: record.baseTree, repo: record.repo });
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

  /** The run was removed: its finished result is not kept any longer. */
  forget(runId: string): void {
    this.finishing.delete(runId);
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
      this.sink.publish(runId, {
        status: 'ready',
        reason: LOCAL_NOTE,
        patch: new TextDecoder('utf-8').decode(patch),
        baseTree: record.baseTree,
        resultTree,
        repo: record.repo,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.sink.warn(`Local change set of ${runId}: ${message}`);
      if (interim && this.finishing.has(runId)) {
        return record;
      }
      this.sink.publish(runId, { status: 'unavailable', reason: `The editor could not compute the change set: ${message}`, baseTree: record.baseTree, repo: record.repo });
    }
    return { ...record, ...(resultTree !== undefined ? { resultTree } : {}) };
  }
}

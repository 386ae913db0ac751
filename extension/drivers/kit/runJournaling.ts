/**
 * How a driver's runs are kept across a window reload, declared once per driver (`BaseDriver.journaling`), and the
 * one way a stored run comes back (`replayRuns`, behind `DriverRuns.replay`): the run index entry gives the fields
 * (`restoredFieldsOf`, the same for every driver), the journal gives the transcript, and the driver's
 * `RestorePolicy` says which runs are its own, what state they show and what a reload ended.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type * as z from 'zod/mini';
import type { RunFields } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import type { RunState } from '../../protocol/transcriptTypes';
import { runStateSchema } from '../../protocol/transcriptTypes';
import { safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { LeaseHolder } from '../../storage/runWriterLease';
import type { ConnectIndex } from '../../storage/runIndexDigest';
import type { OlderStubs } from '../../storage/olderStubs';
import type { DriverContext } from '../connectionManager';
import type { DriverRuns } from './driverRuns';
import type { RunInput } from './journalRecords';
import { RunRecorder } from './runRecorder';
import type { LegacyDecoder, ReplayHandlers } from './runRecorder';
import { coldSummaryOf, peekColdSummary, storedSummaryOf, summaryCountsOf } from './runSummaries';
import type { ColdPeek } from './runSummaries';
import type { CheckpointBooks } from './runCheckpoints';

/** A journaling driver's terms: its resume records and the books a run checkpoint must carry for it. */
export interface JournalTerms<C> {
  /** The schema of the driver's cursor records (`z.never()` for a driver that keeps none). */
  readonly cursor: z.ZodMiniType<C>;
  /**
   * What a run checkpoint keeps of the books the driver rebuilds in its policy's `record` (runCheckpoints.ts);
   * `'none'` for a driver that rebuilds nothing from its records (its runs are checkpointed all the same). A driver
   * that rebuilds books but says `'none'` has its runs replayed whole.
   */
  readonly books: CheckpointBooks | 'none';
  /**
   * This window now writes the run's journal: it is the first to record the run, or took it over from `previous`
   * (another window's lease, released or left by a dead extension host). A driver that owns runs moves them here.
   */
  readonly writing?: (runId: string, previous: LeaseHolder | undefined) => void;
  /** The run was removed (its files are gone): forget what the driver keeps of it beside the model. */
  readonly removed?: (runId: string) => void;
  /**
   * This window took the run's journal over, but the file ends at `journalEnd` while the model stands elsewhere
   * (events the old writer never stored). A driver that can follow a run again from a sequence brings it back from
   * the file (`DriverRuns.history.rejoin`) and follows it on from `journalEnd`; without this, the window stays a
   * reader of the run until its next reload (runWriters.ts).
   */
  readonly rejoin?: (runId: string, journalEnd: number) => void;
}

/** Whether, and how, a driver's runs are journaled. */
export type Journaling<C> = 'not journaled' | JournalTerms<C>;

/**
 * What a stored run comes back as, and what the reload ended for it. With `lazy`, a stored run comes back in two
 * steps: its index entry at connect (`open`: what the driver must know of every run it shows — who owns it, its
 * provider session, what the next session is offered), and its transcript when a view opens it (`replaying`, the
 * records with `record`, then `restored`). Without `lazy` both steps run at connect, one after the other.
 */
export interface RestorePolicy<C> {
  /**
   * Whether the stored run comes back (false: not this driver's, or already shown), restoring what its index entry
   * keeps that the driver needs while the run is shown — at connect, for every run, loaded or shown from its
   * summary; once per run and driver (a run released and opened again is not opened again). Called again only for
   * a run it refused, so a refusal must be a pure answer.
   */
  open(stored: StoredRun): boolean;
  /**
   * Just before the run's records are replayed (at connect, or when a run shown from its summary is opened): what
   * the driver restores from the index entry that only the transcript needs (a local change set to recompute).
   */
  replaying?(stored: StoredRun): void;
  /**
   * The state a restored run shows: the one in its index entry (`'as indexed'`: the last the driver knew; replayed
   * events must not move it) or the one its replayed records leave (`'as replayed'`).
   */
  readonly state: 'as indexed' | 'as replayed';
  /** A decoder for the run's 0.1.0 lines (one per run: a decoder may keep state across them). */
  legacy?(stored: StoredRun): LegacyDecoder;
  /** Each input once it was folded (cursors are only handed here): the driver rebuilds its own books. */
  record?(runId: string, input: RunInput<C>): void;
  /** After the run's records: what the reload ended (journaled), and anything else the driver rebuilds. */
  restored?(stored: StoredRun, run: RunInfo): RestoredRun | void | Promise<RestoredRun | void>;
  /**
   * Finished runs with a summary in the index (runSummaries.ts `coldSummaryOf`: a terminal state, nothing waiting
   * for a person) come back from it alone, their transcript replayed when the run is opened (issue #25 §2):
   * `replaying`, `legacy`, `record` and `restored` then run at that moment, not at connect.
   */
  readonly lazy?: boolean;
  /**
   * A finished run the driver still needs whole at connect (a stranded A3S run it offers to recover, one whose
   * change set it may still have to fetch): replayed then, as without `lazy`. Asked of every stored finished run at
   * connect, with its entry peeked, not validated (runSummaries.ts `peekColdSummary`): a cheap, pure answer.
   */
  keepsLoaded?(stored: StoredRun, peek: ColdPeek): boolean;
  /**
   * Whether a live run of this driver may come back from its checkpoint's head when it is idle there (waiting for the
   * user's next message), its transcript restored when a view shows it or news for it comes (quietRuns.ts). Asked
   * after `open`, of runs with a summary and nothing waiting for a person. Lazy only.
   */
  quiet?(stored: StoredRun): boolean;
}

/** What a reload ended for a restored run. */
export interface RestoredRun {
  /** Everything the run still waited for expired, for this reason. */
  readonly expire?: string;
  /** Fields that changed with the reload (an interrupted turn). */
  readonly fields?: RunFields;
}

/** The state an index entry names; a state no longer known reads as lost (we cannot say what became of the run). */
export function storedStateOf(stored: StoredRun): RunState {
  const parsed = runStateSchema.safeParse(stored.state === 'cancelled' ? 'canceled' : stored.state);
  return parsed.success ? parsed.data : 'lost';
}

/** The fields a stored run starts from, the same for every driver. */
export function restoredFieldsOf(stored: StoredRun): RunFields {
  return {
    title: stored.title,
    ...(stored.provider !== undefined ? { provider: stored.provider } : {}),
    ...(stored.model !== undefined ? { model: stored.model } : {}),
    state: storedStateOf(stored),
    createdAt: stored.createdAt,
    ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}),
  };
}

/** A run's entry in the run index: the model's fields, plus what the driver keeps beside them (JSON-safe). */
export function storedRunOf(run: RunInfo, extra?: Readonly<Record<string, unknown>>, summary?: unknown): StoredRun {
  return {
    runId: run.runId,
    title: run.title,
    ...(run.provider !== undefined ? { provider: run.provider } : {}),
    ...(run.model !== undefined ? { model: run.model } : {}),
    state: run.state,
    createdAt: run.createdAt,
    ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
    ...(summary !== undefined ? { summary } : {}),
  };
}

/** This editor window's id (stable across its reloads; without one, this extension host). */
export function windowIdOf(ctx: Pick<DriverContext, 'windowId'>): string {
  return ctx.windowId ?? `pid-${process.pid}`;
}

/** The connection's folder of run files (journals, their checkpoints and leases, file checkpoints: turnCheckpoints.ts). */
export function journalDirOf(ctx: Pick<DriverContext, 'storageDir' | 'connectionId'>): string {
  return join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId));
}

/** Where a run's files are: its connection's folder (journalDirOf) and its id there (the files' prefix). */
export interface RunFilePlace {
  readonly dir: string;
  readonly runId: string;
}

/** The place of a run's files (its journal, and what the editor keeps beside it: review marks, notes); none for no run. */
export function runFilePlaceOf(storageDir: string, run: { readonly connectionId: string; readonly runId: string } | undefined): RunFilePlace | undefined {
  return run && { dir: journalDirOf({ storageDir, connectionId: run.connectionId }), runId: run.runId };
}

/** The recorder of `ctx`'s connection: one directory per connection profile under the extension's storage. */
export function journalOf<C>(ctx: Pick<DriverContext, 'store' | 'connectionId' | 'storageDir' | 'log' | 'windowId' | 'windowName'>, journaling: Journaling<C>, checkpointed?: (runId: string) => void): RunRecorder<C> | undefined {
  if (journaling === 'not journaled') {
    return undefined;
  }
  return new RunRecorder({
    store: ctx.store,
    connectionId: ctx.connectionId,
    dir: journalDirOf(ctx),
    cursor: journaling.cursor,
    warn: (m) => ctx.log.warn(m),
    info: (m) => ctx.log.info(m),
    // Every window of this machine shares the directory: each run has one writer (runWriters.ts). The token tells
    // two journals of one process apart (two connections of one profile never coexist in a window, but tests run
    // two windows in one process).
    writer: { pid: process.pid, window: windowIdOf(ctx), token: randomBytes(6).toString('hex'), ...(ctx.windowName !== undefined ? { name: ctx.windowName } : {}) },
    ...(journaling.writing ? { writing: journaling.writing } : {}),
    ...(journaling.rejoin ? { behind: journaling.rejoin } : {}),
    ...(checkpointed ? { checkpointed } : {}),
  });
}

/**
 * Replays the driver's stored runs through the door (see the file comment); `onlyNew`: only runs not yet in the model
 * (another window's new runs, seen in the shared run index: runWriters.ts).
 */
export async function replayRuns<C>(recorder: RunRecorder<C>, handlers: ReplayHandlers<C>, onlyNew = false, index?: ConnectIndex): Promise<void> {
  await (onlyNew ? recorder.replayNew(handlers) : recorder.replay(handlers, false, index));
}

/** The replay handlers of a door, with what its history asks of them (kit/runHistory.ts). */
export interface DoorReplayHandlers<C> extends ReplayHandlers<C> {
  /** Restores the run's index entry through the policy's `open` unless done (an archived run brought back). */
  openIndex(stored: StoredRun): boolean;
  /** The run was removed: a run of that id stored again is opened anew. */
  forget(runId: string): void;
}

/** When a stored run may stay out of the model at connect (the index digest's test): its last activity, or undefined. */
export function coldTestOf<C>(policy: Pick<RestorePolicy<C>, 'keepsLoaded'>): (stored: StoredRun) => number | undefined {
  return (stored) => {
    const peek = peekColdSummary(stored);
    return peek === undefined || policy.keepsLoaded?.(stored, peek) ? undefined : peek.activeAt;
  };
}

/** Where a connect's cold runs past its page go (the door's OlderRuns), and whether a run is listed there. */
export interface ConnectPages {
  paged(older: readonly StoredRun[], stubs: OlderStubs | undefined): void;
  listed(runId: string): boolean;
}

const NO_PAGES: ConnectPages = { paged: () => undefined, listed: () => false };

/**
 * The handlers a replay runs a driver's stored runs through — at connect, and again when a run shown from its
 * summary is opened (DriverRuns.load). Built once per door: it remembers which runs' index entries the policy
 * restored (`open`), so a run opened, released and opened again is not restored twice.
 */
export function replayHandlersOf<C>(runs: DriverRuns<C>, ctx: Pick<DriverContext, 'store' | 'log'>, terms: JournalTerms<C>, policy: RestorePolicy<C>, hidden: (stored: StoredRun) => boolean = () => false, pages: ConnectPages = NO_PAGES): DoorReplayHandlers<C> {
  const opened = new Set<string>();
  const coldAt = coldTestOf(policy);
  const openOnce = (stored: StoredRun): boolean => {
    if (opened.has(stored.runId)) {
      return true;
    }
    if (!policy.open(stored)) {
      return false;
    }
    opened.add(stored.runId);
    return true;
  };
  return {
    openIndex: openOnce,
    forget: (runId) => void opened.delete(runId),
    open: (stored) => {
      if (!openOnce(stored)) {
        return undefined;
      }
      policy.replaying?.(stored);
      return restoredFieldsOf(stored);
    },
    ...(policy.legacy ? { legacy: (stored: StoredRun) => policy.legacy!(stored) } : {}),
    ...(policy.record ? { record: (runId: string, input: RunInput<C>) => policy.record!(runId, input) } : {}),
    ...(terms.books !== 'none' ? { books: terms.books } : {}),
    ...(policy.lazy
      ? {
          cold: (stored: StoredRun) => {
            // Read, not validated: every entry is asked at connect, and only the page shown is validated (`summarized`).
            if (coldAt(stored) === undefined) {
              return undefined;
            }
            // An archived run (retention) stays on disk, searchable, out of the model.
            return hidden(stored) ? 'archived' : 'cold';
          },
          summarized: (stored: StoredRun) => {
            const summary = coldSummaryOf(stored);
            // Its index entry now (ownership, session: what acting on it needs), its transcript when it is opened. A
            // run the policy refuses, or whose summary does not read, is left to `open` (replayed whole, or left out).
            return summary !== undefined && openOnce(stored) ? { fields: restoredFieldsOf(stored), counts: summaryCountsOf(summary) } : undefined;
          },
          paged: (older: readonly StoredRun[], stubs: OlderStubs | undefined) => pages.paged(older, stubs),
          skip: (stored: StoredRun) => pages.listed(stored.runId) || hidden(stored),
          quiet: (stored: StoredRun) => {
            const summary = policy.quiet && storedSummaryOf(stored);
            return summary && summary.pendingApprovals === 0 && openOnce(stored) && policy.quiet!(stored) ? summary : undefined;
          },
        }
      : {}),
    close: (stored) => runs.history.settle(stored.runId, async () => {
      if (policy.state === 'as indexed') {
        // Shown, not journaled: it is what the index says, every time this run is replayed — but a live run loaded
        // after connect keeps the state it showed until then (the index's may be older).
        const fields = runs.history.liveState(stored.runId) ?? { state: storedStateOf(stored) };
        ctx.store.dispatch({ type: 'runUpserted', connectionId: runs.connectionId, runId: stored.runId, fields });
      }
      const run = runs.get(stored.runId);
      const ended = run ? await policy.restored?.(stored, run) : undefined;
      if (ended?.expire !== undefined) {
        await runs.expireApprovals(stored.runId, ended.expire);
      }
      if (ended?.fields) {
        await runs.fields(stored.runId, ended.fields);
      }
    }),
  };
}

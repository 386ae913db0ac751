/**
 * The AgencyProxy driver's journal, in the kit's one format (kit/journalRecords.ts): a daemon event is journaled as
 * the model events it maps to (the first with its sequence), the run fields it implies, and — when they changed —
 * a cursor with the run's activity (answering / idle / waiting, which the daemon cannot tell, runActivity.ts) and
 * its provider session. A reload dispatches those records as they are: nothing is parsed or mapped from the wire.
 * The ack bookkeeping comes back from the records themselves: the highest sequence held, the sequence of each
 * approval request, the messages injected and the decisions sent.
 *
 * 0.1.0 journals (`{s, e: wire event}` and `{l: model event}`) still load: each wire event goes through the wire
 * schema and the mapping once, at load, with scratch books, giving exactly the records the live code writes.
 */
import * as z from 'zod/mini';
import type { RunEvent as ModelRunEvent, RunFields } from '../../model/modelActions';
import type { RunStore } from '../../model/runStore';
import type { RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { RunEventSchema } from '../../protocol/agencyProxy';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { JournalRecord } from '../kit/journalRecords';
import { journalRecord } from '../kit/journalRecords';
import type { LegacyDecoder, ReplayHandlers } from '../kit/runRecorder';
import { connectionRecorder } from '../kit/connectionJournal';
import type { RunRecorder } from '../kit/runRecorder';
import type { AckTracker } from './ackTracker';
import type { StreamedChunk } from '../kit/streamedChunks';
import { mapAgencyProxyEvent, mapChunkEvent } from './eventMapping';
import type { RunActivity } from './runActivity';
import { RunActivityBook } from './runActivityBook';
import { RunOwnership } from './runOwnership';
import { runFieldsOf } from './storedRuns';

const activitySchema = z.object({
  phase: z.enum(['answering', 'idle', 'waiting_approval', 'ended']),
  openToolIds: z.readonly(z.array(z.string())),
  openAnonymousTools: z.number(),
  openApprovals: z.readonly(z.array(z.string())),
});

/** What the driver needs besides the model events to resume a run after a reload. */
export const agencyProxyCursorSchema = z.object({ activity: z.optional(activitySchema), session: z.optional(z.string()) });
export type AgencyProxyCursor = z.infer<typeof agencyProxyCursorSchema>;
export type AgencyProxyRecorder = RunRecorder<AgencyProxyCursor>;
type ApRecord = JournalRecord<AgencyProxyCursor>;

/** The connection's recorder: its journal lives in the extension's storage, one directory per profile. */
export function agencyProxyRecorder(ctx: DriverContext): AgencyProxyRecorder {
  return connectionRecorder(ctx, agencyProxyCursorSchema);
}

/** The books a daemon event updates while it is mapped. */
export interface AgencyProxyFoldBooks {
  readonly activity: RunActivityBook;
  readonly ownership: RunOwnership;
}

/** One daemon event, mapped: the records that fold it in, and what the driver does next. */
export interface AgencyProxyFold {
  readonly records: readonly ApRecord[];
  /** The run reached a terminal event: re-read the snapshot for the final state. */
  readonly terminal: boolean;
  /** The event named a new provider session for the run: store it with the run (continueInNewRun uses it). */
  readonly sessionChanged: boolean;
  /** The run just finished an answer and waits for a message. */
  readonly becameIdle: boolean;
}

const BOUNDARY: ModelRunEvent = { kind: 'messageBoundary' };

function sameIds(x: readonly string[], y: readonly string[]): boolean {
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function sameActivity(a: RunActivity, b: RunActivity): boolean {
  return a.phase === b.phase && a.openAnonymousTools === b.openAnonymousTools && sameIds(a.openToolIds, b.openToolIds) && sameIds(a.openApprovals, b.openApprovals);
}

/**
 * The chunk a text or reasoning event folds into when it changes nothing else — the run is already answering and
 * shown running, so `agencyProxyFold` would give exactly this one event record (no fields, no cursor) and leave the
 * books as they are. Undefined otherwise: fold the event with `agencyProxyFold`.
 */
export function agencyProxySteadyChunk(books: AgencyProxyFoldBooks, runId: string, event: WireRunEvent): StreamedChunk | undefined {
  return (event.type === 'text' || event.type === 'reasoning') && books.activity.steadyAnswering(runId) ? mapChunkEvent(event) : undefined;
}

/** Maps one daemon event onto the records that fold it into the model (live, and for 0.1.0 journals at load). */
export function agencyProxyFold(books: AgencyProxyFoldBooks, runId: string, sequence: number, event: WireRunEvent): AgencyProxyFold {
  const mapped = mapAgencyProxyEvent(event);
  // Every daemon event moves the run's sequence, so one that maps to nothing still folds in as a boundary.
  const records: ApRecord[] = (mapped.events.length > 0 ? mapped.events : [BOUNDARY]).map((e, i) => journalRecord.event(e, i === 0 ? sequence : undefined));
  // Written only when something changed (most events are text chunks: nothing to keep beside them).
  let cursor: { activity?: RunActivity; session?: string } | undefined;
  const session = event.type === 'session_opened' ? event.payload.provider_session_id : undefined;
  const sessionChanged = books.ownership.noteSession(runId, session);
  if (sessionChanged && session) {
    cursor = { session };
  }
  if (mapped.fields) {
    records.push(journalRecord.fields(mapped.fields));
  }
  const before = books.activity.activityOf(runId);
  const change = books.activity.observe(runId, event);
  if (change.state) {
    records.push(journalRecord.fields({ state: change.state }));
  }
  const after = books.activity.activityOf(runId);
  if (after && after !== before && (!before || !sameActivity(before, after))) {
    cursor = { ...cursor, activity: after };
  }
  if (cursor) {
    records.push(journalRecord.cursor(cursor));
  }
  return { records, terminal: mapped.terminal === true, sessionChanged, becameIdle: change.becameIdle };
}

const isObject = (v: unknown): v is { readonly [key: string]: unknown } => v !== null && typeof v === 'object';

/** Decodes a 0.1.0 run's lines: `{s, e}` through the wire schema and the mapping (with scratch books), `{l}` as is. */
export function legacyAgencyProxyDecoder(runId: string): LegacyDecoder {
  const scratch: AgencyProxyFoldBooks = { activity: new RunActivityBook(), ownership: new RunOwnership() };
  return (line) => {
    if (isObject(line) && typeof line.s === 'number') {
      const parsed = RunEventSchema.safeParse(line.e);
      return parsed.success ? agencyProxyFold(scratch, runId, line.s, parsed.data).records : undefined;
    }
    return isObject(line) && 'l' in line ? [{ v: 2, e: line.l }] : undefined;
  };
}

/** What a run checkpoint keeps of the books the `record` handler below rebuilds (kit/runCheckpoints.ts). */
const savedBooksSchema = z.object({
  durable: z.number(),
  approvals: z.array(z.tuple([z.string(), z.number()])),
  injected: z.number(),
  activity: z.optional(activitySchema),
  session: z.optional(z.string()),
});

/** The driver's books a replay rebuilds. */
export interface AgencyProxyBooks extends AgencyProxyFoldBooks {
  readonly acks: AckTracker;
}

/** What the driver itself does while its journal is replayed. */
export interface AgencyProxyReplayHooks {
  /** A stored run is about to come back: restore what its index entry keeps for the driver (local change set). */
  restore(stored: StoredRun): void;
  /** A run that had ended came back: what is still unsettled expired, its change set can be finished. */
  ended(runId: string): void;
}

/** How the AgencyProxy driver replays its journal (RunRecorder.replay). */
export function agencyProxyReplay(store: Pick<RunStore, 'dispatch'>, connectionId: string, books: AgencyProxyBooks, hooks: AgencyProxyReplayHooks): ReplayHandlers<AgencyProxyCursor> {
  const applyFields = (runId: string, fields: RunFields) => store.dispatch({ type: 'runUpserted', connectionId, runId, fields });
  return {
    open: (stored) => {
      books.ownership.restore(stored.runId, stored.extra);
      hooks.restore(stored);
      return runFieldsOf(stored);
    },
    legacy: (stored) => legacyAgencyProxyDecoder(stored.runId),
    record: (runId, record) => {
      if ('e' in record) {
        const e = record.e;
        if (record.q !== undefined) {
          books.acks.stored(runId, record.q);
          if (e.kind === 'approvalRequested') {
            books.acks.approvalRequested(runId, e.approvalId, record.q);
          }
        }
        if (e.kind === 'userPrompt' && e.note) {
          books.acks.nextInjection(runId); // injected messages number their idempotency keys
        }
        if (e.kind === 'approvalSettled') {
          books.acks.approvalAnswered(runId, e.approvalId);
        }
      } else if ('c' in record) {
        if (record.c.activity) {
          books.activity.restore(runId, record.c.activity);
        }
        if (record.c.session) {
          books.ownership.noteSession(runId, record.c.session);
        }
      }
    },
    books: {
      save: (runId) => {
        const activity = books.activity.activityOf(runId);
        const session = books.ownership.sessionOf(runId);
        return { ...books.acks.saved(runId), ...(activity ? { activity } : {}), ...(session !== undefined ? { session } : {}) };
      },
      restore: (runId, saved) => {
        const parsed = savedBooksSchema.safeParse(saved);
        if (!parsed.success) {
          return false;
        }
        books.acks.restore(runId, parsed.data);
        if (parsed.data.activity) {
          books.activity.restore(runId, parsed.data.activity);
        }
        books.ownership.noteSession(runId, parsed.data.session);
        return true;
      },
    },
    close: (stored) => {
      // Replaying terminal events must not touch the daemon; the stored state is the last one we knew.
      const { state } = runFieldsOf(stored);
      applyFields(stored.runId, { state });
      if (state && isTerminalRunState(state)) {
        // Only now, after the run's own journaled decisions were replayed: what is still unsettled expired.
        hooks.ended(stored.runId);
      }
    },
  };
}

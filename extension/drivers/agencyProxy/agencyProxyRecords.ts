/**
 * What the AgencyProxy driver folds into the model and journals through the kit's door (kit/driverRuns.ts): a
 * daemon event becomes the model events it maps to (the first with its sequence), the run fields it implies, and —
 * when they changed — a cursor with the run's activity (answering / idle / waiting, which the daemon cannot tell,
 * runActivity.ts) and its provider session. A reload folds those inputs again as they are: nothing is parsed or
 * mapped from the wire. The ack bookkeeping comes back from the inputs themselves: the highest sequence held, the
 * sequence of each approval request, the messages injected and the decisions sent.
 *
 * 0.1.0 journals (`{s, e: wire event}` and `{l: model event}`) still load: each wire event goes through the wire
 * schema and the mapping once, at load, with scratch books, giving exactly the inputs the live code folds.
 */
import * as z from 'zod/mini';
import type { RunEvent as ModelRunEvent } from '../../model/modelActions';
import type { RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { RunEventSchema } from '../../protocol/agencyProxy';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { RunInput } from '../kit/journalRecords';
import { runInput } from '../kit/journalRecords';
import type { LegacyDecoder } from '../kit/runRecorder';
import type { CheckpointBooks } from '../kit/runCheckpoints';
import type { RestorePolicy } from '../kit/runJournaling';
import { storedStateOf } from '../kit/runJournaling';
import type { AckTracker } from './ackTracker';
import type { StreamedChunk } from '../kit/streamedChunks';
import { mapAgencyProxyEvent, mapChunkEvent } from './eventMapping';
import type { RunActivity } from './runActivity';
import { RunActivityBook } from './runActivityBook';
import { RunOwnership } from './runOwnership';

const activitySchema = z.object({
  phase: z.enum(['answering', 'idle', 'waiting_approval', 'ended']),
  openToolIds: z.readonly(z.array(z.string())),
  openAnonymousTools: z.number(),
  openApprovals: z.readonly(z.array(z.string())),
});

/** What the driver needs besides the model events to resume a run after a reload. */
export const agencyProxyCursorSchema = z.object({ activity: z.optional(activitySchema), session: z.optional(z.string()) });
export type AgencyProxyCursor = z.infer<typeof agencyProxyCursorSchema>;
type ApInput = RunInput<AgencyProxyCursor>;

/** The books a daemon event updates while it is mapped. */
export interface AgencyProxyFoldBooks {
  readonly activity: RunActivityBook;
  readonly ownership: RunOwnership;
}

/** One daemon event, mapped: the inputs that fold it in, and what the driver does next. */
export interface AgencyProxyFold {
  readonly inputs: readonly ApInput[];
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
  const inputs: ApInput[] = (mapped.events.length > 0 ? mapped.events : [BOUNDARY]).map((e, i) => runInput.event(e, i === 0 ? sequence : undefined));
  // Written only when something changed (most events are text chunks: nothing to keep beside them).
  let cursor: { activity?: RunActivity; session?: string } | undefined;
  const session = event.type === 'session_opened' ? event.payload.provider_session_id : undefined;
  const sessionChanged = books.ownership.noteSession(runId, session);
  if (sessionChanged && session) {
    cursor = { session };
  }
  if (mapped.fields) {
    inputs.push(runInput.fields(mapped.fields));
  }
  const before = books.activity.activityOf(runId);
  const change = books.activity.observe(runId, event);
  if (change.state) {
    inputs.push(runInput.fields({ state: change.state }));
  }
  const after = books.activity.activityOf(runId);
  if (after && after !== before && (!before || !sameActivity(before, after))) {
    cursor = { ...cursor, activity: after };
  }
  if (cursor) {
    inputs.push(runInput.cursor(cursor));
  }
  return { inputs, terminal: mapped.terminal === true, sessionChanged, becameIdle: change.becameIdle };
}

const isObject = (v: unknown): v is { readonly [key: string]: unknown } => v !== null && typeof v === 'object';

/** Decodes a 0.1.0 run's lines: `{s, e}` through the wire schema and the mapping (with scratch books), `{l}` as is. */
export function legacyAgencyProxyDecoder(runId: string): LegacyDecoder {
  const scratch: AgencyProxyFoldBooks = { activity: new RunActivityBook(), ownership: new RunOwnership() };
  return (line) => {
    if (isObject(line) && typeof line.s === 'number') {
      const parsed = RunEventSchema.safeParse(line.e);
      return parsed.success ? agencyProxyFold(scratch, runId, line.s, parsed.data).inputs : undefined;
    }
    return isObject(line) && 'l' in line ? [{ event: line.l }] : undefined;
  };
}

/** What a run checkpoint keeps of the books the policy's `record` below rebuilds (kit/runCheckpoints.ts). */
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

/** The books a run checkpoint carries for the driver (its journaling terms). */
export function agencyProxyCheckpointBooks(books: AgencyProxyBooks): CheckpointBooks {
  return {
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
  };
}

/** What the driver itself does while its journal is replayed. */
export interface AgencyProxyReplayHooks {
  /** A stored run's transcript is about to be replayed: restore what only it needs of the index entry (local change set). */
  restore(stored: StoredRun): void;
  /** A run that had ended came back: what is still unsettled expired, its change set can be finished. */
  ended(runId: string): Promise<void>;
}

/**
 * How a stored AgencyProxy run comes back after a reload (DriverRuns.replay). Lazily: a finished run (completed,
 * failed, canceled, interrupted or lost, with no approval waiting: runSummaries.ts `coldSummaryOf`) comes back from
 * its index entry at connect, its transcript when it is opened. What acting on such a run needs is in the index entry
 * and restored at connect (`open`): its owner window (acks, adopting), whether it takes messages, and its provider
 * session (continuing it in a new run). Its ack books are not: they are rebuilt from its records when it is loaded —
 * which any news for it, and adopting it, do first — and until then nothing of it is acknowledged (an ack never
 * covers more than the journal this window has read, `journaledThrough`). Its local change set (a git diff) is
 * recomputed when it is opened. An idle run this window owns comes back the same way, from its checkpoint's head (its
 * books exact: kit/quietRuns.ts). Runs still going, or waiting for a person, are replayed whole at connect.
 */
export function agencyProxyRestorePolicy(books: AgencyProxyBooks, hooks: AgencyProxyReplayHooks): RestorePolicy<AgencyProxyCursor> {
  return {
    open: (stored) => {
      books.ownership.restore(stored.runId, stored.extra);
      books.activity.restoreExtra(stored.runId, stored.extra);
      return true;
    },
    replaying: (stored) => hooks.restore(stored),
    // Replaying terminal events must not touch the daemon; the stored state is the last one we knew.
    state: 'as indexed',
    lazy: true,
    // This window's run, idle at its checkpoint, comes back without its transcript (kit/quietRuns.ts); another
    // window's is followed as before, whole.
    quiet: (stored) => books.ownership.owns(stored.runId),
    legacy: (stored) => legacyAgencyProxyDecoder(stored.runId),
    record: (runId, input) => {
      if ('event' in input) {
        const e = input.event;
        if (input.sequence !== undefined) {
          books.acks.stored(runId, input.sequence);
          if (e.kind === 'approvalRequested') {
            books.acks.approvalRequested(runId, e.approvalId, input.sequence);
          }
        }
        if (e.kind === 'userPrompt' && e.note) {
          books.acks.nextInjection(runId); // injected messages number their idempotency keys
        }
        if (e.kind === 'approvalSettled') {
          books.acks.approvalAnswered(runId, e.approvalId);
        }
      } else if ('cursor' in input) {
        if (input.cursor.activity) {
          books.activity.restore(runId, input.cursor.activity);
        }
        if (input.cursor.session) {
          books.ownership.noteSession(runId, input.cursor.session);
        }
      }
    },
    restored: async (stored) => {
      if (isTerminalRunState(storedStateOf(stored))) {
        // Only now, after the run's own journaled decisions were replayed: what is still unsettled expired.
        await hooks.ended(stored.runId);
      }
    },
  };
}

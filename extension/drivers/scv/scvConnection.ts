/**
 * Opening one SCV connection for the driver: a client with the driver's frame tap, every listener wired to a fresh
 * `ScvConnectionBook`, and the handshake done. Also the connection epoch that keys the run ids of its session
 * (`scvSessionBook.ts`): a new epoch per successful handshake, above every epoch this connection profile has used.
 */
import type { Event } from '../../base/emitter';
import type { ModelState } from '../../model/modelTypes';
import type { ScvServerEvent } from '../../protocol/scv';
import type { DriverContext } from '../connectionManager';
import { ScvClient } from './client';
import type { ScvCloseInfo, ScvErrorInfo, ScvGap } from './scvClientTypes';
import type { ScvConnectionBook } from './scvSessionBook';
import { nextScvEpoch, scvEpochOf } from './scvSessionBook';

/** More than a full queue (the daemon's limit is small) plus the running turn. */
const MAX_REMEMBERED_PROMPTS = 256;

export interface ScvConnectionOptions {
  /** Sent as `client.version` in `initialize`. */
  readonly clientVersion?: string;
  readonly connectTimeoutMs?: number;
  readonly writeTimeoutMs?: number;
  readonly replyTimeoutMs?: number;
}

/** What the driver does with what a connection reports; each gets the connection's book. */
export interface ScvConnectionHandlers {
  event(live: ScvConnectionBook, event: ScvServerEvent): void;
  gap(live: ScvConnectionBook, gap: ScvGap): void;
  error(live: ScvConnectionBook, info: ScvErrorInfo): void;
  close(live: ScvConnectionBook, info: ScvCloseInfo): void;
  /** A socket read was delivered: what the handlers held from it is recorded now. */
  readEnd(live: ScvConnectionBook): void;
}

/**
 * Connects and initializes; the book gets epoch `epoch()` once the handshake succeeded (before any session can
 * start on it). Rejects (version mismatch included) on failure, with the client disposed.
 */
export async function openScvConnection(
  ctx: DriverContext,
  socketPath: string,
  options: ScvConnectionOptions,
  handlers: ScvConnectionHandlers,
  epoch: () => string,
): Promise<ScvConnectionBook> {
  const client: ScvClient = new ScvClient({
    socketPath,
    clientVersion: options.clientVersion ?? '0.1.0',
    clientName: 'agent-switchboard',
    frameTap: (dir, frame, http) => {
      ctx.tap(dir, frame, http);
      if (dir === 'out') {
        // Only called once `connect()` runs, after `live` exists.
        noteOutgoing(live, frame);
      }
    },
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.writeTimeoutMs !== undefined ? { writeTimeoutMs: options.writeTimeoutMs } : {}),
    ...(options.replyTimeoutMs !== undefined ? { replyTimeoutMs: options.replyTimeoutMs } : {}),
  });
  const live: ScvConnectionBook = {
    client,
    epoch: '',
    unknownTypes: new Set(),
    sentPrompts: new Map(),
    decisions: new Map(),
    session: undefined,
    established: false,
  };
  const wire = <T>(event: Event<T>, handle: (live: ScvConnectionBook, value: T) => void): void => {
    event((value) => handle(live, value));
  };
  wire(client.onEvent, (l, e) => handlers.event(l, e));
  wire(client.onGap, (l, g) => handlers.gap(l, g));
  wire(client.onError, (l, i) => handlers.error(l, i));
  wire(client.onClose, (l, i) => handlers.close(l, i));
  wire(client.onReadEnd, (l) => handlers.readEnd(l));
  try {
    await client.connect();
  } catch (error) {
    client.dispose();
    throw error;
  }
  live.epoch = epoch();
  return live;
}

/** The epoch after `last` for the runs of `connectionId` in `state` (see `nextScvEpoch`). */
export function nextConnectionEpoch(state: ModelState, connectionId: string, last: number, now: number): number {
  const taken = [last];
  for (const run of state.runs.values()) {
    const used = run.connectionId === connectionId ? scvEpochOf(run.runId) : undefined;
    if (used !== undefined) {
      taken.push(used);
    }
  }
  return nextScvEpoch(now, taken);
}

/** Remembers each prompt as its `turn.start` goes out (the frame tap sees it before the write). */
function noteOutgoing(book: ScvConnectionBook, frame: unknown): void {
  if (frame !== null && typeof frame === 'object') {
    const f = frame as { type?: unknown; request_id?: unknown; prompt?: unknown };
    if (f.type === 'turn.start' && typeof f.request_id === 'string' && typeof f.prompt === 'string') {
      book.sentPrompts.set(f.request_id, f.prompt);
      // A refused prompt never starts a turn: bound what such leftovers can hold.
      if (book.sentPrompts.size > MAX_REMEMBERED_PROMPTS) {
        book.sentPrompts.delete(book.sentPrompts.keys().next().value!);
      }
    }
  }
}

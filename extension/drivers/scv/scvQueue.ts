/**
 * The SCV prompt queue as this editor knows it (WIRE.md §2.7): rebuilt from `queue.snapshot` and kept current by
 * every queue event of the session. Protocol 3 has no "read the queue" request, but a session belongs to exactly one
 * connection and nothing is broadcast to other clients, so the events this connection receives are the whole story
 * (short of a `seq` gap). Pure.
 */
import type { QueueEntry } from '../../model/modelTypes';
import type { ScvServerEvent } from '../../protocol/scv';
import type { QueueEntry as WireQueueEntry } from '../../protocol/scvTypes';

export interface ScvQueueState {
  readonly entries: readonly WireQueueEntry[];
  readonly paused: boolean;
}

export const emptyScvQueue: ScvQueueState = { entries: [], paused: false };

function insertAt<T>(list: readonly T[], index: number, item: T): T[] {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/** The queue after `event`, or `undefined` when the event does not concern the queue. */
export function applyScvQueueEvent(queue: ScvQueueState, event: ScvServerEvent): ScvQueueState | undefined {
  switch (event.type) {
    case 'queue.snapshot':
      return { entries: event.entries, paused: event.paused };
    case 'queue.enqueued': {
      const rest = queue.entries.filter((e) => e.queue_id !== event.entry.queue_id);
      return { ...queue, entries: insertAt(rest, event.position, event.entry) };
    }
    case 'queue.updated': {
      const known = queue.entries.some((e) => e.queue_id === event.entry.queue_id);
      const entries = known
        ? queue.entries.map((e) => (e.queue_id === event.entry.queue_id ? event.entry : e))
        : [...queue.entries, event.entry];
      return { ...queue, entries };
    }
    case 'queue.moved': {
      const entry = queue.entries.find((e) => e.queue_id === event.queue_id);
      if (!entry) {
        return queue;
      }
      // `position` is the entry's index after the move.
      const rest = queue.entries.filter((e) => e.queue_id !== event.queue_id);
      return { ...queue, entries: insertAt(rest, event.position, { ...entry, revision: event.revision }) };
    }
    case 'queue.removed':
    case 'queue.dequeued':
      return { ...queue, entries: queue.entries.filter((e) => e.queue_id !== event.queue_id) };
    case 'session.paused':
      return { ...queue, paused: event.paused };
    case 'session.cleared':
      return { ...queue, entries: [] };
    default:
      return undefined;
  }
}

/** The queue in the common model's shape (shown by the transcript's queue view). */
export function queueForModel(queue: ScvQueueState): QueueEntry[] {
  return queue.entries.map((e) => ({
    queueId: e.queue_id,
    revision: e.revision,
    prompt: e.prompt,
    ...(e.submitter !== '' ? { submitter: e.submitter } : {}),
  }));
}

/**
 * Folds the consecutive streamed chunks of one read into one model input. A daemon streams an answer as thousands
 * of tiny events (a few characters of text each); one socket read holds hundreds of them, and stepping the model,
 * journaling a line and sending a patch per chunk is most of the cost of reading a busy stream. A driver hands
 * each chunk here instead of recording it, and flushes before anything else reaches the run and at the end of
 * every read: consecutive chunks of the same run and stream come out as one event whose chunk is their
 * concatenation (progress: the latest one, as the model keeps only that), in one journal record and one patch.
 *
 * Sequences stay exact: a chunk continues the held one only when it carries the next daemon sequence (or neither
 * has one), and the input stands for the whole range (`firstSequence`..`sequence`, journalRecords.ts), so the model's last sequence,
 * its gap check, the journal and the acks end exactly where they would have event by event. Only one fold is held
 * at a time, so the order of everything the driver records is the wire order.
 */
import type { RunEvent } from '../../model/modelActions';
import type { RunInput } from './journalRecords';
import { runInput } from './journalRecords';

/** The model events that fold with their neighbours. */
export type StreamedChunk = Extract<RunEvent, { readonly kind: 'textDelta' | 'reasoningDelta' | 'toolOutputDelta' | 'toolProgress' }>;

/** Whether `event` is a streamed chunk that may fold with the chunks around it. */
export function isStreamedChunk(event: RunEvent): event is StreamedChunk {
  const kind = event.kind;
  return kind === 'textDelta' || kind === 'reasoningDelta' || kind === 'toolOutputDelta' || kind === 'toolProgress';
}

/** One event input (with its range of daemon sequences when it has one) as `StreamedChunks` emits it. */
export type ChunkRecord = Extract<RunInput, { readonly event: RunEvent }>;

interface Held {
  readonly runId: string;
  kind: StreamedChunk['kind'];
  /** The call of a tool chunk; undefined for text and reasoning. */
  callId: string | undefined;
  /** The folded text so far: the first chunk, or the latest progress. */
  text: string;
  /** The chunks appended after the first, joined at flush into one flat string. */
  more: string[] | undefined;
  first: number | undefined;
  last: number | undefined;
  /** How many chunks were folded (tests and traces). */
  count: number;
}

function textOf(chunk: StreamedChunk): string {
  return chunk.kind === 'toolOutputDelta' ? chunk.delta : chunk.text;
}

function callOf(chunk: StreamedChunk): string | undefined {
  return chunk.kind === 'toolOutputDelta' || chunk.kind === 'toolProgress' ? chunk.callId : undefined;
}

function eventOf(held: Held): StreamedChunk {
  switch (held.kind) {
    case 'toolOutputDelta':
      return { kind: 'toolOutputDelta', callId: held.callId!, delta: held.text };
    case 'toolProgress':
      return { kind: 'toolProgress', callId: held.callId!, text: held.text };
    default:
      return { kind: held.kind, text: held.text };
  }
}

export class StreamedChunks {
  private held: Held | undefined;
  private foldedCount = 0;

  /** `emit` records one (folded) chunk: dispatched to the store and journaled, as the driver records any event. */
  constructor(private readonly emit: (runId: string, record: ChunkRecord, chunks: number) => void) {}

  /**
   * Holds `chunk` of run `runId` (`sequence`: the daemon's, when its events have one), folded into the held chunk
   * when it continues it — same run, same stream (and call), the next sequence. Otherwise the held one goes out
   * first. The caller has already dropped events at or below what the run holds (see `heldSequence`).
   */
  add(runId: string, chunk: StreamedChunk, sequence?: number): void {
    const held = this.held;
    if (held !== undefined && held.runId === runId && held.kind === chunk.kind && held.callId === callOf(chunk) &&
      (sequence === undefined ? held.last === undefined : held.last !== undefined && sequence === held.last + 1)) {
      if (chunk.kind === 'toolProgress') {
        held.text = chunk.text;
      } else if (held.more === undefined) {
        held.more = [held.text, textOf(chunk)];
      } else {
        held.more.push(textOf(chunk));
      }
      held.last = sequence;
      held.count += 1;
      return;
    }
    this.flush();
    this.held = { runId, kind: chunk.kind, callId: callOf(chunk), text: textOf(chunk), more: undefined, first: sequence, last: sequence, count: 1 };
  }

  /** Records what is held. Call before anything else is recorded for any run, and at the end of every read. */
  flush(): void {
    const held = this.held;
    if (held === undefined) {
      return;
    }
    this.held = undefined;
    this.foldedCount += held.count - 1;
    if (held.more !== undefined) {
      // One flat string: the transcript keeps it, and the chunk strings die young (a rope would keep each alive).
      held.text = held.more.join('');
    }
    const event = eventOf(held);
    const record = held.last === undefined ? runInput.event(event) : runInput.folded(event, held.first!, held.last);
    this.emit(held.runId, record as ChunkRecord, held.count);
  }

  /** The last daemon sequence held (not yet recorded) for `runId`: an event at or below it has arrived already. */
  heldSequence(runId: string): number | undefined {
    return this.held?.runId === runId ? this.held.last : undefined;
  }

  /** Whether a chunk is held. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** Chunks that went out inside another one so far (what folding saved). */
  get folded(): number {
    return this.foldedCount;
  }
}

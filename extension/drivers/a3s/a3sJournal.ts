/**
 * What the A3S driver folds into the model and journals through the kit's door (kit/journalRecords.ts). A harness
 * event record is folded as the model events it maps to, the first carrying its sequence (+1: the model is 1-based), so a reload
 * resumes paging after the highest one held. The mapping keeps a little state across records (a tool's input so
 * far, truncated tools, whether answer text streamed, a3sEventMapping.ts); a reload rebuilds it from the replayed
 * events, and what they cannot say is journaled beside them as a cursor note.
 *
 * 0.1.0 journals (`{s, at, e: envelope}`, `{g: [from, toExclusive]}`, `{l: model event}`) still load: each envelope
 * is decoded and mapped once, at load, with a scratch mapping state, giving exactly the records the live code writes.
 */
import * as z from 'zod/mini';
import type { RunEvent } from '../../model/modelActions';
import type { A3sEventRecord } from '../../protocol/a3s';
import { decodeA3sEvent } from '../../protocol/a3s';
import type { RunInput } from '../kit/journalRecords';
import { runInput } from '../kit/journalRecords';
import type { LegacyDecoder } from '../kit/runRecorder';
import type { A3sMappingState } from './a3sEventMapping';
import { mapA3sEvent, newA3sMappingState } from './a3sEventMapping';

/** Why a gap item is there: the harness evicted events before this editor read them (retention). */
export const A3S_GAP_REASON = 'older events were dropped by the harness';

/** What the mapping learned from a record that its model events do not say. */
export const a3sCursorSchema = z.object({
  /** Answer text streamed (even a chunk without text): agent_end's text is then not shown again. */
  sawText: z.optional(z.literal(true)),
  /** A tool's raw input so far, when the streamed event shows it differently (the truncation marker). */
  toolInput: z.optional(z.tuple([z.string(), z.string()])),
  /** A tool whose streamed output the harness truncated or bounded. */
  truncated: z.optional(z.string()),
});
export type A3sCursor = z.infer<typeof a3sCursorSchema>;
export type A3sInput = RunInput<A3sCursor>;

const BOUNDARY: RunEvent = { kind: 'messageBoundary' };

/** Maps one harness record onto the records that fold it in; `mapping` is updated in place. */
export function a3sEventRecords(mapping: A3sMappingState, record: A3sEventRecord): A3sInput[] {
  const sawText = mapping.sawText;
  const truncated = new Set(mapping.truncatedTools);
  const mapped = mapA3sEvent(decodeA3sEvent(record), mapping);
  // Every record moves the run's sequence, so one that maps to nothing still folds in as a boundary.
  const events = mapped.events.length > 0 ? mapped.events : [BOUNDARY];
  const records: A3sInput[] = events.map((e, i) => runInput.event(e, i === 0 ? record.sequence + 1 : undefined));
  const note: { sawText?: true; toolInput?: [string, string]; truncated?: string } = {};
  if (mapping.sawText && !sawText) {
    note.sawText = true;
  }
  for (const e of events) {
    const raw = e.kind === 'toolInputDelta' ? mapping.toolInput.get(e.callId) : undefined;
    if (e.kind === 'toolInputDelta' && raw !== undefined && raw !== e.delta) {
      note.toolInput = [e.callId, raw];
    }
  }
  for (const id of mapping.truncatedTools) {
    if (!truncated.has(id)) {
      note.truncated = id;
    }
  }
  if (Object.keys(note).length > 0) {
    records.push(runInput.cursor(note));
  }
  return records;
}

/** Rebuilds the mapping state from a replayed record (the inverse of what `a3sEventRecords` leaves implicit). */
export function restoreA3sMapping(mapping: A3sMappingState, record: A3sInput): void {
  if ('event' in record) {
    const e = record.event;
    if (e.kind === 'toolInputDelta') {
      mapping.toolInput.set(e.callId, e.delta);
    } else if (e.kind === 'toolResult' && e.callId !== null) {
      mapping.toolInput.delete(e.callId);
      mapping.truncatedTools.delete(e.callId);
    }
  } else if ('cursor' in record) {
    if (record.cursor.sawText) {
      mapping.sawText = true;
    }
    if (record.cursor.toolInput) {
      mapping.toolInput.set(record.cursor.toolInput[0], record.cursor.toolInput[1]);
    }
    if (record.cursor.truncated !== undefined) {
      mapping.truncatedTools.add(record.cursor.truncated);
    }
  }
}

const isObject = (v: unknown): v is { readonly [key: string]: unknown } => v !== null && typeof v === 'object';

/** Decodes a 0.1.0 run's lines (one decoder per run: the scratch mapping state spans its records). */
export function legacyA3sDecoder(): LegacyDecoder {
  const scratch = newA3sMappingState();
  return (line) => {
    if (!isObject(line)) {
      return undefined;
    }
    if (typeof line.s === 'number' && 'e' in line) {
      if (!Number.isSafeInteger(line.s) || line.s < 0) {
        return undefined;
      }
      return a3sEventRecords(scratch, { sequence: line.s, occurred_at_ms: typeof line.at === 'number' ? line.at : 0, event: line.e });
    }
    const g = line.g;
    if (Array.isArray(g) && g.length === 2 && typeof g[0] === 'number' && typeof g[1] === 'number') {
      return [runInput.gap({ from: g[0], to: g[1], reason: A3S_GAP_REASON })];
    }
    return 'l' in line ? [{ event: line.l }] : undefined;
  };
}

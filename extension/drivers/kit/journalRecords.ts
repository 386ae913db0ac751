/**
 * The journal's one record format (v2), shared by every driver. A run's journal is the list of the model inputs
 * the driver folded into that run, in order, one JSON line each:
 *
 *   {"v":2,"q":7,"e":<RunEvent>}   a run event; `q` is the daemon's sequence when the event opens a daemon event
 *                                  (the model dedupes by it, the driver resumes after the highest)
 *   {"v":2,"s":3,"q":7,"e":…}      one event standing for the daemon events 3..7: streamed chunks of one read,
 *                                  folded into one (kit/streamedChunks.ts); `s` only when it differs from `q`
 *   {"v":2,"f":<RunFields>}        run fields a daemon event set (state, model…)
 *   {"v":2,"g":{from,to,reason}}   events (from, to] are lost
 *   {"v":2,"p":[<Panel>…]}         side panels, merged by id (`"r":true`: replacing all of them)
 *   {"v":2,"c":<driver cursor>}    the driver's own resume state (ack bookkeeping, mapping state…), typed by the
 *                                  driver's schema; not a model input
 *
 * Model events, not wire frames, because they are the reducer's input: replaying them reproduces the model state
 * exactly (approvals, tool calls, gaps, panels) without parsing or mapping any daemon's wire again, and the
 * format is the same for every daemon. Transcript patches would not do: they are a projection of the model and
 * lose its state (pending approvals, open tools, sequences).
 *
 * Every line is validated on read (`safeParse`): a line that does not fit is skipped and counted, never thrown.
 */
import * as z from 'zod/mini';
import type { RunEvent, RunFields } from '../../model/modelActions';
import type { Panel } from '../../model/modelTypes';
import { panelSchema } from '../../protocol/panels';
import { alwaysLastsSchema, approvalDecisionSchema, decisionSurfaceSchema, runStateSchema } from '../../protocol/transcriptTypes';

/** The `v` of every record this code writes (0.1.0's records had none). */
export const JOURNAL_VERSION = 2;

const opt = z.optional;
const kind = <K extends string>(k: K) => z.literal(k);

/** The model's `RunEvent`, as zod (modelActions.ts is the truth; the compile-time check below keeps them equal). */
export const runEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: kind('userPrompt'), text: z.string(), note: opt(z.string()) }),
  z.object({ kind: kind('textDelta'), text: z.string() }),
  z.object({ kind: kind('textCompleted'), text: z.string() }),
  z.object({ kind: kind('reasoningDelta'), text: z.string() }),
  z.object({ kind: kind('messageBoundary') }),
  z.object({ kind: kind('toolCall'), callId: z.nullable(z.string()), name: z.string(), input: z.unknown(), status: opt(z.enum(['proposed', 'running'])) }),
  z.object({ kind: kind('toolInputDelta'), callId: z.string(), delta: z.string() }),
  z.object({ kind: kind('toolStarted'), callId: z.string(), name: opt(z.string()) }),
  z.object({ kind: kind('toolProgress'), callId: z.string(), text: z.string() }),
  z.object({ kind: kind('toolOutputDelta'), callId: z.string(), delta: z.string() }),
  z.object({ kind: kind('toolTerminals'), callId: z.string(), terminalIds: z.readonly(z.array(z.string())) }),
  z.object({
    kind: kind('toolResult'),
    callId: z.nullable(z.string()),
    ok: z.nullable(z.boolean()),
    output: z.string(),
    truncated: opt(z.boolean()),
    errorKind: opt(z.string()),
    name: opt(z.string()),
  }),
  z.object({
    kind: kind('approvalRequested'),
    approvalId: z.string(),
    title: z.string(),
    detail: z.unknown(),
    summary: opt(z.string()),
    risk: opt(z.string()),
    options: z.readonly(z.array(approvalDecisionSchema)),
    // Older journals also carry `hasDiff`: dropped on reading, the reducer decides it from the detail.
    // Added with approval rules: older journals have neither. A subject without `complete` is not known whole, so
    // no rule matches it after a reload: the field must survive the journal.
    subject: opt(z.object({ tool: z.string(), paths: opt(z.array(z.string())), command: opt(z.string()), complete: opt(z.boolean()) })),
    ruleNote: opt(z.string()),
    saveRuleAs: opt(approvalDecisionSchema),
    lasts: opt(alwaysLastsSchema),
  }),
  z.object({
    kind: kind('approvalSettled'),
    approvalId: z.string(),
    decision: opt(approvalDecisionSchema),
    by: opt(decisionSurfaceSchema),
    // Added with one writer for decisions: older journals have none (their rule-decided approvals name no rule).
    rule: opt(z.string()),
    expired: opt(z.boolean()),
    reason: opt(z.string()),
  }),
  z.object({ kind: kind('filesEdited'), paths: z.readonly(z.array(z.string())), at: z.number() }),
  z.object({ kind: kind('usage'), used: z.number(), size: z.number(), cost: opt(z.object({ amount: z.number(), currency: z.string() })) }),
  z.object({
    kind: kind('compaction'),
    compactionId: z.string(),
    status: opt(z.string()),
    summary: opt(z.string()),
    summaryDelta: opt(z.string()),
    error: opt(z.string()),
  }),
  z.object({ kind: kind('data'), dataKind: z.enum(['usage', 'rateLimit', 'compaction']), data: z.unknown(), summary: z.string() }),
  z.object({ kind: kind('error'), message: z.string(), code: opt(z.string()) }),
  z.object({ kind: kind('notice'), text: z.string(), level: z.enum(['info', 'warning', 'error']) }),
  z.object({ kind: kind('stateChanged'), state: runStateSchema, detail: opt(z.string()), announce: opt(z.boolean()) }),
  z.object({
    kind: kind('turn'),
    turnId: z.string(),
    phase: z.enum(['started', 'completed', 'cancelled', 'failed']),
    code: opt(z.string()),
    message: opt(z.string()),
    summary: opt(z.string()),
  }),
  z.object({ kind: kind('message'), from: z.string(), body: z.string(), at: opt(z.string()), messageId: opt(z.string()), inReplyTo: opt(z.string()) }),
  z.object({ kind: kind('raw'), label: z.string(), data: z.unknown() }),
  z.object({
    kind: kind('fileCheckpoint'),
    checkpointId: z.string(),
    mark: z.enum(['turn', 'rewound']),
    turn: opt(z.int()),
    files: opt(z.int()),
    rewindable: z.boolean(),
    summary: opt(z.string()),
    unavailable: opt(z.string()),
  }),
]);

/** The model's `RunFields`, as zod. */
export const runFieldsSchema = z.object({
  title: opt(z.string()),
  provider: opt(z.string()),
  model: opt(z.string()),
  state: opt(runStateSchema),
  stateDetail: opt(z.string()),
  createdAt: opt(z.number()),
  workspaceRoots: opt(z.readonly(z.array(z.string()))),
  parentRunId: opt(z.string()),
  slashCommands: opt(z.readonly(z.array(z.readonly(z.object({ name: z.string(), description: z.string(), hint: opt(z.string()) }))))),
});

// Compile-time: what the schemas accept is a model input, and every kind of the model's RunEvent has a schema.
const schemaEventsAreRunEvents: z.infer<typeof runEventSchema> extends RunEvent ? true : never = true;
const everyRunEventKindHasASchema: RunEvent['kind'] extends z.infer<typeof runEventSchema>['kind'] ? true : never = true;
const schemaFieldsAreRunFields: z.infer<typeof runFieldsSchema> extends RunFields ? true : never = true;
void [schemaEventsAreRunEvents, everyRunEventKindHasASchema, schemaFieldsAreRunFields];

/** Events (from, to] are lost (the model's `runGap`). */
export interface JournalGap {
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** One journal line; `C` is the driver's cursor (`never` for a driver that keeps none). */
export type JournalRecord<C> =
  | { readonly v: 2; readonly s?: number; readonly q?: number; readonly e: RunEvent }
  | { readonly v: 2; readonly f: RunFields }
  | { readonly v: 2; readonly g: JournalGap }
  | { readonly v: 2; readonly p: readonly Panel[]; readonly r?: true }
  | { readonly v: 2; readonly c: C };

/** The schema of a driver's records, given the schema of its cursor. */
export function journalRecordSchema<C>(cursor: z.ZodMiniType<C>): z.ZodMiniType<JournalRecord<C>> {
  const v = z.literal(JOURNAL_VERSION);
  return z.union([
    z.object({ v, s: opt(z.int().check(z.positive())), q: opt(z.int().check(z.positive())), e: runEventSchema }),
    z.object({ v, f: runFieldsSchema }),
    z.object({ v, g: z.object({ from: z.number(), to: z.number(), reason: z.string() }) }),
    z.object({ v, p: z.readonly(z.array(panelSchema)), r: opt(z.literal(true)) }),
    z.object({ v, c: cursor }),
  ]) as z.ZodMiniType<JournalRecord<C>>;
}

/** Whether a parsed line claims to be a v2 record (else it may be one of 0.1.0's, for the driver's decoder). */
export function isCurrentRecord(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as { v?: unknown }).v === JOURNAL_VERSION;
}

/**
 * One model input a driver folds into a run, in the model's own words. Drivers and the door (driverRuns.ts) speak
 * only this; the disk keys above (`e`, `q`, `s`, `f`, `g`, `p`, `c`) are this file's and the recorder's alone.
 * `sequence` is the daemon's, on the event that opens a daemon event; `firstSequence` the first of the daemon events
 * one folded event stands for (streamedChunks.ts).
 */
export type RunInput<C = never> =
  | { readonly event: RunEvent; readonly sequence?: number; readonly firstSequence?: number }
  | { readonly fields: RunFields }
  | { readonly gap: JournalGap }
  | { readonly panels: readonly Panel[]; readonly replace?: true }
  | { readonly cursor: C };

/** Builders, so call sites say what they fold in rather than spelling the shapes. */
export const runInput = {
  event: (event: RunEvent, sequence?: number): RunInput => (sequence !== undefined ? { event, sequence } : { event }),
  /** One event standing for the daemon events `first`..`last` (folded chunks); a single sequence is a plain event. */
  folded: (event: RunEvent, first: number, last: number): RunInput => (first < last ? { event, firstSequence: first, sequence: last } : { event, sequence: last }),
  fields: (fields: RunFields): RunInput => ({ fields }),
  gap: (gap: JournalGap): RunInput => ({ gap }),
  panels: (panels: readonly Panel[], replace = false): RunInput => (replace ? { panels, replace } : { panels }),
  cursor: <C>(cursor: C): RunInput<C> => ({ cursor }),
};

/**
 * The line an input is written as. Also takes a 0.1.0 decoder's candidates (shaped like inputs, contents unchecked):
 * the result is validated like any line read back.
 */
export function diskRecordOf<C>(input: RunInput<C>): JournalRecord<C> {
  if ('event' in input) {
    // Spelled out: this runs for every streamed chunk.
    if (input.sequence === undefined) {
      return { v: 2, e: input.event };
    }
    return input.firstSequence !== undefined ? { v: 2, s: input.firstSequence, q: input.sequence, e: input.event } : { v: 2, q: input.sequence, e: input.event };
  }
  if ('fields' in input) {
    return { v: 2, f: input.fields };
  }
  if ('gap' in input) {
    return { v: 2, g: input.gap };
  }
  if ('panels' in input) {
    return input.replace ? { v: 2, p: input.panels, r: true } : { v: 2, p: input.panels };
  }
  return { v: 2, c: input.cursor };
}

/** The input a (validated) line stands for. */
export function runInputOf<C>(record: JournalRecord<C>): RunInput<C> {
  if ('e' in record) {
    if (record.q === undefined) {
      return { event: record.e };
    }
    return record.s !== undefined ? { event: record.e, sequence: record.q, firstSequence: record.s } : { event: record.e, sequence: record.q };
  }
  if ('f' in record) {
    return { fields: record.f };
  }
  if ('g' in record) {
    return { gap: record.g };
  }
  if ('p' in record) {
    return record.r ? { panels: record.p, replace: true } : { panels: record.p };
  }
  return { cursor: record.c };
}

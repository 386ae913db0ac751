/**
 * The transcript vocabulary shared by the host and the webview: one run's transcript is an ordered list of items
 * with stable string ids, changed only by small patches. Every daemon's driver maps its wire events onto these
 * kinds, so the webview renders one model for all four daemons. Pure zod (imported by both bundles).
 *
 * Everything in here may carry agent output: it is untrusted and must be rendered escaped or sanitized.
 */
// zod/mini: the same schemas at a fraction of the webview bundle size (full zod adds ~115 KB there).
import * as z from 'zod/mini';

/** Common run states across daemons (AgencyProxy `canceled` spelling; SCV/A3S `cancelled` are mapped to it). */
export const runStateSchema = z.enum([
  'starting',
  'running',
  'waiting_approval',
  'finishing',
  'idle',
  'completed',
  'failed',
  'canceled',
  'interrupted',
  'lost',
  'stopped',
]);
export type RunState = z.infer<typeof runStateSchema>;

export const TERMINAL_RUN_STATES: readonly RunState[] = ['completed', 'failed', 'canceled', 'interrupted', 'lost'];
export function isTerminalRunState(state: RunState): boolean {
  return TERMINAL_RUN_STATES.includes(state);
}

/** `deny_always`: reject this and what is like it (ACP's `reject_always`); the other daemons have no such choice. */
export const approvalDecisionSchema = z.enum(['allow_once', 'allow_similar', 'deny', 'deny_always']);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/**
 * An approval's lifecycle (one owner: the model's reducer). `deciding` = a person chose and the decision is on the
 * wire; `failed` = it was not delivered (the request still waits, a person may try again); `expired` = the daemon
 * can no longer take a decision (the run ended, the session or daemon went away) and none was made.
 */
export const approvalStatusSchema = z.enum(['pending', 'deciding', 'decided', 'expired', 'failed']);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/** Where a decision was made, so every surface can say truthfully who decided. */
export const decisionSurfaceSchema = z.enum(['notification', 'editor', 'transcript', 'palette', 'board', 'daemon', 'rule']);
export type DecisionSurface = z.infer<typeof decisionSurfaceSchema>;
export const DECISION_SURFACE_LABELS: Record<DecisionSurface, string> = {
  notification: 'from the notification',
  editor: 'from the diff editor',
  transcript: 'from the transcript',
  palette: 'from the command palette',
  board: 'from the run board',
  daemon: 'by the daemon',
  rule: 'by an approval rule',
};
const DECISION_BUTTONS: Record<ApprovalDecision, string> = { allow_once: 'Allow once', allow_similar: 'Allow similar', deny: 'Deny', deny_always: 'Deny similar' };

/**
 * How long the agent keeps its own "similar" answers (ACP `allow_always` / `reject_always`), in words for the
 * button: what the agent says (e.g. "this session"), or that it does not say ("as long as the agent keeps it").
 */
export const alwaysLastsSchema = z.object({ allow_similar: z.optional(z.string()), deny_always: z.optional(z.string()) });
export type AlwaysLasts = z.infer<typeof alwaysLastsSchema>;

/**
 * A decision's button text on every surface (card, notification, palette). "Allow once" only reads right next to
 * "Allow similar"; daemons without it (SCV) just say "Allow". A "similar" answer whose lifetime the driver knows
 * says it (`lasts`).
 */
export function decisionLabel(decision: ApprovalDecision, options: readonly ApprovalDecision[], lasts?: AlwaysLasts): string {
  if (decision === 'allow_once') {
    return options.includes('allow_similar') ? DECISION_BUTTONS.allow_once : 'Allow';
  }
  const lifetime = decision === 'allow_similar' || decision === 'deny_always' ? lasts?.[decision] : undefined;
  return lifetime !== undefined ? `${DECISION_BUTTONS[decision]} (${lifetime})` : DECISION_BUTTONS[decision];
}
export const DECISION_OUTCOMES: Record<ApprovalDecision, string> = {
  allow_once: 'Allowed once',
  allow_similar: 'Allowed (and similar requests)',
  deny: 'Denied',
  deny_always: 'Denied (and similar requests)',
};

/** Whether a decision lets the request go ahead. */
export function isAllowing(decision: ApprovalDecision): boolean {
  return decision === 'allow_once' || decision === 'allow_similar';
}

/**
 * What an approval asks to do, as far as its protocol says: the tool and, where the request names them, the files
 * it touches and the shell command it runs. Approval rules match on it (model/approvalRules.ts). Untrusted.
 */
export const approvalSubjectSchema = z.object({
  tool: z.string(),
  paths: z.optional(z.array(z.string())),
  command: z.optional(z.string()),
  /**
   * `true` only when the subject holds the whole request: nothing was cut to a bound (a long command, more than 50
   * files, a long tool name) and every part could be read. Absent = not known to be whole (a cut or unreadable
   * request, or one recorded before this field existed): no rule matches it and none is offered for it.
   */
  complete: z.optional(z.boolean()),
});
export type ApprovalSubject = z.infer<typeof approvalSubjectSchema>;

/** Whether approval rules may be offered for and match a request with `subject` (it holds the whole request). */
export function subjectIsComplete(subject: ApprovalSubject | undefined): subject is ApprovalSubject & { readonly complete: true } {
  return subject?.complete === true;
}

/**
 * The decisions shown as a request's buttons. The daemon's own "similar" answers give way to the editor's rules when
 * those are offered (`withRules`; they stay under More…), and are not offered for a request whose subject is not
 * whole: nothing is "similar" to a request nobody saw all of. A daemon with no other way to allow keeps them.
 * `guarded`: the request names a protected path (protocol/protectedPaths.ts), which a person allows once at a time,
 * so the agent's own "always allow" is never offered for it (denying always stays).
 */
export function shownDecisions(options: readonly ApprovalDecision[], subject: ApprovalSubject | undefined, withRules: boolean, guarded = false): ApprovalDecision[] {
  const partial = subject !== undefined && !subjectIsComplete(subject);
  const direct = options.filter((o) => o !== 'allow_similar' && o !== 'deny_always');
  if (withRules) {
    return direct;
  }
  const shown = partial && direct.some(isAllowing) ? direct : [...options];
  return guarded ? shown.filter((o) => o !== 'allow_similar') : shown;
}

const base = { id: z.string() };

/** A prompt or message the user sent (the run's initial prompt, an injected or queued message). */
export const userItemSchema = z.object({ ...base, kind: z.literal('user'), text: z.string(), note: z.optional(z.string()) });
/** Assistant answer text (markdown), appended in chunks while `streaming`. */
export const textItemSchema = z.object({ ...base, kind: z.literal('text'), text: z.string(), streaming: z.boolean() });
/** Model reasoning, appended in chunks while `streaming`; rendered collapsed. */
export const reasoningItemSchema = z.object({ ...base, kind: z.literal('reasoning'), text: z.string(), streaming: z.boolean() });
/** `cancelled`: the run or turn was cancelled before the call's result arrived; `unknown`: it ended without one. */
export const toolStatusSchema = z.enum(['proposed', 'running', 'succeeded', 'failed', 'unknown', 'cancelled']);
/** A tool call with its input and (once known) its result. `output` grows by appends for streamed output. */
export const toolItemSchema = z.object({
  ...base,
  kind: z.literal('tool'),
  callId: z.nullable(z.string()),
  name: z.string(),
  input: z.unknown(),
  status: toolStatusSchema,
  output: z.string(),
  truncated: z.boolean(),
  /** The daemon's classification of a failure (SCV ToolErrorKind, A3S error_kind); never derived from output text. */
  errorKind: z.optional(z.string()),
  /** Latest display-only progress line (SCV tool.progress). */
  progress: z.optional(z.string()),
  /** The editor terminals that show the call's command (ACP terminal content): their ids, for "Show terminal". */
  terminals: z.optional(z.array(z.string())),
});
/** An approval request and, once a person answered it, the decision. */
export const approvalItemSchema = z.object({
  ...base,
  kind: z.literal('approval'),
  approvalId: z.string(),
  title: z.string(),
  detail: z.unknown(),
  summary: z.optional(z.string()),
  risk: z.optional(z.string()),
  /** Which decisions the daemon understands (SCV and A3S have no "allow similar"). Empty = display only. */
  options: z.array(approvalDecisionSchema),
  status: approvalStatusSchema,
  /** The decision chosen (`deciding`) or made (`decided`). */
  decision: z.optional(approvalDecisionSchema),
  decidedBy: z.optional(decisionSurfaceSchema),
  /** The approval rule that answered it (`decidedBy: 'rule'`), as its label says. */
  decidedByRule: z.optional(z.string()),
  /** Why the decision was not delivered (`failed`) or why the request expired. */
  reason: z.optional(z.string()),
  /** Whether the proposal edits files, so "Show diff" is offered. */
  hasDiff: z.boolean(),
  /** What it asks to do; when known, the card offers approval rules ("Allow similar for this run"…). */
  subject: z.optional(approvalSubjectSchema),
  /** The daemon's caveat about its own "allow similar" (AgencyProxy 0.3 treats it as once), shown by the rule buttons. */
  ruleNote: z.optional(z.string()),
  /** How long the agent keeps its own "similar" answers (ACP), shown on their buttons. */
  lasts: z.optional(alwaysLastsSchema),
  /**
   * Set when the request names a protected path (protocol/protectedPaths.ts), in words for the card: no rule and not
   * the agent's own "always" may answer it. Decided by the host, so the webview needs no path rules of its own.
   */
  protectedNotice: z.optional(z.string()),
});
/** Provider-specific data shown as a compact line (usage, rate limit, compaction). */
export const dataItemSchema = z.object({
  ...base,
  kind: z.enum(['usage', 'rateLimit', 'compaction']),
  data: z.unknown(),
  summary: z.string(),
  /** Longer text behind the line, shown folded (a compaction's summary of the context it replaced). Untrusted. */
  text: z.optional(z.string()),
});
export const errorItemSchema = z.object({ ...base, kind: z.literal('error'), message: z.string(), code: z.optional(z.string()) });
/** A state change or informational notice from the daemon or the editor (e.g. "reconnected", "older events dropped"). */
export const noticeItemSchema = z.object({
  ...base,
  kind: z.literal('notice'),
  text: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  state: z.optional(runStateSchema),
});
/** Events that were lost (sequence gap, retention gap, missed replay): sequences `from`..`to`, both inclusive. */
export const gapItemSchema = z.object({
  ...base,
  kind: z.literal('gap'),
  from: z.int(),
  to: z.int(),
  reason: z.string(),
});
/** A turn boundary (SCV turns, A3S turns). */
export const turnItemSchema = z.object({
  ...base,
  kind: z.literal('turn'),
  turnId: z.string(),
  phase: z.enum(['started', 'completed', 'cancelled', 'failed']),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
  summary: z.optional(z.string()),
});
/** An inbox message (hyperhive) or any message between principals. */
export const messageItemSchema = z.object({
  ...base,
  kind: z.literal('message'),
  from: z.string(),
  body: z.string(),
  at: z.optional(z.string()),
  messageId: z.optional(z.string()),
  inReplyTo: z.optional(z.string()),
});
/**
 * A file checkpoint of the run (issue #26), recorded by the window that writes the run. `turn`: the files at a turn
 * boundary (`turn` 0: as the run found them), with *Rewind files to here* when `rewindable`; `rewound`: the files
 * were rewound (`summary` says to where and what came of it) and `checkpointId` is the before-state *Redo* restores,
 * offered (`redo`) on the newest rewind until the next one or the next turn. Paths in `summary`/`unavailable` are
 * the repository's: untrusted text.
 */
export const checkpointItemSchema = z.object({
  ...base,
  kind: z.literal('checkpoint'),
  checkpointId: z.string(),
  mark: z.enum(['turn', 'rewound']),
  turn: z.optional(z.int()),
  /** Files that changed since the checkpoint before (turn marks; absent: not known). */
  files: z.optional(z.int()),
  rewindable: z.boolean(),
  summary: z.optional(z.string()),
  /** Roots of which no snapshot was taken, and why (or why the run has no rewind at all). */
  unavailable: z.optional(z.string()),
  redo: z.optional(z.boolean()),
});
/** Anything the driver could not map: shown as readable raw JSON, never dropped. */
export const rawItemSchema = z.object({ ...base, kind: z.literal('raw'), label: z.string(), data: z.unknown() });

export const transcriptItemSchema = z.discriminatedUnion('kind', [
  userItemSchema,
  textItemSchema,
  reasoningItemSchema,
  toolItemSchema,
  approvalItemSchema,
  dataItemSchema,
  errorItemSchema,
  noticeItemSchema,
  gapItemSchema,
  turnItemSchema,
  messageItemSchema,
  rawItemSchema,
  checkpointItemSchema,
]);
export type TranscriptItem = z.infer<typeof transcriptItemSchema>;
export type TranscriptItemKind = TranscriptItem['kind'];

/**
 * One change to a transcript. `add` appends an item at the end; `append` grows a text field of an existing item in
 * O(chunk); `update` merges fields into an existing item (same kind; `id` and `kind` never change, and a `null`
 * value removes the field). Patches are applied strictly in order.
 */
export const transcriptPatchSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), item: transcriptItemSchema }),
  z.object({ op: z.literal('append'), id: z.string(), field: z.enum(['text', 'output']), chunk: z.string() }),
  z.object({ op: z.literal('update'), id: z.string(), changes: z.record(z.string(), z.unknown()) }),
]);
export type TranscriptPatch = z.infer<typeof transcriptPatchSchema>;

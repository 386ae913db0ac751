/**
 * What a run checkpoint file holds (drivers/kit/runCheckpoints.ts), as zod: the header the kit writes and the run
 * and approvals of its body (model/runCheckpoint.ts is the truth; the compile-time checks below keep them equal).
 * The items of the body are checked for shape only (`isItemShaped`): validating 100k items whole would cost about
 * what the replay it saves costs, the file's digest already proves it is the one written, and every item is
 * validated again on its way to a view (TranscriptSurface.postValidated).
 */
import * as z from 'zod/mini';
import type { CheckpointApproval, CheckpointRun } from '../../model/runCheckpoint';
import { TRANSCRIPT_KINDS } from '../../protocol/kindCodes';
import { panelSchema } from '../../protocol/panels';
import { approvalDecisionSchema, approvalStatusSchema, approvalSubjectSchema, decisionSurfaceSchema, runStateSchema } from '../../protocol/transcriptTypes';
import type { TranscriptItem } from '../../protocol/transcriptTypes';

/**
 * The format of checkpoint files this code writes (another is ignored: the run is replayed whole). 2: the body in
 * lines (its head, then the items a thousand a line: kit/checkpointBody.ts), the digest last; 1 was one JSON body.
 */
export const CHECKPOINT_VERSION = 2;

const opt = z.optional;

export const checkpointHeaderSchema = z.object({
  v: z.literal(CHECKPOINT_VERSION),
  /** The journal bytes the checkpoint stands for (a line boundary: replay goes on from there). */
  bytes: z.int().check(z.positive()),
  /** The sha256 of the last 4 KiB of those bytes (RunJournal.tailDigest): the journal is still the one it saw. */
  tail: z.string(),
  /** Records in those bytes (for when the next checkpoint is due). */
  records: z.int().check(z.nonnegative()),
  /** The driver's books (ReplayHandlers.books), JSON; the driver validates them. */
  books: opt(z.unknown()),
});
export type CheckpointHeader = z.infer<typeof checkpointHeaderSchema>;

const checkpointRunSchema = z.object({
  title: z.string(),
  provider: opt(z.string()),
  model: opt(z.string()),
  state: runStateSchema,
  stateDetail: opt(z.string()),
  createdAt: z.number(),
  lastSequence: z.number(),
  pendingApprovals: z.array(z.string()),
  panels: opt(z.array(panelSchema)),
  slashCommands: opt(z.array(z.object({ name: z.string(), description: z.string(), hint: opt(z.string()) }))),
  openTextId: opt(z.string()),
  openReasoningId: opt(z.string()),
  openAnonymousToolId: opt(z.string()),
  openTools: z.array(z.tuple([z.string(), z.string()])),
  itemCount: z.int().check(z.nonnegative()),
  workspaceRoots: opt(z.array(z.string())),
  reportedEdits: opt(z.record(z.string(), z.number())),
});

const checkpointApprovalSchema = z.object({
  approvalId: z.string(),
  itemId: z.string(),
  title: z.string(),
  summary: opt(z.string()),
  risk: opt(z.string()),
  detail: z.unknown(),
  options: z.array(approvalDecisionSchema),
  requestedAt: z.number(),
  status: approvalStatusSchema,
  decision: opt(approvalDecisionSchema),
  decidedBy: opt(decisionSurfaceSchema),
  decidedByRule: opt(z.string()),
  subject: opt(approvalSubjectSchema),
  saveRuleAs: opt(approvalDecisionSchema),
  reason: opt(z.string()),
  live: z.boolean(),
});

/** The body's first line: all of it but its items (which follow, checked by `isItemShaped`). */
export const checkpointHeadSchema = z.object({
  run: checkpointRunSchema,
  approvals: z.array(checkpointApprovalSchema),
  seq: z.int().check(z.nonnegative()),
});

// Compile-time: what the schemas accept is what the model restores.
const runsFit: z.infer<typeof checkpointRunSchema> extends CheckpointRun ? true : never = true;
const approvalsFit: z.infer<typeof checkpointApprovalSchema> extends CheckpointApproval ? true : never = true;
void [runsFit, approvalsFit];

const KINDS: ReadonlySet<string> = new Set(TRANSCRIPT_KINDS);

/** An object with a string id and a known kind (see the file comment for why no more). */
export function isItemShaped(value: unknown): value is TranscriptItem {
  const item = value as { readonly id?: unknown; readonly kind?: unknown } | null;
  return typeof item === 'object' && item !== null && typeof item.id === 'string' && typeof item.kind === 'string' && KINDS.has(item.kind);
}

/**
 * Host <-> webview messages. The webview never sees raw daemon frames: the host folds them into the run model and
 * sends a snapshot, then small sequenced patches. Both directions are validated with these schemas on receipt.
 */
import { z } from 'zod';
import { approvalDecisionSchema, runStateSchema, transcriptItemSchema, transcriptPatchSchema } from './transcriptTypes';

export const protocolNameSchema = z.enum(['agency-proxy', 'scv', 'a3s', 'hive']);

/** What the composer and toolbar may offer for a run; derived by the host from the daemon's capabilities. */
export const runActionsSchema = z.object({
  /** Send a message into the running run (AgencyProxy inject, SCV turn/queue, hive operator message). */
  send: z.boolean(),
  /** The send goes into a server-side queue while a turn runs (SCV). */
  queues: z.boolean(),
  stop: z.boolean(),
  /** Show the change set (daemon-provided or computed locally). */
  changeSet: z.boolean(),
});

/** One entry of a server-side prompt queue (SCV). */
export const queueEntryViewSchema = z.object({
  queueId: z.string(),
  revision: z.number().int(),
  prompt: z.string(),
  submitter: z.string().optional(),
});

/** An action on a panel entry (e.g. "Mark done" on a todo); `confirm` asks the user first. */
export const panelActionSchema = z.object({ id: z.string(), label: z.string(), confirm: z.boolean().optional() });

/**
 * A side panel of the transcript view: a titled list of entries that the daemon, not the transcript, owns (hyperhive
 * loose ends and reminders, SCV background jobs, a change set's files…). Replaced whole when it changes.
 */
export const panelSchema = z.object({
  id: z.string(),
  title: z.string(),
  emptyText: z.string().optional(),
  entries: z.array(
    z.object({
      id: z.string(),
      /** Codicon name, e.g. `question`, `checklist`. */
      icon: z.string().optional(),
      label: z.string(),
      description: z.string().optional(),
      /** Shown collapsed as readable JSON (for shapes the extension does not know). */
      raw: z.unknown().optional(),
      actions: z.array(panelActionSchema),
    }),
  ),
});
export type Panel = z.infer<typeof panelSchema>;

/** The header of the transcript view: the run's identity, state and what can be done with it. */
export const runSummarySchema = z.object({
  key: z.string(),
  protocol: protocolNameSchema,
  connectionName: z.string(),
  runId: z.string(),
  title: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  state: runStateSchema,
  stateDetail: z.string().optional(),
  pendingApprovals: z.number().int(),
  actions: runActionsSchema,
  queue: z.array(queueEntryViewSchema).optional(),
  queuePaused: z.boolean().optional(),
  panels: z.array(panelSchema).optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** Messages the host posts to the webview. */
export const hostToWebviewSchema = z.discriminatedUnion('type', [
  /** Sent after `ready` and whenever the shown run changes or the webview asked to resync: the whole transcript. */
  z.object({
    type: z.literal('snapshot'),
    run: runSummarySchema.nullable(),
    items: z.array(transcriptItemSchema),
    /** Sequence number of the last patch already folded into `items`; the next patch has `seq + 1`. */
    seq: z.number().int(),
  }),
  /** Patches for the shown run, coalesced by the host; `firstSeq` is the sequence of `patches[0]`. */
  z.object({
    type: z.literal('patches'),
    runKey: z.string(),
    firstSeq: z.number().int(),
    patches: z.array(transcriptPatchSchema),
  }),
  /** The shown run's header changed (state, queue, pending approvals, actions). */
  z.object({ type: z.literal('run'), run: runSummarySchema }),
  /** Keyboard: move focus into the composer. */
  z.object({ type: z.literal('focusComposer') }),
  /** The host reports the outcome of a webview request (e.g. a send that was refused). */
  z.object({ type: z.literal('toast'), level: z.enum(['info', 'warning', 'error']), text: z.string() }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Messages the webview posts to the host. */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** Posted once when the script has loaded; the host answers with a snapshot. */
  z.object({ type: z.literal('ready') }),
  /** The webview saw a patch gap or a patch for an unknown item: it asks for a fresh snapshot. */
  z.object({ type: z.literal('resync'), runKey: z.string().nullable() }),
  z.object({ type: z.literal('send'), runKey: z.string(), text: z.string() }),
  z.object({ type: z.literal('stop'), runKey: z.string() }),
  z.object({
    type: z.literal('decide'),
    runKey: z.string(),
    approvalId: z.string(),
    decision: approvalDecisionSchema,
  }),
  z.object({ type: z.literal('showDiff'), runKey: z.string(), approvalId: z.string() }),
  z.object({ type: z.literal('showChangeSet'), runKey: z.string() }),
  /** A link in agent output was clicked; the host asks for confirmation before opening it. */
  z.object({ type: z.literal('openLink'), href: z.string() }),
  z.object({ type: z.literal('copy'), text: z.string() }),
  z.object({ type: z.literal('queueEdit'), runKey: z.string(), queueId: z.string(), revision: z.number().int(), prompt: z.string() }),
  z.object({
    type: z.literal('queueMove'),
    runKey: z.string(),
    queueId: z.string(),
    revision: z.number().int(),
    beforeQueueId: z.string().nullable(),
  }),
  z.object({ type: z.literal('queueRemove'), runKey: z.string(), queueId: z.string(), revision: z.number().int() }),
  z.object({ type: z.literal('queuePause'), runKey: z.string(), paused: z.boolean() }),
  /** A panel entry's action button was pressed. */
  z.object({ type: z.literal('panelAction'), runKey: z.string(), panelId: z.string(), entryId: z.string(), actionId: z.string() }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/**
 * Host <-> webview messages. The webview never sees raw daemon frames: the host folds them into the run model and
 * sends a snapshot, then small sequenced patches. Both directions are validated with these schemas on receipt.
 */
// zod/mini: the same schemas at a fraction of the webview bundle size (full zod adds ~115 KB there).
import * as z from 'zod/mini';
import { changeSetMessageSchema, changeSetReviewSchema } from './changeSetMessages';
import { panelSchema } from './panels';
import { PROTOCOL_NAMES } from './protocolNames';
import { reviewNoteRequestSchemas, reviewNotesMessageSchema } from './reviewNotes';
import { approvalDecisionSchema, runStateSchema, transcriptItemSchema, transcriptPatchSchema } from './transcriptTypes';

// Re-exported so the webview keeps one import for its whole contract (it may not import ./panels directly).
export { panelActionSchema, panelSchema } from './panels';
export { TRANSCRIPT_WINDOW } from './transcriptWindowSizes';
export type { Panel } from './panels';
export { MAX_NOTE_CHARS } from './reviewNotes';
export type { ReviewNote, ReviewNoteAnchor } from './reviewNotes';
export { changeSetFileViewSchema, changeSetHunkViewSchema, changeSetMessageSchema, changeSetReviewSchema } from './changeSetMessages';
export type { ChangeSetFileView, ChangeSetHunkView, ChangeSetMessage, ChangeSetReview } from './changeSetMessages';

export const protocolNameSchema = z.enum(PROTOCOL_NAMES);


/** What the composer and toolbar may offer for a run; derived by the host from the daemon's capabilities. */
export const runActionsSchema = z.object({
  /** Send a message into the running run (AgencyProxy inject, SCV turn/queue, hive operator message). */
  send: z.boolean(),
  /** The send goes into a server-side queue while a turn runs (SCV). */
  queues: z.boolean(),
  stop: z.boolean(),
  /** End a run that waits for the user's next message (an interactive AgencyProxy run); shown instead of Stop. */
  end: z.boolean(),
  /** Show the change set (daemon-provided or computed locally). */
  changeSet: z.boolean(),
});

/** A daemon's own action that applies to the run now (declared in the driver kit), shown as a header button. */
export const daemonActionButtonSchema = z.object({
  /** The command id; what `daemonAction` sends back (the host checks it still applies). */
  command: z.string(),
  title: z.string(),
  /** A codicon id. */
  icon: z.optional(z.string()),
});
export type DaemonActionButton = z.infer<typeof daemonActionButtonSchema>;

/** One entry of a server-side prompt queue (SCV). */
export const queueEntryViewSchema = z.object({
  queueId: z.string(),
  revision: z.int(),
  prompt: z.string(),
  submitter: z.optional(z.string()),
});

/** A slash command the agent offers (ACP `available_commands_update`); the composer suggests it after a `/`. */
export const slashCommandViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** What to type after the name, if the command takes input. */
  hint: z.optional(z.string()),
});
export type SlashCommandView = z.infer<typeof slashCommandViewSchema>;

/** The header of the transcript view: the run's identity, state and what can be done with it. */
export const runSummarySchema = z.object({
  key: z.string(),
  protocol: protocolNameSchema,
  connectionName: z.string(),
  runId: z.string(),
  title: z.string(),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  state: runStateSchema,
  stateDetail: z.optional(z.string()),
  /** Why its change set was refused (protocol/runStateDisplay.ts `RunLook`): the header shows the run as failed. */
  changeSetRefused: z.optional(z.string()),
  /** It takes no message from the user (a subagent): idle, it is not waiting for you. */
  takesNoMessages: z.optional(z.boolean()),
  pendingApprovals: z.int(),
  actions: runActionsSchema,
  daemonActions: z.optional(z.array(daemonActionButtonSchema)),
  queue: z.optional(z.array(queueEntryViewSchema)),
  queuePaused: z.optional(z.boolean()),
  panels: z.optional(z.array(panelSchema)),
  /** The agent's slash commands, for the composer; absent when it offers none. */
  slashCommands: z.optional(z.array(slashCommandViewSchema)),
  /**
   * Context use and cost as the agent last reported them (ACP `usage_update`), in the host's words (protocol/
   * runUsage.ts, as on the board): `short` for the header, `long` for its tooltip and screen readers.
   */
  usage: z.optional(z.object({ short: z.string(), long: z.string() })),
  /** The title of the run this one is a subagent of. */
  parentTitle: z.optional(z.string()),
  /** Why *Continue from here* cannot be used on its checkpoint markers now (absent: it can). */
  noContinue: z.optional(z.string()),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** Messages the host posts to the webview. */
export const hostToWebviewSchema = z.discriminatedUnion('type', [
  /** Sent after `ready` and whenever the shown run changes or the webview asked to resync: the whole transcript. */
  z.object({
    type: z.literal('snapshot'),
    run: z.nullable(runSummarySchema),
    /**
     * A window of the transcript: its last items (what fills a few screens), starting at index `start`. The webview
     * asks for other ranges (`range`) as the user scrolls, so opening a run costs the same at any length.
     */
    items: z.array(transcriptItemSchema),
    /** Index of `items[0]` in the whole transcript (absent: 0). */
    start: z.optional(z.int()),
    /** Number of items in the whole transcript (absent: `start + items.length`). */
    total: z.optional(z.int()),
    /** The kind of every item of the transcript, one code character each (kindCodes.ts `kindCode`), for height estimates. */
    kinds: z.optional(z.string()),
    /** Sequence number of the last patch already folded into `items`; the next patch has `seq + 1`. */
    seq: z.int(),
    /** The composer draft of the shown run, kept by the host for every view of the run (DraftStore). */
    draft: z.optional(z.string()),
    /**
     * Set for an editor tab: the one run it shows (even before that run is known). The webview keeps it in its
     * `setState` so the tab's serializer can restore the tab after a reload.
     */
    tabRunKey: z.optional(z.string()),
  }),
  /** Patches for the shown run, coalesced by the host; `firstSeq` is the sequence of `patches[0]`. */
  z.object({
    type: z.literal('patches'),
    runKey: z.string(),
    firstSeq: z.int(),
    patches: z.array(transcriptPatchSchema),
  }),
  /** The shown run's header changed (state, queue, pending approvals, actions). */
  z.object({ type: z.literal('run'), run: runSummarySchema }),
  /** Keyboard: move focus into the composer. */
  /** Focus the composer; `insert` is text to put at the caret first (e.g. an `@file:10-20` mention of the selection). */
  z.object({ type: z.literal('focusComposer'), insert: z.optional(z.string()) }),
  /** Another view of the shown run changed its draft (typed, or sent): the composer takes it unless it has focus. */
  z.object({ type: z.literal('draft'), runKey: z.string(), text: z.string() }),
  /**
   * Scroll to (and flash) the item at `index` (its id is `id`) of the shown run: *Next Approval* on the run board, the
   * header's pending-approval button, an "in reply to" link, a find hit chosen on the host.
   */
  z.object({ type: z.literal('revealItem'), runKey: z.string(), index: z.int(), id: z.string() }),
  /** The answer to `range`: the items `[start, start + items.length)` as of patch `seq` (every earlier patch was posted before it). */
  z.object({ type: z.literal('items'), runKey: z.string(), start: z.int(), items: z.array(transcriptItemSchema), seq: z.int() }),
  /** The answer to `find`: the indices of the matching items, in order (at most `FIND_MAX_HITS`). */
  z.object({
    type: z.literal('findResult'),
    runKey: z.string(),
    query: z.string(),
    matchCase: z.boolean(),
    hits: z.array(z.int()),
    /** More items matched than `hits` holds. */
    truncated: z.boolean(),
  }),
  /** *Find in Transcript* (Ctrl/Cmd+F): open the find bar and focus it. */
  z.object({ type: z.literal('openFind') }),
  /** The host reports the outcome of a webview request (e.g. a send that was refused). */
  z.object({ type: z.literal('toast'), level: z.enum(['info', 'warning', 'error']), text: z.string() }),
  changeSetMessageSchema,
  reviewNotesMessageSchema,
  /** The review marks of a run's change set changed (in this view, another, or the native diff): update them in place. */
  z.object({ type: z.literal('reviewMarks'), runKey: z.string(), review: changeSetReviewSchema }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Messages the webview posts to the host. */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** Posted once when the script has loaded; the host answers with a snapshot. */
  z.object({ type: z.literal('ready') }),
  /** The webview saw a patch gap or a patch for an unknown item: it asks for a fresh snapshot. */
  z.object({ type: z.literal('resync'), runKey: z.nullable(z.string()) }),
  z.object({ type: z.literal('send'), runKey: z.string(), text: z.string() }),
  /** The composer text of a run changed (debounced by the webview); the host keeps it as the run's draft. */
  z.object({ type: z.literal('draft'), runKey: z.string(), text: z.string() }),
  z.object({ type: z.literal('stop'), runKey: z.string() }),
  /** "End Run" next to Send: ends a run that waits for the user's next message. */
  z.object({ type: z.literal('endRun'), runKey: z.string() }),
  z.object({
    type: z.literal('decide'),
    runKey: z.string(),
    approvalId: z.string(),
    decision: approvalDecisionSchema,
  }),
  z.object({ type: z.literal('showDiff'), runKey: z.string(), approvalId: z.string() }),
  /** An approval-rule button of the card: save a rule of `effect` for `scope` from this request (`more`: choose). */
  z.object({
    type: z.literal('decideRule'),
    runKey: z.string(),
    approvalId: z.string(),
    effect: z.enum(['allow', 'deny']),
    scope: z.enum(['run', 'connection', 'workspace', 'more']),
  }),
  z.object({ type: z.literal('showChangeSet'), runKey: z.string() }),
  z.object({ type: z.literal('daemonAction'), runKey: z.string(), command: z.string() }),
  /** "Open in diff editor" on a file of the shown change set: the native before/after diff of that file. */
  z.object({ type: z.literal('openChangeSetFile'), runKey: z.string(), fileIndex: z.int() }),
  /**
   * A *Reviewed* toggle of the shown change set: the units of file `fileIndex` with these review keys (one hunk, or
   * every unit of the file) are marked reviewed or not. A key the change set no longer has is refused (the view is
   * sent the change set as it is now).
   */
  z.object({ type: z.literal('setReviewed'), runKey: z.string(), fileIndex: z.int(), keys: z.array(z.string()), reviewed: z.boolean() }),
  /**
   * *Undo* of an edit already on disk: hunk `hunkIndex` of file `fileIndex` (whose key is `keys[0]`), or the whole
   * file (absent `hunkIndex`; `keys` all of its units), written back as one undoable edit.
   */
  z.object({ type: z.literal('undoChange'), runKey: z.string(), fileIndex: z.int(), hunkIndex: z.optional(z.int()), keys: z.array(z.string()) }),
  /** "Open all changes" in the shown change set: the native multi-file diff editor. */
  z.object({ type: z.literal('openAllChanges'), runKey: z.string() }),
  /** A link in agent output was clicked; the host asks for confirmation before opening it. */
  z.object({ type: z.literal('openLink'), href: z.string() }),
  z.object({ type: z.literal('copy'), text: z.string() }),
  z.object({ type: z.literal('queueEdit'), runKey: z.string(), queueId: z.string(), revision: z.int(), prompt: z.string() }),
  z.object({
    type: z.literal('queueMove'),
    runKey: z.string(),
    queueId: z.string(),
    revision: z.int(),
    beforeQueueId: z.nullable(z.string()),
  }),
  z.object({ type: z.literal('queueRemove'), runKey: z.string(), queueId: z.string(), revision: z.int() }),
  z.object({ type: z.literal('queuePause'), runKey: z.string(), paused: z.boolean() }),
  /** The view needs the items `[start, end)` of the shown run (it scrolled to where none are loaded); at most RANGE_MAX. */
  z.object({ type: z.literal('range'), runKey: z.string(), start: z.int(), end: z.int() }),
  /** Find in the whole transcript (on the host, which has all of it); answered with `findResult`. */
  z.object({ type: z.literal('find'), runKey: z.string(), query: z.string(), matchCase: z.boolean() }),
  /** Show an item the view may not have loaded: answered with `revealItem`, or a toast when there is none. */
  z.object({
    type: z.literal('locate'),
    runKey: z.string(),
    target: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('pendingApproval') }),
      z.object({ kind: z.literal('message'), messageId: z.string() }),
    ]),
  }),
  /** "Show terminal" on a tool row: reveal the editor terminal that shows the command the agent ran (its id). */
  z.object({ type: z.literal('revealTerminal'), runKey: z.string(), terminalId: z.string() }),
  /** A panel entry's action button was pressed. */
  /** *Rewind files to here* on a checkpoint marker: the host previews, asks, then rewinds (issue #26). */
  z.object({ type: z.literal('rewindFiles'), runKey: z.string(), checkpointId: z.string() }),
  /** *Redo* on the newest rewind's marker: the files as they were before it. */
  z.object({ type: z.literal('redoRewind'), runKey: z.string(), checkpointId: z.string() }),
  /** *Continue from here* on a turn's marker: the host shows the new run's first message, rewinds, then starts it. */
  z.object({ type: z.literal('continueFromCheckpoint'), runKey: z.string(), checkpointId: z.string() }),
  z.object({ type: z.literal('panelAction'), runKey: z.string(), panelId: z.string(), entryId: z.string(), actionId: z.string() }),
  ...reviewNoteRequestSchemas,
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

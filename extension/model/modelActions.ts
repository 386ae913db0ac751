/**
 * The input vocabulary of the model. Drivers translate their wire events into `RunEvent`s and dispatch
 * `ModelAction`s; the reducer is the only code that turns them into state and transcript patches.
 */
import type { AlwaysLasts, ApprovalDecision, ApprovalSubject, DecisionSurface, RunState } from '../protocol/transcriptTypes';
import type { Capability, ChangeSetInfo, ConnectionInfo, ConnectionState, Panel, QueueEntry, RunDigest, RunUsage, SlashCommand } from './modelTypes';
import type { RunCheckpointModel } from './runCheckpoint';
import type { Transcript } from './transcript';

/** A normalized run event. Fields are the daemon's data, untrusted. */
export type RunEvent =
  | { readonly kind: 'userPrompt'; readonly text: string; readonly note?: string }
  | { readonly kind: 'textDelta'; readonly text: string }
  /** Canonical text of the current step (SCV assistant.completed): replaces the streamed deltas. */
  | { readonly kind: 'textCompleted'; readonly text: string }
  | { readonly kind: 'reasoningDelta'; readonly text: string }
  /** The current assistant message ended: close open text/reasoning items. */
  | { readonly kind: 'messageBoundary' }
  | { readonly kind: 'toolCall'; readonly callId: string | null; readonly name: string; readonly input: unknown; readonly status?: 'proposed' | 'running' }
  | { readonly kind: 'toolInputDelta'; readonly callId: string; readonly delta: string }
  | { readonly kind: 'toolStarted'; readonly callId: string; readonly name?: string }
  | { readonly kind: 'toolProgress'; readonly callId: string; readonly text: string }
  | { readonly kind: 'toolOutputDelta'; readonly callId: string; readonly delta: string }
  /** The call's output is shown in the editor's terminals with these ids (ACP terminal content): all of them so far. */
  | { readonly kind: 'toolTerminals'; readonly callId: string; readonly terminalIds: readonly string[] }
  | {
      readonly kind: 'toolResult';
      readonly callId: string | null;
      readonly ok: boolean | null;
      readonly output: string;
      readonly truncated?: boolean;
      readonly errorKind?: string;
      readonly name?: string;
    }
  | {
      readonly kind: 'approvalRequested';
      readonly approvalId: string;
      readonly title: string;
      readonly detail: unknown;
      readonly summary?: string;
      readonly risk?: string;
      readonly options: readonly ApprovalDecision[];
      /** The tool and what it touches, as the protocol exposes them (approval rules match on it). */
      readonly subject?: ApprovalSubject;
      /** The daemon's caveat about its own "allow similar", shown next to the rule buttons. */
      readonly ruleNote?: string;
      /** How long the agent keeps its own "similar" answers (ACP), shown on their buttons. */
      readonly lasts?: AlwaysLasts;
      /** The decision sent when a person saves an allow rule from this request (default: allow once). */
      readonly saveRuleAs?: ApprovalDecision;
    }
  /**
   * The daemon took a decision (`decision`, made `by` a surface, with the label of the approval `rule` that chose it
   * when one did; drivers journal this: it is the one record of a decision), or can no longer accept one (`expired`,
   * with a `reason`). Never overrides a decision in flight or made (approvalLifecycle.ts).
   */
  | {
      readonly kind: 'approvalSettled';
      readonly approvalId: string;
      readonly decision?: ApprovalDecision;
      readonly by?: DecisionSurface;
      readonly rule?: string;
      readonly expired?: boolean;
      readonly reason?: string;
    }
  /**
   * The run's context use and cost (ACP `usage_update`): replaces the run's `usage`, no transcript row. A report
   * without a cost keeps the last cost (agents send it on the last report of a turn only).
   */
  | { readonly kind: 'usage'; readonly used: number; readonly size: number; readonly cost?: { readonly amount: number; readonly currency: string } }
  /**
   * The agent reported editing these files (ACP: a tool call's diff paths, or the locations of an edit / delete / move
   * call), at `at` (ms, the driver's clock: journaled with the event, so a replay gives the same times). No row: the
   * tool call is the row; this goes on the run's `reportedEdits` (model/reportedEdits.ts).
   */
  | { readonly kind: 'filesEdited'; readonly paths: readonly string[]; readonly at: number }
  /**
   * A context compaction by id (ACP `compaction_update` / `compaction_summary_chunk`): the first report of an id adds
   * its row, later ones change it. `summary` replaces the row's summary text, `summaryDelta` appends to it.
   */
  | {
      readonly kind: 'compaction';
      readonly compactionId: string;
      readonly status?: string;
      readonly summary?: string;
      readonly summaryDelta?: string;
      readonly error?: string;
    }
  | { readonly kind: 'data'; readonly dataKind: 'usage' | 'rateLimit' | 'compaction'; readonly data: unknown; readonly summary: string }
  | { readonly kind: 'error'; readonly message: string; readonly code?: string }
  | { readonly kind: 'notice'; readonly text: string; readonly level: 'info' | 'warning' | 'error' }
  | { readonly kind: 'stateChanged'; readonly state: RunState; readonly detail?: string; readonly announce?: boolean }
  | {
      readonly kind: 'turn';
      readonly turnId: string;
      readonly phase: 'started' | 'completed' | 'cancelled' | 'failed';
      readonly code?: string;
      readonly message?: string;
      readonly summary?: string;
    }
  | {
      /** A message between principals; one with a `messageId` already shown replaces that row (an upsert). */
      readonly kind: 'message';
      readonly from: string;
      readonly body: string;
      readonly at?: string;
      readonly messageId?: string;
      readonly inReplyTo?: string;
    }
  | { readonly kind: 'raw'; readonly label: string; readonly data: unknown }
  /**
   * A file checkpoint was recorded (issue #26, drivers/kit/turnCheckpoints.ts): its marker row. A `rewound` mark
   * takes *Redo* from the rewind before it, and any new mark ends the last rewind's *Redo*.
   */
  | {
      readonly kind: 'fileCheckpoint';
      readonly checkpointId: string;
      readonly mark: 'turn' | 'rewound';
      readonly turn?: number;
      readonly files?: number;
      readonly rewindable: boolean;
      readonly summary?: string;
      readonly unavailable?: string;
    };

export interface RunFields {
  readonly title?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly state?: RunState;
  readonly stateDetail?: string;
  readonly createdAt?: number;
  readonly workspaceRoots?: readonly string[];
  /** The agent's slash commands as it last advertised them (the whole list; `[]` when it withdrew them all). */
  readonly slashCommands?: readonly SlashCommand[];
  /** This run is a subagent of that run (same connection); see `RunInfo.parentRunId`. */
  readonly parentRunId?: string;
}

export type ModelAction =
  /** A profile appeared (or its name/protocol changed). */
  | { readonly type: 'connectionAdded'; readonly connection: Omit<ConnectionInfo, 'state' | 'capabilities'> }
  | { readonly type: 'connectionRemoved'; readonly connectionId: string }
  | { readonly type: 'connectionState'; readonly connectionId: string; readonly state: ConnectionState }
  | {
      readonly type: 'connectionInfo';
      readonly connectionId: string;
      readonly capabilities?: readonly Capability[];
      readonly serverDescription?: string;
      readonly details?: Readonly<Record<string, unknown>>;
      readonly warning?: string;
    }
  /** Create the run if unknown, else merge the fields (never moves `lastSequence`). */
  | { readonly type: 'runUpserted'; readonly connectionId: string; readonly runId: string; readonly fields: RunFields }
  | { readonly type: 'runRemoved'; readonly runKey: string }
  /**
   * A run put back whole from a checkpoint (runCheckpoint.ts) — fields, approvals, transcript — replacing what was.
   * `transcript`: its items already in a Transcript (the kit builds it in slices as it reads them, so that installing
   * 100k items does not hold the host); without it the store builds one from `checkpoint.items`. `unloaded`: only
   * the run comes back, without its transcript or approvals, shown from this digest (a live run nobody looks at,
   * drivers/kit/quietRuns.ts); opening it restores it whole.
   */
  | { readonly type: 'runRestored'; readonly connectionId: string; readonly runId: string; readonly checkpoint: RunCheckpointModel; readonly transcript?: Transcript; readonly unloaded?: RunDigest }
  /**
   * One daemon event for a run. With `sequence`, events at or below the run's `lastSequence` are dropped (replay
   * overlap), and a jump by more than one records a gap item first.
   */
  | {
      readonly type: 'runEvent';
      readonly runKey: string;
      readonly sequence?: number;
      /**
       * With `sequence`: the first of the daemon events `firstSequence`..`sequence` this one event stands for (a
       * driver folds a read's consecutive streamed chunks into one; they must be consecutive and all above the
       * run's `lastSequence`). The gap check starts from it; absent, the event stands for `sequence` alone.
       */
      readonly firstSequence?: number;
      readonly event: RunEvent;
      /** Replayed from the editor's own storage (a reload), not received from the daemon in this window. */
      readonly restored?: boolean;
    }
  /** Events in (from, to] are known to be lost (retention gap, acked-away replay, SCV seq gap). */
  | { readonly type: 'runGap'; readonly runKey: string; readonly from: number; readonly to: number; readonly reason: string }
  | { readonly type: 'runQueue'; readonly runKey: string; readonly queue: readonly QueueEntry[]; readonly paused?: boolean }
  /** Replaces the run's side panels (or one of them, by id, when `merge` is true). */
  | { readonly type: 'runPanels'; readonly runKey: string; readonly panels: readonly Panel[]; readonly merge?: boolean }
  /** A step of an approval's lifecycle taken by the editor (approvalLifecycle.ts says which steps are allowed). */
  | { readonly type: 'approvalChange'; readonly runKey: string; readonly approvalId: string; readonly change: ApprovalChange }
  | { readonly type: 'changeSet'; readonly changeSet: ChangeSetInfo }
  /**
   * Stored runs shown from their index summaries, their transcripts not loaded (runHistory.ts): each created with
   * its fields and counts, `unloaded` set; one that is in the model already is left as it is. One action for all the
   * runs a connect brings back: one reducer pass and one change notification, however many runs (issue #25 §2).
   * `olderRuns`: how many of the connection's finished runs are stored but not in the model now (kit/olderRuns.ts).
   */
  | { readonly type: 'runsSummarized'; readonly connectionId: string; readonly runs: readonly SummarizedRun[]; readonly olderRuns?: number }
  /**
   * The run's transcript is about to be replayed: it starts empty again (counts, streaming books), fields kept. Only
   * a run shown from its summary, unless `again`: a loaded run read back from its journal (a window that took the
   * journal over and holds more than the file: kit/runWriters.ts), its approvals dropped too (the replay restores them).
   */
  | { readonly type: 'runLoading'; readonly runKey: string; readonly again?: boolean }
  /** The run's transcript leaves memory (no view shows it, the run is finished): only `digest` stays. */
  | { readonly type: 'runReleased'; readonly runKey: string; readonly digest: RunDigest };

/** One stored run as `runsSummarized` brings it back. */
export interface SummarizedRun {
  readonly runId: string;
  readonly fields: RunFields;
  readonly summary: RunSummaryCounts;
}

/** A summarized run's counts and what the board shows of it. */
export interface RunSummaryCounts {
  readonly itemCount: number;
  readonly lastSequence: number;
  readonly usage?: RunUsage;
  readonly digest: RunDigest;
}

/** What the editor itself does to an approval (the daemon's side arrives as `approvalSettled` run events). */
export type ApprovalChange =
  /** A person chose `decision` on surface `by`; it is about to be sent. */
  | { readonly kind: 'deciding'; readonly decision: ApprovalDecision; readonly by: DecisionSurface; readonly rule?: string }
  /** The daemon accepted the decision. */
  | { readonly kind: 'decided'; readonly decision: ApprovalDecision; readonly by: DecisionSurface; readonly rule?: string }
  /** The decision was not delivered; the request still waits. */
  | { readonly kind: 'failed'; readonly reason: string }
  /** The daemon can no longer take a decision. */
  | { readonly kind: 'expired'; readonly reason: string }
  /** The driver confirmed the daemon still waits for it (a restored request after a reload). */
  | { readonly kind: 'live' };

export type ModelActionType = ModelAction['type'];

/**
 * The common run model for all four daemons: connections → runs (AgencyProxy runs, SCV sessions, A3S runs,
 * hyperhive agents) → transcript items, plus pending approvals, change sets and capabilities. Run-level state is
 * small and immutable (the reducer returns new objects); transcripts live in `Transcript` and change by patches.
 */
import type { AlwaysLasts, ApprovalDecision, ApprovalStatus, ApprovalSubject, DecisionSurface, RunState } from '../protocol/transcriptTypes';
import type { ProtocolName } from '../protocol/protocolNames';
import type { Panel } from '../protocol/panels';
import type { RunUsage } from '../protocol/runUsage';
import type { ApprovalKey, RunKey } from './runKeys';
import { PersistentMap } from './persistentMap';

export type { Panel, RunUsage };

export type { ProtocolName };

/** Connection lifecycle, shown in the Connections tree. */
export type ConnectionState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'connected'; readonly since: number }
  | { readonly kind: 'reconnecting'; readonly attempt: number; readonly retryAt: number; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'disconnected' };

/**
 * What a connection lets the user do. Drivers derive these from the daemon's own capability list / protocol
 * version, and the UI offers only what is present.
 */
export type Capability =
  | 'run.start'
  | 'run.inject'
  | 'run.queue'
  | 'run.cancel'
  /** End a run that waits for the user's next message (an interactive AgencyProxy run): it never ends by itself. */
  | 'run.end'
  /** A new run can be a conversation that waits for follow-ups, or one-shot (New Run asks which). */
  | 'run.interactive'
  /** A new run works in the folder New Run gives it (ACP `cwd`, AgencyProxy `workspaceRoots`): it may be a worktree of its own. */
  | 'run.workingDirectory'
  /** The daemon pushes no run list changes: the editor re-reads it while the view is visible. */
  | 'runs.refresh'
  /** Runs are sessions that repeat under one name (SCV): the tree groups them, the live one first. */
  | 'runs.sessions'
  | 'run.clear'
  | 'approvals'
  | 'approvals.allowSimilar'
  | 'changeSets.remote'
  | 'changeSets.local'
  | 'daemon.shutdown'
  | 'daemon.status'
  | 'providers'
  | 'accountUsage'
  | 'hive.manager'
  | 'hive.operatorMessage';

export interface ConnectionInfo {
  readonly id: string;
  readonly name: string;
  readonly protocol: ProtocolName;
  readonly state: ConnectionState;
  readonly capabilities: readonly Capability[];
  /** e.g. "agency-proxy 0.3", "scv-server 0.3.14". */
  readonly serverDescription?: string;
  /** Daemon-specific status details for the tree (SCV daemon.status, hive unread counts…), raw but JSON-safe. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** A warning about the endpoint (e.g. a socket directory writable by others). */
  readonly warning?: string;
  /**
   * Finished runs of this connection that are stored but not in the model (older than the page a connect loads:
   * drivers/kit/olderRuns.ts): what the board's and the tree's "N older runs…" rows count.
   */
  readonly olderRuns?: number;
}

/**
 * A command the agent offers for its composer (ACP `available_commands_update`), typed as `/<name>` and, when it
 * takes input, the text after it. The agent's data: shown as text, never as markup.
 */
export interface SlashCommand {
  readonly name: string;
  readonly description: string;
  /** What to type after the name, shown while nothing is typed yet (ACP `input.hint`). */
  readonly hint?: string;
}

export interface QueueEntry {
  readonly queueId: string;
  readonly revision: number;
  readonly prompt: string;
  readonly submitter?: string;
}

export interface RunInfo {
  readonly key: RunKey;
  readonly connectionId: string;
  readonly runId: string;
  readonly title: string;
  readonly provider?: string;
  readonly model?: string;
  readonly state: RunState;
  /** Free text for the tree/tooltip, e.g. the daemon's raw state or why the run was lost. */
  readonly stateDetail?: string;
  readonly createdAt: number;
  /** Highest daemon sequence folded into the transcript (AgencyProxy 1-based, SCV seq, A3S 0-based + 1). */
  readonly lastSequence: number;
  /** Approval ids waiting for a person, oldest first. */
  readonly pendingApprovals: readonly string[];
  readonly queue?: readonly QueueEntry[];
  readonly queuePaused?: boolean;
  /** Daemon-owned side panels shown beside the transcript (loose ends, jobs…), replaced whole. */
  readonly panels?: readonly Panel[];
  /** The commands the agent offers in the composer, replaced whole by each update (absent: it offers none). */
  readonly slashCommands?: readonly SlashCommand[];
  /** Context use and the session's cost, as the agent last reported them (replaced in place, never a row). */
  readonly usage?: RunUsage;
  /**
   * The run (on the same connection) that started this one as its subagent (ACP `subagent_update`): shown under it
   * on the board and in the tree. A child takes no messages from the user unless its agent allows it.
   */
  readonly parentRunId?: string;
  /**
   * Files the agent said it edited (the path as it named it → when it last said so, ms), bounded: what the board
   * counts since the user looked, and what attributes a shared tree's changes (model/reportedEdits.ts).
   */
  readonly reportedEdits?: Readonly<Record<string, number>>;
  // The reducer's own bookkeeping, from here to `itemCount`: outside extension/model, ask runQueries.ts instead.
  /** Open streaming items: ids of the text / reasoning item chunks are appended to, if any. */
  readonly openTextId?: string;
  readonly openReasoningId?: string;
  /** The last tool item without a call id (AgencyProxy allows `id: null`), so its result can be paired. */
  readonly openAnonymousToolId?: string;
  /** Tool calls still waiting for their result: call id → item id. Small (only calls in flight). */
  readonly openTools: ReadonlyMap<string, string>;
  /** Compactions seen (the agent's compaction id → its row), so their later updates change that row. Bounded. */
  readonly compactionItems?: Readonly<Record<string, string>>;
  /** Messages seen with an id (their id → its row), so a later event with that id changes that row. Bounded. */
  readonly messageItems?: Readonly<Record<string, string>>;
  /** The newest rewind's checkpoint row while it offers *Redo* (fileCheckpointRows.ts): the next mark ends it. */
  readonly redoItemId?: string;
  /** Number of items in the transcript. */
  readonly itemCount: number;
  readonly workspaceRoots?: readonly string[];
  /**
   * Present while the run's transcript is not in memory (issue #25 §2): a finished run comes back from its index
   * summary at connect and is replayed when it is opened (runHistory.ts); this is what the board shows meanwhile.
   */
  readonly unloaded?: RunDigest;
}

/** What the board shows of a run whose transcript is not loaded (the rest is in RunInfo's own fields). */
export interface RunDigest {
  /** The last line of its output when it was summarized. */
  readonly lastLine?: string;
  /** `+N −M` of its change set, when it had one. */
  readonly changes?: { readonly added: number; readonly removed: number };
  /** Its change set's files and a signature of each one's diff (model/changeSetSignatures.ts), capped. */
  readonly fileSignatures?: Readonly<Record<string, string>>;
  /** The files its agent said it edited (`RunInfo.reportedEdits` when it was summarized). */
  readonly reportedEdits?: Readonly<Record<string, number>>;
  /** When it last had a new item (ms), as its summary saw it: the end of its window on a shared tree. */
  readonly activeAt?: number;
  /** Its local change set's repository (the tree it shares with other runs). */
  readonly repo?: string;
}

export interface ApprovalInfo {
  readonly key: ApprovalKey;
  readonly runKey: RunKey;
  readonly approvalId: string;
  readonly itemId: string;
  readonly title: string;
  readonly summary?: string;
  readonly risk?: string;
  readonly detail: unknown;
  readonly options: readonly ApprovalDecision[];
  readonly requestedAt: number;
  /** See `approvalLifecycle.ts`: pending → deciding → decided | failed | expired. */
  readonly status: ApprovalStatus;
  /** The decision chosen (`deciding`) or made (`decided`), and where. */
  readonly decision?: ApprovalDecision;
  readonly decidedBy?: DecisionSurface;
  /** The label of the approval rule that answered it (`decidedBy: 'rule'`). */
  readonly decidedByRule?: string;
  /** The tool and what it touches, when the protocol says (approval rules match on it). */
  readonly subject?: ApprovalSubject;
  /** The decision sent when a person saves an allow rule from it (the driver says; default allow once). */
  readonly saveRuleAs?: ApprovalDecision;
  /** How long the agent keeps its own "similar" answers (ACP), shown on their buttons. */
  readonly lasts?: AlwaysLasts;
  /** Why delivery failed (`failed`) or why it expired. */
  readonly reason?: string;
  /**
   * Whether the daemon is known to wait for it in this window: false for a request restored from storage after a
   * reload until its driver confirms it (so a reload never re-announces a request that is long settled).
   */
  readonly live: boolean;
}

/** Waits for a person: may be announced, counted and decided. */
export function awaitsDecision(approval: ApprovalInfo): boolean {
  return approval.live && (approval.status === 'pending' || approval.status === 'failed');
}

export interface ChangeSetInfo {
  readonly runKey: string;
  /** `daemon`: delivered by the daemon (A3S); `local`: computed by the editor from git tree snapshots. */
  readonly source: 'daemon' | 'local';
  readonly status: 'capturing' | 'ready' | 'unavailable' | 'refused';
  readonly reason?: string;
  /** The verified, decoded unified diff (present when `ready`). */
  readonly patch?: string;
  readonly baseTree?: string;
  readonly resultTree?: string;
  /** The repository top level the trees belong to (a local change set): the tree runs share. */
  readonly repo?: string;
}

export interface ModelState {
  readonly connections: ReadonlyMap<string, ConnectionInfo>;
  readonly runs: ReadonlyMap<string, RunInfo>;
  readonly approvals: ReadonlyMap<string, ApprovalInfo>;
  readonly changeSets: ReadonlyMap<string, ChangeSetInfo>;
}

export const emptyModelState: ModelState = {
  connections: PersistentMap.empty(),
  runs: PersistentMap.empty(),
  approvals: PersistentMap.empty(),
  changeSets: PersistentMap.empty(),
};

// The drivers still import the key builders from here; the format is runKeys.ts's.
export { approvalKeyOf, runKeyOf } from './runKeys';

/**
 * What every daemon driver offers the UI. A driver owns one connection profile: it connects (and reconnects),
 * maps its wire protocol onto the run model by dispatching to the store, and performs user actions. Methods a
 * daemon does not support are absent or reject with a `DriverError`; the UI offers actions by the connection's
 * capabilities (see `Capability`), not by trying.
 */
import type { Disposable, Event } from '../base/emitter';
import type { ActionAnswers, ActionInput, ActionOffer, ActionResult, ActionTarget } from './kit/daemonActions';
import type { ElicitationSource } from './kit/elicitationForms';
import type { TurnCheckpoints } from './kit/turnCheckpoints';
import type { ApprovalDecision, DecisionSurface } from '../protocol/transcriptTypes';
import type { ProtocolName } from '../model/modelTypes';
import type { StoredRun } from '../storage/runJournal';

/** A connection profile from the `agentSwitchboard.connections` setting (its schema: extension/protocol/connectionProfile.ts). */
export type { ConnectionProfile } from '../protocol/connectionProfile';

export interface StartRunOptions {
  readonly prompt: string;
  readonly provider?: string;
  readonly model?: string;
  readonly permission?: string;
  readonly workspaceRoots: readonly string[];
  readonly approvals?: boolean;
  readonly interactive?: boolean;
}

/** One answer "New Run…" offers for the model or the permission, as the agent named it. */
export interface NewRunChoice {
  /** What `StartRunOptions.model` / `.permission` carries when it is picked. */
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
  /** What the agent uses when nothing is chosen. */
  readonly isDefault?: boolean;
}

/** The models and permission modes an agent offers a new run (absent or empty: the question is not asked). */
export interface NewRunChoices {
  readonly models?: readonly NewRunChoice[];
  readonly permissions?: readonly NewRunChoice[];
}

export interface StartRunConfirmation {
  readonly message: string;
  readonly detail: string;
  readonly button: string;
}

export interface ProviderChoice {
  readonly provider: string;
  readonly installed: boolean;
  readonly version?: string;
  /** A newer version of the provider CLI exists. */
  readonly outdated?: boolean;
  readonly authState: string;
  readonly detail?: string;
  readonly loginHint?: string;
}

// The user-facing error lives in the kit with the rest of the error taxonomy; re-exported for existing importers.
export { DriverError } from './kit/errors';

export interface Driver extends Disposable {
  readonly protocol: ProtocolName;
  /** Stops reconnecting, closes the connection and flushes and closes storage; resolves once all of it is done. */
  dispose(): Promise<void>;
  readonly connectionId: string;
  /** Connects and keeps the connection up (reconnecting with backoff) until `disconnect`. */
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** Starts a run; resolves with its run id once the daemon accepted it. */
  startRun?(options: StartRunOptions): Promise<string>;
  /** What "New Run…" asks besides the prompt (default: both), for daemons whose runs take no model or permission. */
  readonly newRunAsks?: { readonly model: boolean; readonly permission: boolean };
  /**
   * For agents that advertise their models and modes per session (ACP): what "New Run…" may offer, asked before
   * the model and permission questions, which then pick from these lists instead of free text. `abandon` aborts
   * when the person cancels the question (the agent is told it need not answer).
   */
  newRunChoices?(workspaceRoots: readonly string[], abandon?: AbortSignal): Promise<NewRunChoices>;
  /** A question to confirm before `startRun` (e.g. SCV: starting a session ends the live one); undefined: none. */
  startRunConfirmation?(): StartRunConfirmation | undefined;
  /** Sends a message into a run (inject, queue or operator message, per protocol). */
  sendMessage?(runId: string, text: string): Promise<void>;
  cancelRun?(runId: string): Promise<void>;
  /** `by` is where the person decided (kept with the decision so every surface can say who decided). */
  decideApproval?(runId: string, approvalId: string, decision: ApprovalDecision, by?: DecisionSurface, rule?: string): Promise<void>;
  /** Expires one approval (the run ended before a decision reached the daemon), recorded like every expiry. */
  expireApproval?(runId: string, approvalId: string, reason: string): Promise<unknown>;
  listProviders?(): Promise<readonly ProviderChoice[]>;
  /** Server-side prompt queue (SCV): edit, move (null = to the end), remove, pause. */
  editQueueEntry?(runId: string, queueId: string, revision: number, prompt: string): Promise<void>;
  moveQueueEntry?(runId: string, queueId: string, revision: number, beforeQueueId: string | null): Promise<void>;
  removeQueueEntry?(runId: string, queueId: string, revision: number): Promise<void>;
  pauseQueue?(runId: string, paused: boolean): Promise<void>;
  /** A panel entry's action (see `Panel`): the driver that published the panel carries it out. */
  panelAction?(runId: string, panelId: string, entryId: string, actionId: string): Promise<void>;
  /** Re-reads daemon state on demand (runs, status, counts). */
  refresh?(): Promise<void>;
  /**
   * Whether anyone can see this connection's runs (a Switchboard view or a transcript tab is visible; true until
   * told otherwise). A driver that polls only to keep the views current stops polling while false, and catches up
   * at once when it turns true again.
   */
  setWatched?(watched: boolean): void;
  /** Recomputes an editor-computed change set of a run that is still open, so Show Change Set is current. */
  refreshChangeSet?(runId: string): Promise<void>;
  /**
   * Carries out one of the daemon's declared actions (`kit/daemonActions.ts`; the declarations are in the daemon
   * registry) once the UI has the target and the answers.
   */
  performAction?(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult>;
  /** What only the driver knows about a run (or, without `runId`, the connection), for actions' `when.facts`. */
  actionFacts?(runId?: string): readonly string[];
  /** A question an action needs beyond its declared inputs, given the answers so far; undefined when none is left. */
  nextActionInput?(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionInput | undefined>;
  /** Offers the driver makes by itself; the UI shows each once. */
  readonly onOffer?: Event<ActionOffer>;
  /** The offers still open (made before the UI watched the driver, e.g. right after it connected). */
  openOffers?(): readonly ActionOffer[];
  /** What the agent asks the user for (ACP elicitation), answered with native input (ui/elicitations). */
  readonly elicitations?: ElicitationSource;
  /** The connection's stored runs (issue #25 §2): loading, releasing, removing, archived ones. */
  readonly history?: DriverHistory;
  /** The runs' file checkpoints (issue #26): listed, previewed, rewound and redone (kit/turnCheckpoints.ts). */
  readonly checkpoints?: TurnCheckpoints;
  /** Why this daemon's runs have no file checkpoints, in words for the person (hyperhive: agents run elsewhere). */
  readonly noCheckpointsReason?: string;
}

/** What removing a run came to: refused while not finished, or while another window of this machine writes it. */
export type RunRemoval = 'removed' | 'not finished' | { readonly heldBy: RunWriterWindow };

/** The editor window that writes a run (its lease): what the person is told of it. */
export interface RunWriterWindow {
  /** Its workspace's name, when its lease says. */
  readonly name?: string;
  /** Its extension host's process id. */
  readonly pid: number;
}

/** What the UI does with a connection's stored runs (drivers/kit/driverRuns.ts implements it). */
export interface DriverHistory {
  /**
   * Replays a run shown from its summary; resolves once its transcript is in the store (at once if it is). A run
   * listed older (not in the model) is brought into it first.
   */
  load(runId: string): Promise<void>;
  /** Drops a finished run's transcript from memory; false when it must stay (live, waiting, loading). */
  release(runId: string): Promise<boolean>;
  /**
   * Deletes a finished run's journal, checkpoint and index entry; a run not finished is refused, and so is one another
   * window of this machine is writing (`held elsewhere`).
   */
  remove(runId: string): Promise<RunRemoval>;
  /** Archived runs (past the retention setting): their index entries, newest first. */
  archived(): Promise<readonly StoredRun[]>;
  /** Puts an archived run back in the model from its summary (then it is opened like any run). */
  unarchive(runId: string): Promise<boolean>;
  /**
   * Brings the next page of the connection's older finished runs into the model (stored, but older than the page a
   * connect loads: kit/olderRuns.ts; the model counts them in `ConnectionInfo.olderRuns`); resolves with how many came.
   */
  showOlder(count?: number): Promise<number>;
  /** Whether the run is stored but older than what the model holds: `load` brings it in. */
  isOlder(runId: string): boolean;
}

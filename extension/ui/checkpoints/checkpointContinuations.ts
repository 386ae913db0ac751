/**
 * *Continue from here* on a turn's checkpoint (issue #26): the files go back to that checkpoint (the rewind flow of
 * FileRewinds: preview, questions, undoable by *Redo*) and a new run on the same connection carries the conversation
 * up to that turn. The agents' own mechanisms keep a whole session, never one cut at a turn — ACP `session/fork` and
 * `session/resume` copy all of it (claude-agent-acp's fork point is a vendor `_meta` of JetBrains' AIR, not ACP),
 * AgencyProxy's `resumeSessionId` resumes the whole provider session, SCV cannot attach to a session, A3S resumes a
 * run's durable checkpoint, not a turn. So: from the run's newest turn, where the whole conversation is the one up
 * to it, through the agent's own action when it has one that applies now (ACP *Fork Run*, AgencyProxy *Continue in
 * a New Run*), with the person's next message; from an earlier turn (or without such an action), a New Run whose
 * first message quotes the earlier conversation as a clearly marked, escaped context block
 * (model/earlierConversation.ts). Either way the person sees and edits that message before anything happens. Order:
 * the message first (cancelling it changes nothing), then the rewind (declining it starts nothing), then the run.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { FileCheckpoint } from '../../changeSets/fileCheckpointRecords';
import type { DaemonAction } from '../../drivers/kit/daemonActions';
import { conversationEnd, conversationEntries, DEFAULT_CONTINUATION, earlierConversationDraft } from '../../model/earlierConversation';
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { TranscriptItem } from '../../protocol/transcriptTypes';
import type { NewRunArgs } from '../commands/newRunPrompts';
import { applicableActions } from '../daemonActions/actionTargets';
import type { RunResidency } from '../runResidency';
import { continueRefusal } from './continueRefusal';
import type { FileRewinds, RewindResult } from './fileRewinds';
import { checkpointName } from './fileRewinds';
import type { EditFirstMessage } from './firstMessageEditor';

export interface CheckpointContinuationDeps {
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly residency: Pick<RunResidency, 'ensureLoaded'>;
  readonly rewinds: FileRewinds;
  /** The question that shows the first message to edit (the editor, or a test's answer). */
  readonly editFirstMessage: () => EditFirstMessage;
  /** New Run with these arguments (the command `agentSwitchboard.newRun`): the new run's key, or undefined. */
  readonly newRun: (args: NewRunArgs) => Thenable<string | undefined>;
  /** A daemon action on the run (its command), answered with `answers`: what the command resolves. */
  readonly runAction: (command: string, runKey: string, answers?: Record<string, unknown>) => Thenable<unknown>;
  /** Sends a message to a run (the command `agentSwitchboard.sendMessage`). */
  readonly send: (runKey: string, text: string) => Thenable<unknown>;
}

/** How the new run gets the conversation: the agent's own copy of its session, or quoted in the first message. */
export type CarriedBy = 'agent' | 'message';

/** What *Continue from here* came to (tests and the palette command return it). */
export type ContinueResult =
  | { readonly status: 'started'; readonly runKey: string; readonly rewind: RewindResult['status']; readonly carriedBy: CarriedBy }
  /** The person cancelled the first message: nothing changed. */
  | { readonly status: 'not asked' }
  /** The files were not rewound (declined, or the rewind did not happen): no run started. */
  | { readonly status: 'not rewound'; readonly rewind: RewindResult }
  /** The files were rewound, but New Run was cancelled or failed (Redo puts the files back). */
  | { readonly status: 'not started'; readonly rewind: RewindResult['status'] };

/** New Run's own arguments a caller may add (tests and automation answer its questions with them). */
export type ContinueRunArgs = Omit<NewRunArgs, 'connectionId' | 'prompt' | 'workspaceRoots' | 'worktree'>;

export class CheckpointContinuations {
  constructor(private readonly deps: CheckpointContinuationDeps) {}

  /** Whether the run's connection can start the new run (else why not) and keeps checkpoints: throws the reason. */
  check(run: RunInfo): void {
    this.deps.rewinds.checkpointsOf(run); // no checkpoints here (hyperhive): that is the reason to give
    const refusal = continueRefusal(this.deps.store.state, run);
    if (refusal !== undefined) {
      throw new Error(`“${run.title}” cannot continue in a new run: ${refusal}.`);
    }
  }

  /** The draft of the new run's first message: the conversation up to the turn marker of `checkpointId`. */
  async draft(runKey: string, checkpointId: string): Promise<{ run: RunInfo; upTo: string; draft: string; own: DaemonAction | undefined }> {
    const run = this.runOf(runKey);
    this.check(run);
    await this.deps.residency.ensureLoaded(runKey);
    const source = this.deps.rewinds.checkpointsOf(this.runOf(runKey));
    const history = await source.store.list(run.runId);
    const checkpoint = history.find((c) => c.id === checkpointId);
    if (checkpoint?.kind !== 'turn') {
      throw new Error(`That checkpoint of “${run.title}” is no longer kept.`);
    }
    const upTo = checkpointName(checkpoint);
    const own = this.ownContinuation(run, checkpoint, history);
    if (own !== undefined) {
      return { run, upTo, draft: DEFAULT_CONTINUATION, own };
    }
    const transcript = this.deps.store.transcript(runKey);
    const at = (i: number): TranscriptItem | undefined => transcript?.at(i);
    let marker = (transcript?.length ?? 0) - 1;
    while (marker >= 0) {
      const item = at(marker);
      if (item?.kind === 'checkpoint' && item.mark === 'turn' && item.checkpointId === checkpointId) {
        break;
      }
      marker--;
    }
    if (marker < 0) {
      throw new Error(`The transcript of “${run.title}” has no marker of that checkpoint.`);
    }
    const entries = conversationEntries(at, conversationEnd(at, marker));
    return { run, upTo, draft: earlierConversationDraft({ runTitle: run.title, upTo, entries }), own: undefined };
  }

  /**
   * The agent's own way on with the whole conversation, when that is the conversation up to `checkpoint`: it is the
   * run's newest turn, and the driver offers *Fork Run* (ACP `session/fork`) or *Continue in a New Run* (AgencyProxy
   * `resumeSessionId`) for the run now (an idle or ended run; never one mid-turn).
   */
  private ownContinuation(run: RunInfo, checkpoint: FileCheckpoint, history: readonly FileCheckpoint[]): DaemonAction | undefined {
    const newest = Math.max(...history.filter((c) => c.kind === 'turn').map((c) => c.turn ?? -1));
    if (checkpoint.turn !== newest) {
      return undefined;
    }
    return applicableActions(this.deps.store.state, this.deps.connections, run.connectionId, run).find((a) => a.command.endsWith('.forkRun') || a.command.endsWith('.continueRun'));
  }

  /** *Continue from here*: the first message edited, the files rewound, the new run started. */
  async continueFrom(runKey: string, checkpointId: string, args: ContinueRunArgs = {}): Promise<ContinueResult> {
    const { run, upTo, draft, own } = await this.draft(runKey, checkpointId);
    const carriedBy: CarriedBy = own !== undefined ? 'agent' : 'message';
    const message = await this.deps.editFirstMessage()({ runTitle: run.title, upTo, draft, carriedBy, ...(own ? { how: own.title } : {}) });
    if (message === undefined) {
      return { status: 'not asked' };
    }
    const rewind = await this.deps.rewinds.rewind(runKey, checkpointId);
    if (rewind.status !== 'rewound' && rewind.status !== 'nothing to do') {
      return { status: 'not rewound', rewind };
    }
    const started = own !== undefined ? await this.continueOwn(run, own, message) : await this.newRun(run, message, args);
    if (started === undefined) {
      if (rewind.status === 'rewound') {
        void vscode.window.showInformationMessage(`No new run was started. The files of “${run.title}” stay rewound to ${upTo}: Redo on the rewind’s marker puts them back.`);
      }
      return { status: 'not started', rewind: rewind.status };
    }
    return { status: 'started', runKey: started, rewind: rewind.status, carriedBy };
  }

  /** The agent's own action, then the message: the new run's key, or undefined. */
  private async continueOwn(run: RunInfo, own: DaemonAction, message: string): Promise<string | undefined> {
    if (own.command.endsWith('.continueRun')) {
      const key = await this.deps.runAction(own.command, run.key, { prompt: message }); // its first message
      return typeof key === 'string' ? key : undefined;
    }
    const key = await this.deps.runAction(own.command, run.key);
    if (typeof key !== 'string') {
      return undefined;
    }
    await this.deps.send(key, message);
    return key;
  }

  private async newRun(run: RunInfo, message: string, args: ContinueRunArgs): Promise<string | undefined> {
    const roots = run.workspaceRoots;
    return this.deps.newRun({
      ...(run.provider !== undefined ? { provider: run.provider } : {}),
      ...args,
      connectionId: run.connectionId,
      prompt: message,
      // The new run works where the old one did (its worktree, if it had one): where the files were rewound.
      ...(roots !== undefined && roots.length > 0 ? { workspaceRoots: roots, worktree: false } : {}),
    });
  }

  private runOf(runKey: string): RunInfo {
    const run = this.deps.store.state.runs.get(runKey);
    if (!run) {
      throw new Error('That run is no longer known.');
    }
    return run;
  }
}

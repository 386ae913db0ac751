/**
 * *Continue from here* on a turn's checkpoint (issue #26): the files go back to that checkpoint (the rewind flow of
 * FileRewinds: preview, questions, undoable by *Redo*) and a new run on the same connection carries the conversation
 * up to that turn. No peer can restart its own history at a given turn today — ACP `session/fork` and
 * `session/resume` copy the whole session (claude-agent-acp's fork point is a vendor `_meta` of JetBrains' AIR),
 * AgencyProxy's `resumeSessionId` resumes the whole provider session, SCV cannot attach to a session, A3S resumes a
 * run's durable checkpoint, not a turn — so the new run is given the earlier conversation as a clearly marked,
 * escaped context block (model/earlierConversation.ts) in its first message, which the person sees and edits before
 * anything happens. Order: the message first (cancelling it changes nothing), then the rewind (declining it starts
 * nothing), then New Run, in the run's folders.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { conversationEnd, conversationEntries, earlierConversationDraft } from '../../model/earlierConversation';
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { TranscriptItem } from '../../protocol/transcriptTypes';
import type { NewRunArgs } from '../commands/newRunPrompts';
import type { RunResidency } from '../runResidency';
import { continueRefusal } from './continueRefusal';
import type { FileRewinds, RewindResult } from './fileRewinds';
import { checkpointName } from './fileRewinds';
import type { EditFirstMessage } from './firstMessageEditor';

export interface CheckpointContinuationDeps {
  readonly store: RunStore;
  readonly connections: Pick<ConnectionManager, 'driver'>;
  readonly residency: Pick<RunResidency, 'ensureLoaded'>;
  readonly rewinds: FileRewinds;
  /** The question that shows the first message to edit (the editor, or a test's answer). */
  readonly editFirstMessage: () => EditFirstMessage;
  /** New Run with these arguments (the command `agentSwitchboard.newRun`): the new run's key, or undefined. */
  readonly newRun: (args: NewRunArgs) => Thenable<string | undefined>;
}

/** What *Continue from here* came to (tests and the palette command return it). */
export type ContinueResult =
  | { readonly status: 'started'; readonly runKey: string; readonly rewind: RewindResult['status'] }
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
    const refusal = continueRefusal(this.deps.store.state, run);
    if (refusal !== undefined) {
      throw new Error(`“${run.title}” cannot continue in a new run: ${refusal}.`);
    }
    this.deps.rewinds.checkpointsOf(run);
  }

  /** The draft of the new run's first message: the conversation up to the turn marker of `checkpointId`. */
  async draft(runKey: string, checkpointId: string): Promise<{ run: RunInfo; upTo: string; draft: string }> {
    const run = this.runOf(runKey);
    this.check(run);
    await this.deps.residency.ensureLoaded(runKey);
    const source = this.deps.rewinds.checkpointsOf(this.runOf(runKey));
    const checkpoint = (await source.store.list(run.runId)).find((c) => c.id === checkpointId);
    if (checkpoint?.kind !== 'turn') {
      throw new Error(`That checkpoint of “${run.title}” is no longer kept.`);
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
    const upTo = checkpointName(checkpoint);
    const entries = conversationEntries(at, conversationEnd(at, marker));
    return { run, upTo, draft: earlierConversationDraft({ runTitle: run.title, upTo, entries }) };
  }

  /** *Continue from here*: the first message edited, the files rewound, the new run started. */
  async continueFrom(runKey: string, checkpointId: string, args: ContinueRunArgs = {}): Promise<ContinueResult> {
    const { run, upTo, draft } = await this.draft(runKey, checkpointId);
    const message = await this.deps.editFirstMessage()({ runTitle: run.title, upTo, draft });
    if (message === undefined) {
      return { status: 'not asked' };
    }
    const rewind = await this.deps.rewinds.rewind(runKey, checkpointId);
    if (rewind.status !== 'rewound' && rewind.status !== 'nothing to do') {
      return { status: 'not rewound', rewind };
    }
    const roots = run.workspaceRoots;
    const started = await this.deps.newRun({
      ...(run.provider !== undefined ? { provider: run.provider } : {}),
      ...args,
      connectionId: run.connectionId,
      prompt: message,
      // The new run works where the old one did (its worktree, if it had one): where the files were rewound.
      ...(roots !== undefined && roots.length > 0 ? { workspaceRoots: roots, worktree: false } : {}),
    });
    if (started === undefined) {
      if (rewind.status === 'rewound') {
        void vscode.window.showInformationMessage(`No new run was started. The files of “${run.title}” stay rewound to ${upTo}: Redo on the rewind’s marker puts them back.`);
      }
      return { status: 'not started', rewind: rewind.status };
    }
    return { status: 'started', runKey: started, rewind: rewind.status };
  }

  private runOf(runKey: string): RunInfo {
    const run = this.deps.store.state.runs.get(runKey);
    if (!run) {
      throw new Error('That run is no longer known.');
    }
    return run;
  }
}

/**
 * What the core holds of the review tools (reviewToolsFeature.ts, a bundle loaded on demand): the registrations of
 * their commands, the context keys of those commands' `when` clauses, and the calls the transcript's webview makes
 * (rewind, redo, continue from a checkpoint, send or discard notes) — each loading the bundle at its first use.
 */
import type * as vscode from 'vscode';
import type { ContinueResult } from '../checkpoints/checkpointContinuations';
import type { RewindResult } from '../checkpoints/fileRewinds';
import { watchChangeSetContextKeys } from '../commands/changeSetContextKeys';
import { registerLazyCommands } from '../lazyCommands';
import { watchAfterSideContext } from '../reviewNotes/afterSide';
import type { NotesSendOutcome } from '../reviewNotes/reviewNoteActions';
import type * as Feature from './reviewToolsFeature';

export const REVIEW_TOOL_COMMANDS = [
  'agentSwitchboard.rewindRunFiles',
  'agentSwitchboard.redoRewind',
  'agentSwitchboard.continueFromCheckpoint',
  'agentSwitchboard.addNoteForAgent',
  'agentSwitchboard.sendNotesToAgent',
  'agentSwitchboard.discardNotes',
  'agentSwitchboard.markFileReviewed',
  'agentSwitchboard.keepHunk',
  'agentSwitchboard.undoHunk',
] as const;

/** The review tools' actions the transcript's messages call (ui/transcriptActions.ts). */
export interface ReviewToolActions {
  rewind(runKey: string, checkpointId: string): Promise<RewindResult>;
  redo(runKey: string, rewindId: string): Promise<RewindResult>;
  /** *Continue from here*: the first message edited, the files rewound, a new run started. */
  continueFrom(runKey: string, checkpointId: string): Promise<ContinueResult>;
  sendNotes(runKey: string): Promise<NotesSendOutcome>;
  discardNotes(runKey: string): Promise<boolean>;
}

export class ReviewTools implements ReviewToolActions, vscode.Disposable {
  private feature: Feature.ReviewToolsFeature | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly deps: Feature.ReviewToolsDeps) {
    this.disposables = [
      ...registerLazyCommands(REVIEW_TOOL_COMMANDS, () => this.load().handlers, 'review tools'),
      watchChangeSetContextKeys(deps.ctx.store),
      watchAfterSideContext(),
    ];
  }

  private load(): Feature.ReviewToolsFeature {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    this.feature ??= (require('./reviewToolsFeature') as typeof Feature).createReviewToolsFeature(this.deps);
    return this.feature;
  }

  rewind(runKey: string, checkpointId: string): Promise<RewindResult> {
    return this.load().rewinds.rewind(runKey, checkpointId);
  }

  redo(runKey: string, rewindId: string): Promise<RewindResult> {
    return this.load().rewinds.redo(runKey, rewindId);
  }

  continueFrom(runKey: string, checkpointId: string): Promise<ContinueResult> {
    return this.load().continuations.continueFrom(runKey, checkpointId);
  }

  sendNotes(runKey: string): Promise<NotesSendOutcome> {
    return this.load().notes.send(runKey);
  }

  discardNotes(runKey: string): Promise<boolean> {
    return this.load().notes.discard(runKey);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.feature?.dispose();
  }
}

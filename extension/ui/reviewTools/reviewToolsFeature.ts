/**
 * The review tools of issue #26 that act only when the person asks — rewinding a run's files and redoing it, sending
 * or discarding notes to the agent, marking a file reviewed, keeping or undoing a hunk: their services and command
 * handlers. A bundle of its own, loaded at the first use (reviewTools.ts holds what the core needs before that: the
 * commands' registrations, the notes as stored, the context keys).
 */
import type * as vscode from 'vscode';
import { FileRewinds } from '../checkpoints/fileRewinds';
import type { ConfirmRewind } from '../checkpoints/rewindPrompt';
import { RewindPreviewDocuments } from '../checkpoints/rewindPreviewDocuments';
import { changeSetReviewHandlers } from '../commands/changeSetReviewCommands';
import type { CommandContext } from '../commands/commandContext';
import { rewindCommandHandlers } from '../commands/rewindCommands';
import type { CommandHandler } from '../lazyCommands';
import { ReviewNoteActions } from '../reviewNotes/reviewNoteActions';
import { reviewNoteHandlers } from '../reviewNotes/reviewNoteCommands';
import type { ReviewNoteStore } from '../reviewNotes/reviewNoteStore';

export interface ReviewToolsDeps {
  readonly ctx: CommandContext;
  /** The notes as stored, which the core keeps (the change-set view shows them before any tool is used). */
  readonly notes: ReviewNoteStore;
  readonly confirmRewind: ConfirmRewind;
}

export interface ReviewToolsFeature extends vscode.Disposable {
  readonly rewinds: FileRewinds;
  readonly notes: ReviewNoteActions;
  readonly handlers: ReadonlyMap<string, CommandHandler>;
}

export function createReviewToolsFeature({ ctx, notes, confirmRewind }: ReviewToolsDeps): ReviewToolsFeature {
  const documents = new RewindPreviewDocuments();
  const rewinds = new FileRewinds({ store: ctx.store, connections: ctx.connections, residency: ctx.residency, documents, confirm: confirmRewind });
  const noteActions = new ReviewNoteActions(ctx.store, ctx.connections, ctx.runs, notes);
  return {
    rewinds,
    notes: noteActions,
    handlers: new Map([...rewindCommandHandlers(ctx, rewinds), ...reviewNoteHandlers(ctx, noteActions), ...changeSetReviewHandlers(ctx)]),
    dispose: () => documents.dispose(),
  };
}

/**
 * The review tools of issue #26 that act only when the person asks — rewinding a run's files and redoing it,
 * continuing a run from one of its turns in a new run, sending
 * or discarding notes to the agent, marking a file reviewed, keeping or undoing a hunk: their services and command
 * handlers. A bundle of its own, loaded at the first use (reviewTools.ts holds what the core needs before that: the
 * commands' registrations, the notes as stored, the context keys).
 */
import * as vscode from 'vscode';
import { CheckpointContinuations } from '../checkpoints/checkpointContinuations';
import { FileRewinds } from '../checkpoints/fileRewinds';
import type { EditFirstMessage } from '../checkpoints/firstMessageEditor';
import { editorFirstMessage } from '../checkpoints/firstMessageEditor';
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
  /** A test's answer to the first message of a continued run (undefined: the editor asks the person). */
  readonly editFirstMessage?: () => EditFirstMessage | undefined;
}

export interface ReviewToolsFeature extends vscode.Disposable {
  readonly rewinds: FileRewinds;
  readonly continuations: CheckpointContinuations;
  readonly notes: ReviewNoteActions;
  readonly handlers: ReadonlyMap<string, CommandHandler>;
}

export function createReviewToolsFeature({ ctx, notes, confirmRewind, editFirstMessage }: ReviewToolsDeps): ReviewToolsFeature {
  const documents = new RewindPreviewDocuments();
  const rewinds = new FileRewinds({ store: ctx.store, connections: ctx.connections, residency: ctx.residency, documents, confirm: confirmRewind });
  const continuations = new CheckpointContinuations({
    store: ctx.store,
    connections: ctx.connections,
    residency: ctx.residency,
    rewinds,
    editFirstMessage: () => editFirstMessage?.() ?? editorFirstMessage,
    newRun: (args) => vscode.commands.executeCommand<string | undefined>('agentSwitchboard.newRun', args),
    runAction: (command, runKey, answers) => vscode.commands.executeCommand(command, runKey, answers),
    send: (runKey, text) => vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, text),
  });
  const noteActions = new ReviewNoteActions(ctx.store, ctx.connections, ctx.runs, notes);
  return {
    rewinds,
    continuations,
    notes: noteActions,
    handlers: new Map([...rewindCommandHandlers(ctx, rewinds, continuations), ...reviewNoteHandlers(ctx, noteActions), ...changeSetReviewHandlers(ctx)]),
    dispose: () => documents.dispose(),
  };
}

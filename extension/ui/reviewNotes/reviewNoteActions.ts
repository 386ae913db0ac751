/**
 * What a person does with a run's notes to the agent (issue #26), for every surface alike — the change-set view's
 * buttons, the native diff editor's *Add Note for Agent*, the palette's *Send Notes to Agent* and *Discard Notes*.
 *
 * Sending goes through the composer's path (RunControl.deliver: the driver injects the message, or queues it while a
 * turn runs, as its daemon does), as one message (changeSets/reviewNoteMessage.ts). The notes are cleared only once
 * the daemon accepted it; a run that cannot take input is refused with the reason, and the notes are kept — with
 * *Continue in a New Run* (the notes as its first message) where the daemon offers that for the run.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { errorText } from '../../drivers/kit/errors';
import { reviewMessage } from '../../changeSets/reviewNoteMessage';
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { applicableActions } from '../daemonActions/actionTargets';
import type { RunControl } from '../runControl';
import { messageRefusal } from '../runMessaging';
import type { ReviewNoteStore } from './reviewNoteStore';

const COPY = 'Copy Notes as Message';

/** The outcome of a send, for callers and tests: sent (accepted by the daemon), or why not. */
export type NotesSendOutcome = { readonly kind: 'sent'; readonly count: number } | { readonly kind: 'none' } | { readonly kind: 'refused'; readonly reason: string } | { readonly kind: 'failed'; readonly reason: string };

/** The questions the person answers; modal in the editor, set by a test host's hooks. */
export interface NotePrompts {
  /** Discard `count` notes of `title`? */
  confirmDiscard(count: number, title: string): Promise<boolean>;
}

export const MODAL_NOTE_PROMPTS: NotePrompts = {
  async confirmDiscard(count, title) {
    const button = count === 1 ? 'Discard Note' : 'Discard Notes';
    const answer = await vscode.window.showWarningMessage(`Discard ${count} note${count === 1 ? '' : 's'} on "${title}"?`, { modal: true, detail: 'They have not been sent to the agent.' }, button);
    return answer === button;
  },
};

export class ReviewNoteActions {
  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly runs: RunControl,
    readonly notes: ReviewNoteStore,
    private readonly prompts: NotePrompts = MODAL_NOTE_PROMPTS,
  ) {}

  /** Sends every pending note of the run as one message; says how it went (and shows it). */
  async send(runKey: string): Promise<NotesSendOutcome> {
    const run = this.store.state.runs.get(runKey);
    if (!run) {
      throw new Error('That run is no longer known.');
    }
    const notes = await this.notes.notes(runKey);
    if (notes.length === 0) {
      void vscode.window.showInformationMessage(`"${run.title}" has no notes to send.`);
      return { kind: 'none' };
    }
    const connection = this.store.state.connections.get(run.connectionId);
    const capabilities = connection?.capabilities ?? [];
    const refusal = messageRefusal(run, capabilities, connection?.state.kind === 'connected');
    const text = reviewMessage(notes);
    if (refusal) {
      void this.offerInstead(run, text, `The notes were not sent to "${run.title}": ${refusal}. They are kept.`);
      return { kind: 'refused', reason: refusal };
    }
    const queued = capabilities.includes('run.queue') && (run.state === 'running' || run.state === 'waiting_approval' || run.state === 'starting');
    try {
      await this.runs.deliver(run, text);
    } catch (error) {
      const reason = errorText(error);
      void vscode.window.showErrorMessage(`The notes were not sent to "${run.title}": ${reason}. They are kept.`);
      return { kind: 'failed', reason };
    }
    await this.notes.sent(runKey, notes);
    const what = `${notes.length} note${notes.length === 1 ? '' : 's'}`;
    void vscode.window.setStatusBarMessage(queued ? `$(comment) Queued ${what} for "${run.title}"` : `$(comment) Sent ${what} to "${run.title}"`, 5000);
    return { kind: 'sent', count: notes.length };
  }

  /** Drops the run's notes after the person confirms. Says whether they were dropped. */
  async discard(runKey: string): Promise<boolean> {
    const run = this.store.state.runs.get(runKey);
    const notes = run ? await this.notes.notes(runKey) : [];
    if (!run || notes.length === 0) {
      void vscode.window.showInformationMessage(run ? `"${run.title}" has no notes.` : 'That run is no longer known.');
      return false;
    }
    if (!(await this.prompts.confirmDiscard(notes.length, run.title))) {
      return false;
    }
    await this.notes.discard(runKey);
    return true;
  }

  /** A refused send: the reason, and what can be done instead (continue in a new run with the notes, or copy them). */
  private async offerInstead(run: RunInfo, text: string, message: string): Promise<void> {
    const continueAction = applicableActions(this.store.state, this.connections, run.connectionId, run).find((a) => a.command.endsWith('.continueRun'));
    const buttons = [...(continueAction ? [continueAction.title] : []), COPY];
    const choice = await vscode.window.showWarningMessage(message, ...buttons);
    if (choice === COPY) {
      await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage('Copied the notes to the clipboard', 3000);
    } else if (continueAction && choice === continueAction.title) {
      // The person chose it: the notes are the new run's first message (answers its prompt input).
      const result = await vscode.commands.executeCommand(continueAction.command, run.key, { prompt: text });
      if (typeof result === 'string') {
        await this.notes.discard(run.key); // delivered to the run that continues this one
      }
    }
  }
}

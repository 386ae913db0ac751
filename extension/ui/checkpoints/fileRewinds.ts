/**
 * *Rewind files to here* and *Redo* (issue #26), for the transcript's checkpoint markers, the palette and the run
 * menus alike: the preview diff first (the multi-diff editor, both sides read from the checkpoint's git objects:
 * rewindPreviewDocuments.ts), then the question with a decision per path asked about (rewindPrompt.ts), then the
 * rewind through the run's driver (kit/turnCheckpoints.ts, which marks the transcript), and what came of it in a
 * notification. Only the window that writes the run rewinds its files: elsewhere the person is told which window
 * holds it. A daemon whose runs have no checkpoints here says why (hyperhive).
 */
import * as vscode from 'vscode';
import type { FileCheckpoint } from '../../changeSets/fileCheckpointRecords';
import type { RewindOutcome } from '../../changeSets/fileCheckpointStore';
import type { RewindPreview } from '../../changeSets/rewindPreview';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { rewindSummary } from '../../changeSets/rewindSummary';
import type { TurnCheckpoints } from '../../drivers/kit/turnCheckpoints';
import type { RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { RunResidency } from '../runResidency';
import { writerWindowText } from '../commands/historyTexts';
import type { ConfirmRewind } from './rewindPrompt';
import type { RewindPreviewDocuments } from './rewindPreviewDocuments';

export interface FileRewindDeps {
  readonly store: RunStore;
  readonly connections: Pick<ConnectionManager, 'driver'>;
  readonly residency: Pick<RunResidency, 'ensureLoaded'>;
  readonly documents: RewindPreviewDocuments;
  readonly confirm: ConfirmRewind;
}

/** What a rewind or redo from the UI came to (tests and the palette command return it). */
export type RewindResult = RewindOutcome | { readonly status: 'nothing to do' } | { readonly status: 'not asked' };

/** A checkpoint's name in words: "turn 2", "the start of the run". */
export function checkpointName(checkpoint: FileCheckpoint | undefined): string {
  if (checkpoint?.kind === 'beforeRewind') {
    return 'the files before the rewind';
  }
  return checkpoint?.turn === undefined ? 'a checkpoint' : checkpoint.turn === 0 ? 'the start of the run' : `turn ${checkpoint.turn}`;
}

export class FileRewinds {
  constructor(private readonly deps: FileRewindDeps) {}

  /** The run's checkpoints, or an error saying why it has none here. */
  checkpointsOf(run: RunInfo): TurnCheckpoints {
    const driver = this.deps.connections.driver(run.connectionId);
    if (driver?.checkpoints) {
      return driver.checkpoints;
    }
    throw new Error(driver?.noCheckpointsReason ?? `“${run.title}” has no file checkpoints: its connection is not set up in this window.`);
  }

  /** Whether the run can have checkpoints here (its daemon keeps them). */
  keepsCheckpoints(run: RunInfo): boolean {
    return this.deps.connections.driver(run.connectionId)?.checkpoints !== undefined;
  }

  /** The run's checkpoints as stored (oldest first), its transcript loaded first. */
  async list(runKey: string): Promise<{ run: RunInfo; checkpoints: FileCheckpoint[] }> {
    const run = this.runOf(runKey);
    const source = this.checkpointsOf(run);
    return { run, checkpoints: await source.store.list(run.runId) };
  }

  /** *Rewind files to here*: preview, ask, rewind. */
  rewind(runKey: string, checkpointId: string): Promise<RewindResult> {
    return this.go(runKey, checkpointId, false);
  }

  /** *Redo*: the files as they were before the rewind `rewindId`, previewed and asked like a rewind. */
  redo(runKey: string, rewindId: string): Promise<RewindResult> {
    return this.go(runKey, rewindId, true);
  }

  private runOf(runKey: string): RunInfo {
    const run = this.deps.store.state.runs.get(runKey);
    if (!run) {
      throw new Error('That run is no longer known.');
    }
    return run;
  }

  private async go(runKey: string, id: string, redo: boolean): Promise<RewindResult> {
    const source = this.checkpointsOf(this.runOf(runKey));
    await this.deps.residency.ensureLoaded(runKey);
    const run = this.runOf(runKey);
    const history = await source.store.list(run.runId);
    const checkpoint = history.find((c) => c.id === id);
    if (checkpoint === undefined || (redo && checkpoint.kind !== 'beforeRewind')) {
      throw new Error(`That checkpoint of “${run.title}” is no longer kept.`);
    }
    const target = redo ? 'as they were before the rewind' : `to ${checkpointName(checkpoint)}`;
    const preview = await source.store.preview(run.runId, id);
    const paths = preview?.scopes.flatMap((s) => s.entries.map((e) => e.path)) ?? [];
    if (preview === undefined || paths.length === 0) {
      void vscode.window.showInformationMessage(`The files of “${run.title}” are already ${target}: nothing to ${redo ? 'redo' : 'rewind'}.`);
      return { status: 'nothing to do' };
    }
    await this.showPreview(run, preview, redo ? 'Redo preview' : `Rewind preview (${checkpointName(checkpoint)})`);
    const shown = paths.slice(0, 8).join(', ');
    const decisions = await this.deps.confirm({
      message: redo ? `Redo: put the files of “${run.title}” back as they were before the rewind?` : `Rewind the files of “${run.title}” ${target}?`,
      detail: `${paths.length} file${paths.length === 1 ? '' : 's'} will be written back: ${shown}${paths.length > 8 ? ', …' : ''}. The files as they are now are kept first: ${redo ? 'this can be undone too' : '“Redo” on the rewind’s marker puts them back'}.`,
      verb: redo ? 'Redo' : 'Rewind',
      questions: preview.questions,
    });
    if (decisions === undefined) {
      return { status: 'not asked' };
    }
    const outcome = redo ? await source.redo(run.runId, id, decisions) : await source.rewind(run.runId, id, decisions);
    await this.report(run, source, outcome, redo);
    return outcome;
  }

  private async showPreview(run: RunInfo, preview: RewindPreview, title: string): Promise<void> {
    const token = this.deps.documents.register(preview);
    const resources = preview.scopes.flatMap((scope, index) =>
      scope.entries.map((entry) => [
        vscode.Uri.joinPath(vscode.Uri.file(scope.top), ...entry.path.split('/')),
        entry.change === 'add' ? undefined : this.deps.documents.uriFor(token, index, entry.path, 'now'),
        entry.change === 'delete' ? undefined : this.deps.documents.uriFor(token, index, entry.path, 'target'),
      ]),
    );
    await vscode.commands.executeCommand('vscode.changes', `${title}: “${run.title}” now ↔ after`, resources);
  }

  private async report(run: RunInfo, source: TurnCheckpoints, outcome: RewindOutcome, redo: boolean): Promise<void> {
    switch (outcome.status) {
      case 'rewound': {
        const text = `“${run.title}”: ${rewindSummary(await source.store.list(run.runId), outcome, redo)}.`;
        void (outcome.failures.length > 0 ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
        // The run's local change set compares its start with the files now: show it as the rewind left them (a
        // driver without one, or a session no longer open, keeps the last: nothing to say about it here).
        const driver = this.deps.connections.driver(run.connectionId);
        void Promise.resolve()
          .then(() => driver?.refreshChangeSet?.(run.runId))
          .catch(() => undefined);
        return;
      }
      case 'not writer': {
        const window = writerWindowText(await source.writerOf(run.runId));
        void vscode.window.showWarningMessage(`Only the window that records “${run.title}” may rewind its files: ${window} does. Rewind it there.`);
        return;
      }
      case 'needs decision':
        void vscode.window.showWarningMessage(`The files of “${run.title}” changed while you decided: nothing was written. Preview the rewind again.`);
        return;
      case 'unknown checkpoint':
        void vscode.window.showErrorMessage(`That checkpoint of “${run.title}” is no longer kept.`);
        return;
    }
  }
}

/**
 * Showing a run's change set, for every surface alike: in the transcript (sidebar and the run's tab), in the native
 * multi-diff editor, and one file's diff. The palette commands resolve their arguments and call these; the
 * transcript's messages call them with the run (and file) they name.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { ChangeSetInfo, RunInfo } from '../../model/modelTypes';
import type { ChangeSetMessage } from '../../protocol/webviewMessages';
import type { RunStore } from '../../model/runStore';
import type { ReadyChangeSet } from '../commands/changeSetSelection';
import { readyChangeSetOf } from '../commands/changeSetSelection';
import { isActiveRun } from '../commands/pickers';
import { Disposable } from '../disposable';
import type { RunResidency } from '../runResidency';
import type { RunSelection } from '../runSelection';
import type { TranscriptSidebar } from '../transcript/transcriptSidebar';
import type { TranscriptTabs } from '../transcript/transcriptTabs';
import { ChangeSetDocuments } from './changeSetDocuments';
import { fileLabel } from './changeSetFiles';
import { changeSetRead, readChangeSet } from './changeSetReading';
import { changeSetMessageSliced, reviewView, withAuthors } from './changeSetWebview';
import type { ReviewMarksStore } from './reviewMarks';
import { SharedTrees } from '../../model/sharedTrees';
import { TimeSlices } from '../../base/timeSlices';
import { changeSetTarget, workspaceUri } from './changeSetWorkspace';

export class ChangeSetViews extends Disposable {
  /** The before/after sides of every file, as read-only documents the diff editors open. */
  private readonly documents: ChangeSetDocuments;

  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly selection: RunSelection,
    private readonly sidebar: TranscriptSidebar,
    private readonly tabs: TranscriptTabs,
    /** A run shown from its summary has no change set in memory: it is loaded first (its driver restores it then). */
    private readonly residency: Pick<RunResidency, 'ensureLoaded'>,
    /** The person's review marks: sent with the change set, and again whenever they change. */
    private readonly reviews: ReviewMarksStore,
  ) {
    super();
    this.documents = this._register(new ChangeSetDocuments(store));
    this._register(reviews.onDidChange((runKey) => void this.postReview(runKey)));
  }

  /** The change set's message with its review marks, once its patch is read (undefined when it cannot be). */
  private async messageOf(run: RunInfo, info: ChangeSetInfo, refresh = false): Promise<ChangeSetMessage | undefined> {
    const parsed = await readChangeSet(info);
    if (!parsed.ok) {
      return undefined;
    }
    const review = reviewView(await this.reviews.progress(run.key, parsed.files));
    // Runs that share the tree: each file goes to the run that said it changed it (or "shared tree").
    const authors = new SharedTrees(this.store.state).authors(run.key, parsed.files.map((f) => f.newPath));
    const message = withAuthors(await changeSetMessageSliced(run, info, parsed.files, new TimeSlices(), undefined, review), authors);
    return refresh ? { ...message, refresh: true } : message;
  }

  /** The marks of a run's change set changed: every view that shows it updates them in place. */
  private async postReview(runKey: string): Promise<void> {
    const info = this.store.state.changeSets.get(runKey);
    const parsed = info?.status === 'ready' ? await readChangeSet(info) : undefined;
    if (!parsed?.ok || this.store.state.changeSets.get(runKey) !== info) {
      return;
    }
    const message = { type: 'reviewMarks', runKey, review: reviewView(await this.reviews.progress(runKey, parsed.files)) } as const;
    this.sidebar.post(message);
    this.tabs.post(runKey, message);
  }

  /**
   * The run's change set as it is now, to the views that show it (after an Undo or a Redo, or a toggle on a hunk the
   * agent had changed meanwhile); a view that shows something else ignores it.
   */
  async refreshShown(runKey: string): Promise<void> {
    const run = this.store.state.runs.get(runKey);
    const info = this.store.state.changeSets.get(runKey);
    const message = run && info?.status === 'ready' ? await this.messageOf(run, info, true) : undefined;
    if (message) {
      this.sidebar.post(message);
      this.tabs.post(runKey, message);
    }
  }

  /**
   * The run's change set rendered in the transcript (the run is selected), then in the multi-diff editor; or a
   * message saying why it is not ready.
   */
  async show(run: RunInfo): Promise<void> {
    await this.residency.ensureLoaded(run.key);
    // A run that is still open (an interactive run waiting for input) may have changed files since the last
    // answer: recompute its editor-computed change set first, so this shows the working tree as it is now.
    if (isActiveRun(run)) {
      await this.connections.driver(run.connectionId)?.refreshChangeSet?.(run.runId);
    }
    this.selection.select(run.key);
    await this.sidebar.reveal();
    const info = this.store.state.changeSets.get(run.key);
    if (info?.status === 'ready') {
      // The rendered diff in the transcript view, then (as before) the native multi-diff editor. A patch still
      // being read says so meanwhile (the side panel does too) rather than holding the host until it is.
      const reading = changeSetRead(info).reading === true ? vscode.window.setStatusBarMessage(`$(sync~spin) Reading the change set of "${run.title}"…`) : undefined;
      const message = await this.messageOf(run, info).finally(() => reading?.dispose());
      if (message) {
        this.sidebar.showChangeSet(message);
        this.tabs.showChangeSet(message); // also in the run's editor tab, if it has one
      }
      const cs = await readyChangeSetOf(this.store, run);
      if (cs) {
        await this.openAll(cs);
      }
    } else if (info) {
      void vscode.window.showWarningMessage(`The change set of "${run.title}" is ${info.status === 'capturing' ? 'still being captured' : info.status}${info.reason ? `: ${info.reason}` : '.'}`);
    }
  }

  /** `openAll` for the run of `runKey`, if its change set is ready (else a message says why not). */
  async openAllOf(runKey: string): Promise<number | undefined> {
    await this.residency.ensureLoaded(runKey);
    const run = this.store.state.runs.get(runKey);
    const cs = run && (await readyChangeSetOf(this.store, run));
    return cs ? this.openAll(cs) : undefined;
  }

  /** Every file's diff in the multi-diff editor; says how many files it showed. */
  async openAll(cs: ReadyChangeSet): Promise<number> {
    if (cs.files.length === 0) {
      void vscode.window.showInformationMessage(`The run "${cs.run.title}" changed no files.`);
      return 0;
    }
    const where = await changeSetTarget(this.store, cs.run.key);
    const resources = cs.files.map((file, index) => [
      where ? workspaceUri(where, file.newPath) : this.documents.uriFor(cs.run.key, index, file, 'after'),
      file.status === 'added' ? undefined : this.documents.uriFor(cs.run.key, index, file, 'before'),
      file.status === 'deleted' ? undefined : this.documents.uriFor(cs.run.key, index, file, 'after'),
    ]);
    await vscode.commands.executeCommand('vscode.changes', `Changes of "${cs.run.title}"`, resources);
    return cs.files.length;
  }

  /** One file's diff, before ↔ after the run (`index` into `cs.files`). */
  async openFileDiff(cs: ReadyChangeSet, index: number): Promise<void> {
    const file = cs.files[index];
    if (!file) {
      return;
    }
    const sides = await this.documents.fileSides(cs.run.key, cs.info, index);
    const note = sides && (sides.leftFrom === 'patch' || sides.rightFrom === 'patch') ? ' — partial: from the patch' : '';
    await vscode.commands.executeCommand(
      'vscode.diff',
      this.documents.uriFor(cs.run.key, index, file, 'before'),
      this.documents.uriFor(cs.run.key, index, file, 'after'),
      `${fileLabel(file)}: before ↔ after the run${note}`,
      { preview: false },
    );
  }
}

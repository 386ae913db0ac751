/**
 * One transcript webview bound to a run source: the sidebar view follows the selection, an editor tab shows one fixed
 * run. Host side of the ready → snapshot → patches handshake: nothing is posted before the webview says `ready`; then
 * it gets a snapshot of its run and, from then on, the store's patches for that run coalesced into one message per
 * tick (O(delta), never the whole transcript). The composer draft comes with the snapshot and goes back to the
 * shared DraftStore, so every surface of a run shows the same draft (one that is not being typed in follows live).
 */
import type * as vscode from 'vscode';
import type { PatchEvent, RunStore } from '../../model/runStore';
import type { ChangeSetMessage, DaemonActionButton, HostToWebview, RunSummary, WebviewToHost } from '../../protocol/webviewMessages';
import { hostToWebviewSchema, webviewToHostSchema } from '../../protocol/webviewMessages';
import { Disposable } from '../disposable';
import type { DraftStore } from '../draftStore';
import { locateApproval, tailWindow } from '../../model/transcriptWindow';
import { runSummaryOf } from '../runSummary';
import { onDidReadChangeSet } from '../changeSets/changeSetReading';
import { PatchCoalescer } from './patchCoalescer';
import { loadTranscriptWebview } from './transcriptWebview';
import { answerViewRequest } from './viewRequests';
import type { ViewRequest } from './viewRequests';
import type { RunResidency } from '../runResidency';
import type { ReviewNoteStore } from '../reviewNotes/reviewNoteStore';

/** A webview request the command layer carries out; each names the run it acts on. */
export type TranscriptActionMessage = Exclude<WebviewToHost, { type: 'ready' | 'resync' | 'draft' | 'range' | 'find' | 'locate' }>;

/** What the webview can ask the host to do; implemented by the command layer. */
export interface TranscriptActions {
  handle(message: TranscriptActionMessage): Promise<void>;
  /** The header buttons of the daemon's own actions that apply to the run now. */
  headerButtons(runKey: string): readonly DaemonActionButton[];
}

/** Which run a surface shows: the selection's (sidebar) or always the same one (an editor tab). */
export type RunSource = { readonly kind: 'selection'; readonly runKey: () => string | undefined } | { readonly kind: 'fixed'; readonly runKey: string };

/** What every surface shares. */
export interface SurfaceDeps {
  readonly extensionUri: vscode.Uri;
  readonly store: RunStore;
  readonly actions: TranscriptActions;
  readonly drafts: DraftStore;
  readonly log: vscode.LogOutputChannel;
  /** Loads a run shown from its summary when this surface shows it (runResidency.ts); absent in tests without it. */
  readonly residency?: Pick<RunResidency, 'ensureLoaded' | 'isUnloaded'>;
  /** The runs' notes to the agent, shown in the change-set view (absent in tests without them). */
  readonly notes?: Pick<ReviewNoteStore, 'notes' | 'onDidChange'>;
}

export class TranscriptSurface extends Disposable {
  private ready = false;
  private readonly coalescer = new PatchCoalescer(() => this.flush());
  private lastSummaryJson = '';
  /** A change set to show once the (just revealed) webview is ready and has the run's snapshot. */
  private pendingChangeSet: ChangeSetMessage | undefined;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly source: RunSource,
    private readonly deps: SurfaceDeps,
  ) {
    super();
    loadTranscriptWebview(webview, deps.extensionUri);
    this._register(webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)));
    this._register(deps.store.onDidPatch((event) => this.onPatch(event)));
    this._register(deps.store.onDidChange(() => this.onStoreChange()));
    // A change set's patch read in slices ended: its side panel goes from "reading…" to its files.
    this._register(onDidReadChangeSet(() => this.onStoreChange()));
    this._register(
      deps.drafts.onDidChange((change) => {
        // Another surface of this run typed or sent: keep this one's composer in step.
        if (change.origin !== this && change.runKey === this.runKey) {
          this.post({ type: 'draft', runKey: change.runKey, text: change.text });
        }
      }),
    );
    if (deps.notes) {
      this._register(
        deps.notes.onDidChange((change) => {
          if (change.runKey === this.runKey) {
            this.postValidated({ type: 'reviewNotes', runKey: change.runKey, notes: [...change.notes] });
          }
        }),
      );
    }
    this._register({ dispose: () => this.cancelFlush() });
  }

  /** The run shown now. */
  get runKey(): string | undefined {
    return this.source.kind === 'fixed' ? this.source.runKey : this.source.runKey();
  }

  /** The webview said `ready` and has been sent its snapshot. */
  get isReady(): boolean {
    return this.ready;
  }

  post(message: HostToWebview): void {
    if (this.ready && !this.isDisposed) {
      void this.webview.postMessage(message);
    }
  }

  /** The source's run changed (the selection moved): repaint from a fresh snapshot. */
  runChanged(): void {
    this.sendSnapshot();
  }

  /** Scrolls the view to the card of `approvalId` if it is in the shown run (*Next Approval*). */
  revealApproval(approvalId: string): void {
    const runKey = this.runKey;
    const transcript = runKey ? this.deps.store.transcript(runKey) : undefined;
    const at = transcript ? locateApproval(transcript, approvalId) : undefined;
    if (runKey && at) {
      this.post({ type: 'revealItem', runKey, index: at.index, id: at.id });
    }
  }

  /**
   * Shows a run's change set (file list and rendered diff) in place of the transcript. The run should be the shown
   * one; if the webview is not ready yet (it is being revealed), the message waits for its first snapshot.
   */
  showChangeSet(message: ChangeSetMessage): void {
    if (!this.ready) {
      this.pendingChangeSet = message;
      return;
    }
    this.pendingChangeSet = undefined;
    this.postValidated(message);
    this.postNotes(message.runKey);
  }

  /** The run's notes to the agent, after its change set (the view shows them on their lines). */
  private postNotes(runKey: string): void {
    void this.deps.notes?.notes(runKey).then((notes) => {
      if (!this.isDisposed && this.runKey === runKey) {
        this.postValidated({ type: 'reviewNotes', runKey, notes: [...notes] });
      }
    });
  }

  private onMessage(raw: unknown): void {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn(`Ignored a malformed message from the transcript view: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        this.sendSnapshot();
        const changeSet = this.pendingChangeSet;
        this.pendingChangeSet = undefined;
        if (changeSet && changeSet.runKey === this.runKey) {
          this.postValidated(changeSet);
          this.postNotes(changeSet.runKey);
        }
        return;
      }
      case 'resync':
        this.sendSnapshot();
        return;
      case 'draft':
        this.deps.drafts.set(message.runKey, message.text, this);
        return;
      case 'range':
      case 'find':
      case 'locate':
        this.answer(message);
        return;
      default:
        if (message.type === 'send') {
          // The composer emptied itself when it sent: so does the draft every other surface of the run gets.
          this.deps.drafts.set(message.runKey, '', this);
        }
        this.deps.actions.handle(message).catch((error: unknown) => {
          const text = error instanceof Error ? error.message : String(error);
          this.deps.log.error(`Transcript action ${message.type} failed: ${text}`);
          this.post({ type: 'toast', level: 'error', text });
        });
    }
  }

  /** A question about the run the view has not loaded (extension/ui/transcript/viewRequests.ts). */
  private answer(message: ViewRequest): void {
    const runKey = this.runKey;
    if (!runKey) {
      return;
    }
    // A search answers turns later (it runs in slices of the event loop): by then the view may show another run.
    void answerViewRequest(message, runKey, this.deps.store.transcript(runKey)).then((answer) => {
      if (answer && !this.isDisposed && this.runKey === runKey) {
        // Items come "as of" the transcript's sequence: the patches before it must reach the view first.
        this.flush();
        this.postValidated(answer);
      }
    });
  }

  private sendSnapshot(): void {
    this.cancelFlush();
    if (!this.ready) {
      return;
    }
    const runKey = this.runKey;
    if (runKey && this.deps.residency?.isUnloaded(runKey)) {
      // Its transcript is on disk only: shown empty now, whole once it is replayed (a fresh snapshot then).
      void this.deps.residency.ensureLoaded(runKey).then(() => {
        if (this.runKey === runKey && !this.isDisposed) {
          this.sendSnapshot();
        }
      });
    }
    const run = this.summary(runKey);
    // The tail only (O(screen), whatever the run's length): the view asks for the rest as the user scrolls.
    const window = tailWindow(run && runKey ? this.deps.store.transcript(runKey) : undefined);
    this.lastSummaryJson = JSON.stringify(run);
    this.postValidated({
      type: 'snapshot',
      run,
      items: window.items,
      start: window.start,
      total: window.total,
      kinds: window.kinds,
      seq: window.seq,
      ...(run ? { draft: this.deps.drafts.get(run.key) } : {}),
      ...(this.source.kind === 'fixed' ? { tabRunKey: this.source.runKey } : {}),
    });
  }

  private summary(runKey: string | undefined): RunSummary | null {
    return runKey ? runSummaryOf(this.deps.store.state, runKey, this.deps.actions.headerButtons(runKey)) : null;
  }

  private onPatch(event: PatchEvent): void {
    if (!this.ready || event.runKey !== this.runKey || this.lastSummaryJson === 'null') {
      return; // a run the webview does not show yet gets its snapshot when its summary appears
    }
    this.coalescer.add(event.seq, event.patch);
  }

  /** Sends what the coalescer holds: one `patches` message, or (after a huge burst) a fresh snapshot. */
  private flush(): void {
    const runKey = this.runKey;
    const output = this.coalescer.take();
    if (!runKey || output.kind === 'none') {
      return;
    }
    if (output.kind === 'snapshot') {
      this.sendSnapshot();
      return;
    }
    this.post({ type: 'patches', runKey, firstSeq: output.firstSeq, patches: output.patches });
  }

  private cancelFlush(): void {
    this.coalescer.clear();
  }

  private onStoreChange(): void {
    const runKey = this.runKey;
    if (!runKey || !this.ready) {
      return;
    }
    const run = this.summary(runKey);
    const json = JSON.stringify(run);
    if (json === this.lastSummaryJson) {
      return;
    }
    if ((run === null) !== (this.lastSummaryJson === 'null')) {
      // The run appeared (an editor tab restored before its run was) or went away: start from a snapshot.
      this.sendSnapshot();
      return;
    }
    if (run) {
      this.lastSummaryJson = json;
      // Patches queued before this header change go first so the webview sees them in order.
      this.flush();
      this.post({ type: 'run', run });
    }
  }

  /** Snapshots carry agent data of every shape; validate to catch model bugs early. */
  private postValidated(message: HostToWebview): void {
    const parsed = hostToWebviewSchema.safeParse(message);
    if (!parsed.success) {
      this.deps.log.error(`Refusing to post an invalid ${message.type} to the transcript view: ${parsed.error.issues[0]?.message}`);
      return;
    }
    this.post(message);
  }
}

/**
 * The "Transcript" webview view. Host side of the ready → snapshot → patches handshake: nothing is posted before
 * the webview says `ready`; then it gets a snapshot of the selected run and, from then on, the store's patches for
 * that run coalesced into one message per tick (O(delta), never the whole transcript). Reopening the view resolves
 * it again and repaints from a fresh snapshot (no retainContextWhenHidden).
 */
import * as vscode from 'vscode';
import type { PatchEvent, RunStore } from '../model/runStore';
import { runSummaryOf } from './runSummary';
import type { TranscriptPatch } from '../protocol/transcriptTypes';
import type { ChangeSetMessage, DaemonActionButton, HostToWebview, RunSummary, WebviewToHost } from '../protocol/webviewMessages';
import { hostToWebviewSchema, webviewToHostSchema } from '../protocol/webviewMessages';
import { Disposable } from './disposable';
import type { RunSelection } from './runSelection';
import { renderWebviewHtml } from './webviewHtml';

/** What the webview can ask the host to do; implemented by the command layer. */
export interface TranscriptActions {
  handle(message: Exclude<WebviewToHost, { type: 'ready' | 'resync' }>): Promise<void>;
  /** The header buttons of the daemon's own actions that apply to the run now. */
  headerButtons(runKey: string): readonly DaemonActionButton[];
}

export class TranscriptViewProvider extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewType = 'agentSwitchboard.transcript';

  private view: vscode.WebviewView | undefined;
  private ready = false;
  private pending: TranscriptPatch[] = [];
  private pendingFirstSeq = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSummaryJson = '';
  /** A change set to show once the (just revealed) webview is ready and has the run's snapshot. */
  private pendingChangeSet: ChangeSetMessage | undefined;
  private readonly viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: RunStore,
    private readonly selection: RunSelection,
    private readonly actions: TranscriptActions,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(store.onDidPatch((event) => this.onPatch(event)));
    this._register(store.onDidChange(() => this.postSummaryIfChanged()));
    this._register(selection.onDidChange(() => this.sendSnapshot()));
    this._register({ dispose: () => this.disposeView() });
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const mediaUri = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [distUri, mediaUri] };
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'webview.js')).toString(),
      styleUris: [
        view.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'codicons', 'codicon.css')).toString(),
        view.webview.asWebviewUri(vscode.Uri.joinPath(mediaUri, 'transcript.css')).toString(),
      ],
      title: 'Agent transcript',
    });
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
      }),
    );
  }

  /** Reveals the view (and the sidebar) without stealing focus unless asked. */
  async reveal(focus = false): Promise<void> {
    await vscode.commands.executeCommand(`${TranscriptViewProvider.viewType}.focus`);
    if (!focus) {
      this.view?.show(true);
    }
  }

  post(message: HostToWebview): void {
    if (!this.view || !this.ready) {
      return;
    }
    void this.view.webview.postMessage(message);
  }

  /**
   * Shows a run's change set (file list and rendered diff) in place of the transcript. The run should be the
   * selected one; if the view is not ready yet (it is being revealed), the message waits for its first snapshot.
   */
  showChangeSet(message: ChangeSetMessage): void {
    if (!this.view || !this.ready) {
      this.pendingChangeSet = message;
      return;
    }
    this.pendingChangeSet = undefined;
    this.postValidated(message);
  }

  private onMessage(raw: unknown): void {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Ignored a malformed message from the transcript view: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        this.sendSnapshot();
        const changeSet = this.pendingChangeSet;
        this.pendingChangeSet = undefined;
        if (changeSet && changeSet.runKey === this.selection.runKey) {
          this.postValidated(changeSet);
        }
        return;
      }
      case 'resync':
        this.sendSnapshot();
        return;
      default:
        this.actions.handle(message).catch((error: unknown) => {
          const text = error instanceof Error ? error.message : String(error);
          this.log.error(`Transcript action ${message.type} failed: ${text}`);
          this.post({ type: 'toast', level: 'error', text });
        });
    }
  }

  private sendSnapshot(): void {
    this.cancelFlush();
    const runKey = this.selection.runKey;
    const transcript = runKey ? this.store.transcript(runKey) : undefined;
    const run = runKey ? runSummaryOf(this.store.state, runKey, this.actions.headerButtons(runKey)) : null;
    this.lastSummaryJson = JSON.stringify(run);
    this.postValidated({ type: 'snapshot', run, items: transcript?.snapshot() ?? [], seq: transcript?.seq ?? 0 });
  }

  private onPatch(event: PatchEvent): void {
    if (!this.ready || event.runKey !== this.selection.runKey) {
      return;
    }
    if (this.pending.length === 0) {
      this.pendingFirstSeq = event.seq;
    }
    this.pending.push(event.patch);
    // Coalesce: a burst of deltas becomes one message; 16 ms keeps streaming at display rate.
    this.flushTimer ??= setTimeout(() => this.flush(), 16);
  }

  private flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    const runKey = this.selection.runKey;
    if (!runKey || this.pending.length === 0) {
      this.pending = [];
      return;
    }
    const patches = this.pending;
    this.pending = [];
    this.post({ type: 'patches', runKey, firstSeq: this.pendingFirstSeq, patches });
  }

  private cancelFlush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    this.pending = [];
  }

  private postSummaryIfChanged(): void {
    const runKey = this.selection.runKey;
    if (!runKey || !this.ready) {
      return;
    }
    const run: RunSummary | null = runSummaryOf(this.store.state, runKey, this.actions.headerButtons(runKey));
    const json = JSON.stringify(run);
    if (run && json !== this.lastSummaryJson) {
      this.lastSummaryJson = json;
      // Patches queued before this header change go first so the webview sees them in order.
      this.flush();
      this.post({ type: 'run', run });
    }
  }

  /** Snapshots carry agent data of every shape; validate in development builds to catch model bugs early. */
  private postValidated(message: HostToWebview): void {
    const parsed = hostToWebviewSchema.safeParse(message);
    if (!parsed.success) {
      this.log.error(`Refusing to post an invalid ${message.type} to the transcript view: ${parsed.error.issues[0]?.message}`);
      return;
    }
    this.post(message);
  }

  private disposeView(): void {
    this.cancelFlush();
    for (const d of this.viewDisposables.splice(0)) {
      d.dispose();
    }
  }
}

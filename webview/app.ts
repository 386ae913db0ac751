/**
 * The whole webview UI: header, transcript (or, while shown, a run's change set), queue, composer, toasts and the
 * empty state. Receives already validated host messages (from main.ts), keeps the transcript store in sequence and
 * asks for a resync when it cannot, and renders once per animation frame.
 */
import type { HostToWebview, RunSummary, WebviewToHost } from '../extension/protocol/webviewMessages';
import { ChangeSetView } from './changeSetView';
import { Composer } from './composer';
import { codicon, h } from './dom';
import { FrameScheduler } from './frameScheduler';
import { Header } from './header';
import { installLinkGuard } from './linkGuard';
import { PanelsView } from './panelsView';
import { QueueView } from './queueView';
import { stateDisplay } from './runStateDisplay';
import { Toasts } from './toasts';
import { TranscriptStore } from './transcriptStore';
import { TranscriptView } from './transcriptView';
import type { UiStateStore } from './uiState';

type Message<T extends HostToWebview['type']> = Extract<HostToWebview, { type: T }>;

/** Do not repeat a resync request sooner than this while the snapshot is outstanding. */
const RESYNC_RETRY_MS = 2_000;
const EMPTY_TEXT = "No run selected — pick one in Connections or run 'Agent Switchboard: New Run…'";
/** An editor tab restored before its run (runs come back from storage, connections reconnect). */
const WAITING_TEXT = 'Waiting for this run — it appears once Agent Switchboard has restored it or its connection is back.';

export class App {
  private readonly store = new TranscriptStore();
  private readonly frames = new FrameScheduler(() => {
    this.transcript.flush();
    this.changeSet.layout();
  });
  private readonly header: Header;
  private readonly transcript: TranscriptView;
  private readonly queue: QueueView;
  private readonly panels: PanelsView;
  /** A change set shown in place of the transcript (and the side panels) until the user goes back. */
  private readonly changeSet: ChangeSetView;
  private readonly composer: Composer;
  private readonly toasts = new Toasts();
  private readonly empty: HTMLElement;
  private readonly emptyText: HTMLElement;
  /** When we last asked for a snapshot and have not received one yet. */
  private resyncRequestedAt: number | null = null;
  /** Asks again while the snapshot is outstanding: a lost answer must not leave the view waiting for ever. */
  private resyncRetry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly uiState: UiStateStore,
    private readonly post: (message: WebviewToHost) => void,
  ) {
    this.header = new Header({
      showChangeSet: (runKey) => this.post({ type: 'showChangeSet', runKey }),
      daemonAction: (runKey, command) => this.post({ type: 'daemonAction', runKey, command }),
      revealPendingApproval: () => this.revealPendingApproval(),
    });
    this.transcript = new TranscriptView({ store: this.store, uiState, post, requestFrame: () => this.frames.schedule() });
    this.queue = new QueueView(post);
    this.panels = new PanelsView(post);
    this.changeSet = new ChangeSetView({ post, requestFrame: () => this.frames.schedule(), onClose: () => this.closeChangeSet() });
    this.composer = new Composer(post);
    this.emptyText = h('p', null, EMPTY_TEXT);
    this.empty = h('div', { id: 'empty-state', class: 'empty-state' }, codicon('comment-discussion'), this.emptyText);
    root.replaceChildren(
      this.header.element,
      this.panels.element,
      this.transcript.element,
      this.changeSet.element,
      this.empty,
      this.queue.element,
      this.composer.element,
      this.toasts.element,
      this.toasts.announcer,
    );
    installLinkGuard(document, (href) => this.post({ type: 'openLink', href }));
    // Escape with nothing focused (e.g. after a click on plain text) also leaves the change set.
    document.addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
        event.preventDefault(); // the transcript's own find: the browser's would only see the rows on screen
        this.openFind();
        return;
      }
      if (event.key === 'Escape' && this.changeSet.isOpen && (event.target === document.body || event.target === document.documentElement)) {
        this.closeChangeSet();
      }
    });
    const leaving = (): void => {
      this.uiState.flush();
      this.composer.flushDraft();
    };
    window.addEventListener('pagehide', leaving);
    // A hidden view's page is discarded (no retainContextWhenHidden): report the draft before it goes.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') {
        leaving();
      }
    });
    this.renderRun(null);
  }

  snapshot(message: Message<'snapshot'>): void {
    this.resyncRequestedAt = null;
    clearTimeout(this.resyncRetry);
    this.resyncRetry = undefined;
    const previous = this.store.run;
    if (this.changeSet.isOpen && this.changeSet.runKey !== message.run?.key) {
      this.closeChangeSet(false); // another run is shown now
    }
    this.uiState.setTabRunKey(message.tabRunKey);
    this.emptyText.textContent = message.tabRunKey !== undefined ? WAITING_TEXT : EMPTY_TEXT;
    this.store.reset(message.run, message);
    this.composer.restoreDraft(message.draft ?? '');
    this.renderRun(message.run, previous);
    this.frames.schedule();
  }

  patches(message: Message<'patches'>): void {
    if (message.runKey !== this.store.runKey) {
      return;
    } // for a run no longer shown; its snapshot is on the way
    if (this.resyncRequestedAt !== null) {
      this.requestResync(`waiting for a snapshot`);
      return;
    }
    const result = this.store.applyPatches(message.firstSeq, message.patches);
    this.frames.schedule();
    if (!result.ok) {
      this.requestResync(result.reason);
    }
  }

  run(message: Message<'run'>): void {
    const previous = this.store.run;
    if (this.store.setRun(message.run)) {
      this.renderRun(message.run, previous);
      if (previous?.noContinue !== message.run.noContinue) {
        this.transcript.refreshKind('checkpoint'); // their *Continue from here* follows the connection
      }
    }
  }

  /** The host shows a change set: it replaces the transcript until Back or Escape. */
  showChangeSet(message: Message<'changeSet'>): void {
    if (message.runKey !== this.store.runKey) {
      return; // for a run no longer shown
    }
    if (message.refresh === true && this.changeSet.runKey !== message.runKey) {
      return; // an update of a change set this view does not show (any more)
    }
    this.root.classList.add('showing-change-set');
    this.changeSet.open(message);
    this.toasts.announce(`Showing the change set: ${message.files.length} file${message.files.length === 1 ? '' : 's'}`);
  }

  /** The pending notes to the agent of a run: the change-set view shows them on their lines. */
  showNotes(message: Message<'reviewNotes'>): void {
    this.changeSet.showNotes(message);
  }

  /** The review marks of a change set changed: the shown one's follow. */
  reviewMarks(message: Message<'reviewMarks'>): void {
    this.changeSet.updateReview(message.runKey, message.review);
  }

  private closeChangeSet(restoreFocus = true): void {
    if (!this.changeSet.isOpen) {
      return;
    }
    this.changeSet.close();
    this.root.classList.remove('showing-change-set');
    this.frames.schedule();
    if (restoreFocus) {
      (document.getElementById('run-change-set') ?? document.getElementById('transcript'))?.focus();
    }
  }

  focusComposer(insert?: string): void {
    if (insert !== undefined) {
      this.composer.insert(insert);
    }
    this.composer.focus();
  }

  /** Another view of the run changed the draft. */
  draft(message: Message<'draft'>): void {
    this.composer.offerDraft(message.runKey, message.text);
  }

  toast(message: Message<'toast'>): void {
    this.toasts.show(message.level, message.text);
  }

  private renderRun(run: RunSummary | null, previous: RunSummary | null = null): void {
    this.empty.hidden = run !== null;
    this.transcript.element.hidden = run === null;
    this.header.render(run);
    this.queue.render(run);
    this.panels.render(run);
    this.composer.render(run);
    if (run && previous && previous.key === run.key) {
      if (previous.state !== run.state || previous.changeSetRefused !== run.changeSetRefused) {
        this.toasts.announce(`Run: ${stateDisplay(run).label.toLowerCase()}`);
      } else if (run.pendingApprovals > previous.pendingApprovals) {
        this.toasts.announce('Approval requested');
      }
    }
  }

  /** Something went wrong while handling a message: start over from a fresh snapshot. */
  recover(reason: string): void {
    this.requestResync(reason);
  }

  private requestResync(reason: string): void {
    const now = Date.now();
    if (this.resyncRequestedAt !== null && now - this.resyncRequestedAt < RESYNC_RETRY_MS) {
      return;
    }
    console.warn(`[switchboard] transcript out of sync (${reason}); requesting a snapshot`);
    this.resyncRequestedAt = now;
    this.post({ type: 'resync', runKey: this.store.runKey });
    clearTimeout(this.resyncRetry);
    this.resyncRetry = setTimeout(() => {
      if (this.resyncRequestedAt !== null) {
        this.requestResync('no snapshot came');
      }
    }, RESYNC_RETRY_MS);
  }

  /** The host located an item (*Next Approval*, the pending-approval button, an "in reply to" link). */
  revealItem(message: Message<'revealItem'>): void {
    if (message.runKey === this.store.runKey) {
      this.transcript.revealIndex(message.index, message.id);
    }
  }

  /** The host's answer to a `range` request. */
  items(message: Message<'items'>): void {
    if (message.runKey !== this.store.runKey || this.resyncRequestedAt !== null) {
      return; // for another run, or the snapshot that replaces everything is on the way
    }
    this.transcript.loadRange(message.start, message.items, message.seq);
    this.frames.schedule();
  }

  findResult(message: Message<'findResult'>): void {
    if (message.runKey === this.store.runKey) {
      this.transcript.find.result(message.query, message.matchCase, message.hits, message.truncated);
    }
  }

  /** Ctrl/Cmd+F in the view, or *Find in Transcript* from the palette. */
  openFind(): void {
    if (this.store.run && !this.changeSet.isOpen) {
      this.transcript.find.open();
    }
  }

  private revealPendingApproval(): void {
    const runKey = this.store.runKey;
    if (runKey) {
      this.post({ type: 'locate', runKey, target: { kind: 'pendingApproval' } });
    }
  }
}

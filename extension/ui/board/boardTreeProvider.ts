/**
 * The "Runs" board: every run of every connection grouped Needs you / Working / Done (model/boardGroups.ts), as a
 * native tree so it is keyboard-first and accessible. Store changes arrive once per event while runs stream, so the
 * projection is debounced; when only rows changed, only those rows are re-rendered. Elapsed times tick only while the
 * view is visible, on live rows without children (a row with requests under it says since when it waits: its redraw
 * would redraw their Allow / Deny under a click), and the timer wakes when a text would change (each second for the
 * first minute, then on the minute), never on an idle board.
 */
import * as vscode from 'vscode';
import type { BoardSources } from '../../model/boardGroups';
import { boardGroups, DEFAULT_DONE_LIMIT, DEFAULT_FAILED_WINDOW_MS } from '../../model/boardGroups';
import type { BoardGroup, BoardGroupId, PlacedRow } from '../../model/boardRows';
import { boardStructure, isNestedRow, placedRows, ticksElapsed } from '../../model/boardRows';
import type { ReviewMarksStore } from '../changeSets/reviewMarks';
import { BoardTicker } from './boardTicker';
import { lastOutputLine } from '../../model/lastOutputLine';
import type { RunStore } from '../../model/runStore';
import { endedBadly, runLookOf } from '../../model/runLook';
import { Disposable } from '../disposable';
import type { BoardAcknowledgements } from './boardAcknowledgements';
import { changeStatsOf } from './boardChangeStats';
import { onDidReadChangeSet } from '../changeSets/changeSetReading';
import type { QuestionCounts } from './boardQuestions';
import type { BoardNode } from './boardItems';
import { approvalItem, goneItem, groupItem, olderItem, runItem, runItemContext } from './boardItems';
import { BoardNodes } from './boardNodes';
import type { BoardSeen } from './boardAway';
import { AwaySource } from './boardAway';

/** Long enough to fold a streaming burst into one render, short enough to feel immediate. */
const DEBOUNCE_MS = 150;
const DONE_PAGE = DEFAULT_DONE_LIMIT;

export class BoardTreeProvider extends Disposable implements vscode.TreeDataProvider<BoardNode> {
  private readonly treeEmitter = this._register(new vscode.EventEmitter<BoardNode | BoardNode[] | undefined>());
  readonly onDidChangeTreeData = this.treeEmitter.event;
  private readonly countEmitter = this._register(new vscode.EventEmitter<number>());
  /** The number of runs under Needs you, when it changes (the view's badge). */
  readonly onDidChangeNeedsYou = this.countEmitter.event;
  private groups: readonly BoardGroup[] = [];
  private rows = new Map<string, PlacedRow>();
  private structure = '';
  private needsYou = -1;
  private readonly nodes = new BoardNodes();
  private doneLimit = DONE_PAGE;
  private visible = false;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private readonly ticker = new BoardTicker(() => {
    this.treeEmitter.fire(this.tickingRows().map((e) => this.runNode(e.row.runKey)));
    this.updateTicker();
  });
  private readonly sources: BoardSources;
  private readonly away: AwaySource | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly canShowDiff: (approvalKey: string) => boolean,
    questions: QuestionCounts,
    private readonly acknowledged: BoardAcknowledgements,
    /** The review marks behind "N of M hunks reviewed" (absent in tests that do not need them). */
    reviews?: Pick<ReviewMarksStore, 'progressNow' | 'onDidChange'>,
    seen?: BoardSeen,
  ) {
    super();
    this.away = seen ? new AwaySource(store, seen) : undefined;
    this.sources = {
      away: (runKey) => this.away?.of(runKey),
      // A run shown from its summary (not loaded) has no transcript or change set in memory: its digest says them.
      lastLine: (runKey) => store.state.runs.get(runKey)?.unloaded?.lastLine ?? lastOutputLine(store.transcript(runKey)),
      changeStats: (runKey) => changeStatsOf(store.state.changeSets.get(runKey)) ?? store.state.runs.get(runKey)?.unloaded?.changes,
      questions: (runKey) => questions.count(runKey),
      ...(reviews ? { reviewProgress: (runKey: string) => reviews.progressNow(runKey, store.state.changeSets.get(runKey)) } : {}),
    };
    // Marks read or changed (here, in the change-set view, the native diff): the row's "N of M hunks reviewed".
    if (reviews) {
      this._register(reviews.onDidChange(() => this.schedule()));
    }
    this._register(questions.onDidChange(() => this.schedule()));
    if (seen) {
      this._register(seen.runs.onDidChange(() => this.schedule())); // a run marked seen loses its summary
    }
    // A change set's patch read in slices ended: its row's counts replace "reading changes…".
    this._register(onDidReadChangeSet(() => this.schedule()));
    const changes = store.onDidChange(() => this.schedule());
    // A patch changes only a last line, which nobody sees while the board is hidden.
    const patches = store.onDidPatch(() => this.visible && this.schedule());
    this._register({ dispose: () => (changes.dispose(), patches.dispose()) });
    this._register({ dispose: () => (this.stopDebounce(), this.ticker.stop()) });
    this.project();
  }

  /** The board's projection now (the integration tests read it). Flushes a pending refresh first. */
  snapshot(): readonly BoardGroup[] {
    this.flush();
    return this.groups;
  }

  /** Which group a run is in now, if it is on the board. */
  groupOf(runKey: string): BoardGroupId | undefined {
    this.flush();
    return this.rows.get(runKey)?.group;
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) {
      this.flush();
      this.treeEmitter.fire(undefined); // rows were not re-rendered for patches while hidden
    }
    this.updateTicker();
  }

  /** A run that ended badly leaves Needs you once the user looked at it or acted on it (for good: it is stored). */
  acknowledge(runKey: string): void {
    const run = this.store.state.runs.get(runKey);
    if (run && endedBadly(runLookOf(this.store.state, run)) && this.acknowledged.add(runKey)) {
      this.schedule();
    }
  }

  showOlder(): void {
    this.doneLimit += DONE_PAGE;
    this.flush();
    this.project();
  }

  groupNode(id: BoardGroupId): BoardNode {
    return this.nodes.group(id);
  }

  /** The run's node as it is drawn now (a new one when rows come or go under it: BoardNodes.run). */
  runNode(key: string): BoardNode {
    const entry = this.rows.get(key);
    return this.nodes.run(key, entry ? isNestedRow(entry.row) : false);
  }

  approvalNode(key: string, runKey: string): BoardNode {
    return this.nodes.approval(key, runKey);
  }

  getChildren(node?: BoardNode): BoardNode[] {
    if (!node) {
      return this.groups.filter((g) => g.rows.length > 0 || g.hidden > 0).map((g) => this.groupNode(g.id));
    }
    if (node.type === 'group') {
      const group = this.groups.find((g) => g.id === node.id);
      if (!group) {
        return [];
      }
      const rows = group.rows.map((r) => this.runNode(r.runKey));
      return group.hidden > 0 ? [...rows, this.nodes.older] : rows;
    }
    if (node.type === 'run') {
      const row = this.rows.get(node.key)?.row;
      return [...(row?.approvals ?? []).map((a) => this.approvalNode(a.key, node.key)), ...(row?.children ?? []).map((c) => this.runNode(c.runKey))];
    }
    return [];
  }

  getParent(node: BoardNode): BoardNode | undefined {
    switch (node.type) {
      case 'group':
        return undefined;
      case 'run': {
        const entry = this.rows.get(node.key);
        return entry?.parentKey ? this.runNode(entry.parentKey) : entry ? this.groupNode(entry.group) : undefined;
      }
      case 'approval':
        return this.rows.has(node.runKey) ? this.runNode(node.runKey) : undefined;
      case 'older':
        return this.groupNode('done');
      default: {
        const _exhaustive: never = node;
        return _exhaustive;
      }
    }
  }

  getTreeItem(node: BoardNode): vscode.TreeItem {
    switch (node.type) {
      case 'group': {
        const group = this.groups.find((g) => g.id === node.id);
        return group ? groupItem(group) : goneItem(node, '(empty)');
      }
      case 'run': {
        const row = this.rows.get(node.key)?.row;
        return row ? runItem(row, runItemContext(this.store.state, row), node.nested ?? false) : goneItem(node, '(removed)');
      }
      case 'approval': {
        const approval = this.rows.get(node.runKey)?.row.approvals.find((a) => a.key === node.key);
        return approval ? approvalItem(approval, this.canShowDiff(approval.key)) : goneItem(node, '(decided)');
      }
      case 'older':
        return olderItem(this.groups.find((g) => g.id === 'done')?.hidden ?? 0);
      default: {
        const _exhaustive: never = node;
        return _exhaustive;
      }
    }
  }

  private schedule(): void {
    this.debounce ??= setTimeout(() => {
      this.debounce = undefined;
      this.project();
    }, DEBOUNCE_MS);
  }

  /** Runs a pending refresh now (a command is about to reveal a row). */
  flush(): void {
    if (this.debounce) {
      this.stopDebounce();
      this.project();
    }
  }

  private project(): void {
    const groups = boardGroups(this.store.state, this.sources, {
      doneLimit: this.doneLimit,
      acknowledged: this.acknowledged.set,
      failedWindowMs: DEFAULT_FAILED_WINDOW_MS,
      now: Date.now(),
    });
    const rows = placedRows(groups);
    this.away?.projected(rows);
    // The tree's shape: which rows (and approval children) sit where. A change there re-renders everything;
    // otherwise only the rows whose content changed are sent.
    const structure = boardStructure(groups);
    const changed: BoardNode[] = [];
    if (structure === this.structure) {
      for (const [key, entry] of rows) {
        if (this.rows.get(key)?.signature !== entry.signature) {
          changed.push(this.runNode(key));
        }
      }
    }
    const restructured = structure !== this.structure;
    this.groups = groups;
    this.rows = rows;
    this.structure = structure;
    this.nodes.forgetGone(rows);
    if (restructured) {
      this.treeEmitter.fire(undefined);
    } else if (changed.length > 0) {
      this.treeEmitter.fire(changed);
    }
    const needsYou = groups[0]?.rows.length ?? 0;
    if (needsYou !== this.needsYou) {
      this.needsYou = needsYou;
      this.countEmitter.fire(needsYou);
    }
    this.updateTicker();
  }

  /** Ticks only while someone can see it and a ticking elapsed time is shown; wakes when a text would change. */
  private updateTicker(): void {
    this.ticker.schedule(this.visible ? this.tickingRows().map((e) => e.row.createdAt) : []);
  }

  /**
   * The rows a timer redraws: live leaves only (model/boardRows.ts `ticksElapsed`). A redraw of a row re-renders its
   * children, so a row with requests under it is never redrawn on a timer: a click on their Allow / Deny is not lost.
   */
  private tickingRows() {
    return [...this.rows.values()].filter((e) => e.group !== 'done' && ticksElapsed(e.row));
  }

  private stopDebounce(): void {
    if (this.debounce) {
      clearTimeout(this.debounce);
      this.debounce = undefined;
    }
  }
}

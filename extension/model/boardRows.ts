/**
 * The run board's rows as the view renders them: what a row holds (`BoardRow`, its "while you were away" part
 * `BoardAway`), the texts every surface writes the same way, and what the view compares to re-render only what
 * changed (a row's signature, where each row sits, the board's shape). Pure; the grouping is boardGroups.ts's.
 */
import type { RunState } from '../protocol/transcriptTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { ApprovalInfo, RunUsage } from './modelTypes';
import type { RunLook } from './runLook';
import { clockText, elapsedText } from './elapsedText';

export type BoardGroupId = 'needsYou' | 'working' | 'done';

/** Why a run is under *Needs you*, in the order the group lists them (`question`: its agent asks for input). */
export type BoardNeed = 'approval' | 'question' | 'message' | 'failed';

export interface ChangeStats {
  readonly added: number;
  readonly removed: number;
  /** The patch is still being read (the counts are not known yet). */
  readonly reading?: boolean;
}

/** How much of a run's change set the person marked reviewed (issue #26), in hunks (a file without hunks is one). */
export interface ReviewCount {
  readonly reviewed: number;
  readonly total: number;
}

export interface BoardRow {
  readonly runKey: string;
  readonly title: string;
  /** The daemon's product name ("AgencyProxy", "ACP"…), from the connection's protocol. */
  readonly daemon: string;
  readonly connectionName: string;
  readonly state: RunState;
  /** How it looks (model/runLook.ts): the tree and the transcript header show the same. */
  readonly look: RunLook;
  readonly stateDetail?: string;
  readonly createdAt: number;
  readonly need?: BoardNeed;
  /** Requests waiting for a person (`awaitsDecision`), oldest first. */
  readonly approvals: readonly ApprovalInfo[];
  /** Its connected daemon takes a message for it now (the composer's "send"). */
  readonly canReply: boolean;
  readonly changes?: ChangeStats;
  /** "N of M hunks reviewed" of its change set, once its patch and the marks are read. */
  readonly review?: ReviewCount;
  readonly lastLine?: string;
  /** Context use and cost, as the agent last reported them. */
  readonly usage?: RunUsage;
  /** What changed since the user last looked at it (files, by whom where runs share a tree). */
  readonly away?: BoardAway;
  /** Its subagents' rows (a child is shown under its parent, not in a group of its own), newest first. */
  readonly children?: readonly BoardRow[];
}

/** Who changed a file of a run's change set, where other runs worked in the same tree (changeAttribution.ts). */
export type FileAuthor =
  /** The run said it did (or its daemon delivered the change set), or no other run worked in the tree meanwhile. */
  | { readonly kind: 'self' }
  /** Another run said it did. */
  | { readonly kind: 'run'; readonly runKey: string; readonly title: string }
  /** Another run worked in the same tree meanwhile and no run said it did: who did it is a guess. */
  | { readonly kind: 'shared' };

/** A file changed since the user last looked at the run. */
export interface AwayFile {
  readonly path: string;
  /** Absent: the run itself (nobody else worked in the tree meanwhile). */
  readonly by?: Exclude<FileAuthor, { kind: 'self' }>;
}

/** What changed in a run since the user last looked at it (issue #26). */
export interface BoardAway {
  /** The files (at most `MAX_AWAY_FILES`, the newest first), with their authors where the tree is shared. */
  readonly files: readonly AwayFile[];
  /** How many files in all. */
  readonly count: number;
  /** When the user last looked (ms); absent: never since the run started. */
  readonly seenAt?: number;
}

/** Files an away summary names (the tooltip's list); the rest are counted. */
export const MAX_AWAY_FILES = 20;

export interface BoardGroup {
  readonly id: BoardGroupId;
  readonly label: string;
  readonly rows: readonly BoardRow[];
  /** Rows left out by the cap (only *Done* has one). */
  readonly hidden: number;
}

/** `+12 −3` (a real minus sign, as the change-set panel writes it). */
export function changeStatsText(stats: ChangeStats): string {
  if (stats.reading === true) {
    return 'reading changes…';
  }
  return `+${stats.added} \u2212${stats.removed}`;
}

/** `2 of 5 hunks reviewed`. */
export function reviewCountText(review: ReviewCount): string {
  return `${review.reviewed} of ${review.total} hunk${review.total === 1 ? '' : 's'} reviewed`;
}

/** Whether the row has rows under it (its requests, its subagents): its tree item is another one (boardItems.ts). */
export function isNestedRow(row: BoardRow): boolean {
  return row.approvals.length > 0 || (row.children?.length ?? 0) > 0;
}

/** Whether the run is still going (its time is how long it has been going, not how long ago it started). */
export function isLiveRow(row: BoardRow): boolean {
  return !isTerminalRunState(row.state) && row.state !== 'stopped';
}

/**
 * Whether the row's elapsed time ticks (the view redraws the row on a timer, while visible, when its text would
 * change). Only a live row without children: VS Code redraws a row's whole subtree with it (a refresh re-resolves its
 * children and re-renders them), so a tick would redraw its requests' inline Allow / Deny — and a click landing during
 * that redraw reaches nothing (a CI run lost one). Nor a row that needs the user (a question, a message awaited): its
 * own inline Reply / End are redrawn with it. Such a row says since when it waits (`rowTimeText`) instead: true
 * without ever being redrawn, so nothing but an event redraws it (a request asked or decided, its state, its output).
 */
export function ticksElapsed(row: BoardRow): boolean {
  return isLiveRow(row) && !isNestedRow(row) && row.need === undefined;
}

/**
 * The row's time: `42s` while it ticks; `waiting since 09:48` (its oldest request) or `started 09:48` for a live row
 * that does not tick; `3m ago` for a finished one (redrawn only with other changes).
 */
export function rowTimeText(row: BoardRow, now: number): string {
  if (!isLiveRow(row)) {
    return `${elapsedText(row.createdAt, now)} ago`;
  }
  if (ticksElapsed(row)) {
    return elapsedText(row.createdAt, now);
  }
  return row.approvals.length > 0 ? `waiting since ${clockText(Math.min(...row.approvals.map((a) => a.requestedAt)), now)}` : `started ${clockText(row.createdAt, now)}`;
}

/** Whether the row's times are clock times (`09:48`): a live row that does not tick is never redrawn with the time. */
export function showsClockTime(row: BoardRow): boolean {
  return isLiveRow(row) && !ticksElapsed(row);
}

/** The tooltip's "started …": how long ago while the row ticks (or is finished), else the clock time. */
export function startedText(row: BoardRow, now: number): string {
  return showsClockTime(row) ? `started ${clockText(row.createdAt, now)}` : `started ${elapsedText(row.createdAt, now)} ago`;
}

/** Everything a run row renders from: two projections with equal signatures render the same row. */
export function rowSignature(row: BoardRow): string {
  return JSON.stringify([
    row.title,
    row.state,
    row.look,
    row.stateDetail,
    row.need,
    row.canReply,
    row.changes,
    row.review,
    row.lastLine,
    row.connectionName,
    row.approvals.map((a) => [a.status, a.title, a.summary]),
    row.usage,
    row.away,
    row.children?.map(rowSignature),
  ]);
}

/** One row of the board, where it sits: its group, and its parent's row for a subagent's. */
export interface PlacedRow {
  readonly row: BoardRow;
  readonly group: BoardGroupId;
  readonly parentKey?: string;
  readonly signature: string;
}

/** Every row of the board by run key, subagents' rows included. */
export function placedRows(groups: readonly BoardGroup[]): Map<string, PlacedRow> {
  const rows = new Map<string, PlacedRow>();
  const place = (row: BoardRow, group: BoardGroupId, parentKey?: string): void => {
    rows.set(row.runKey, { row, group, signature: rowSignature(row), ...(parentKey ? { parentKey } : {}) });
    row.children?.forEach((child) => place(child, group, row.runKey));
  };
  for (const group of groups) {
    group.rows.forEach((row) => place(row, group.id));
  }
  return rows;
}

/** The board's shape (which rows and approval children sit where, and the cap): equal shapes re-render by row. */
export function boardStructure(groups: readonly BoardGroup[]): string {
  const shape = (r: BoardRow): string => `${r.runKey}[${r.approvals.map((a) => a.key).join(',')}]${r.children ? `{${r.children.map(shape).join('|')}}` : ''}`;
  return groups.map((g) => `${g.id}:${g.hidden}:${g.rows.map(shape).join('|')}`).join('\n');
}

/** What the run waits for from the person, in words ("your approval"…), or nothing. */
export function waitsForText(row: Pick<BoardRow, 'need'>): string | undefined {
  switch (row.need) {
    case 'approval':
      return 'your approval';
    case 'question':
      return 'your answer';
    case 'message':
      return 'your next message';
    default:
      return undefined;
  }
}

/** `3 files changed` (the row's words for its away summary). */
export function awayText(away: BoardAway): string {
  return `${away.count} file${away.count === 1 ? '' : 's'} changed`;
}

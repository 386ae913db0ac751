/**
 * The run board's projection: every run on every connection sorted into *Needs you* (approvals waiting for a
 * person, runs waiting for the user's next message, runs that failed and were not looked at yet), *Working* and
 * *Done* (most recent first, capped). Pure: the view (ui/board/boardTreeProvider.ts) renders it and decides when to
 * project again; what is expensive to derive (a change set's line counts, a transcript's last line) comes in through
 * `BoardSources` so the caller can cache it.
 */
import type { ProtocolName } from '../protocol/protocolNames';
import type { RunState } from '../protocol/transcriptTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { ApprovalInfo, ConnectionInfo, ModelState, RunInfo } from './modelTypes';
import { approvalKeyOf, awaitsDecision } from './modelTypes';

export type BoardGroupId = 'needsYou' | 'working' | 'done';

/** Why a run is under *Needs you*, in the order the group lists them. */
export type BoardNeed = 'approval' | 'message' | 'failed';

export interface ChangeStats {
  readonly added: number;
  readonly removed: number;
}

export interface BoardRow {
  readonly runKey: string;
  readonly title: string;
  /** The daemon's product name ("AgencyProxy", "ACP"…), from the connection's protocol. */
  readonly daemon: string;
  readonly connectionName: string;
  readonly state: RunState;
  readonly stateDetail?: string;
  readonly createdAt: number;
  readonly need?: BoardNeed;
  /** Requests waiting for a person (`awaitsDecision`), oldest first. */
  readonly approvals: readonly ApprovalInfo[];
  /** Its connected daemon takes a message for it now (the composer's "send"). */
  readonly canReply: boolean;
  readonly changes?: ChangeStats;
  readonly lastLine?: string;
}

export interface BoardGroup {
  readonly id: BoardGroupId;
  readonly label: string;
  readonly rows: readonly BoardRow[];
  /** Rows left out by the cap (only *Done* has one). */
  readonly hidden: number;
}

export interface BoardSources {
  /** The last line of the run's output, cheap to ask (see model/lastOutputLine.ts). */
  lastLine(runKey: string): string | undefined;
  /** `+N −M` of the run's ready change set, when it has one. */
  changeStats(runKey: string): ChangeStats | undefined;
}

export interface BoardOptions {
  /** How many *Done* rows to show; the rest are counted in `hidden`. */
  readonly doneLimit: number;
  /** Failed/lost/interrupted runs the user has looked at since: they go to *Done*. */
  readonly acknowledged: ReadonlySet<string>;
  /** A failed run started longer ago than this is *Done*, looked at or not. */
  readonly failedWindowMs: number;
  readonly now: number;
}

export const DEFAULT_DONE_LIMIT = 20;
export const DEFAULT_FAILED_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How each protocol's daemon is called on the board (the connection name is the user's own). */
export const DAEMON_LABELS: Readonly<Record<ProtocolName, string>> = {
  'agency-proxy': 'AgencyProxy',
  scv: 'SCV',
  a3s: 'A3S Code',
  hive: 'hyperhive',
  acp: 'ACP',
};

export const GROUP_LABELS: Readonly<Record<BoardGroupId, string>> = { needsYou: 'Needs you', working: 'Working', done: 'Done' };

const FAILED_STATES: readonly RunState[] = ['failed', 'lost', 'interrupted'];
const NEED_ORDER: Readonly<Record<BoardNeed, number>> = { approval: 0, message: 1, failed: 2 };

/** The three groups, always in the order Needs you, Working, Done (empty ones included: the view may hide them). */
export function boardGroups(state: ModelState, sources: BoardSources, options: BoardOptions): readonly BoardGroup[] {
  const needsYou: BoardRow[] = [];
  const working: BoardRow[] = [];
  const done: BoardRow[] = [];
  for (const run of state.runs.values()) {
    const connection = state.connections.get(run.connectionId);
    if (!connection) {
      continue; // a run lives only as long as its connection's profile
    }
    const approvals = waitingApprovals(state, run);
    const canReply = acceptsMessage(connection, run);
    const need = needOf(run, approvals, connection, options);
    const row = rowOf(run, connection, approvals, canReply, need, sources);
    if (need) {
      needsYou.push(row);
    } else if (isTerminalRunState(run.state) || run.state === 'stopped' || run.state === 'idle') {
      done.push(row);
    } else {
      working.push(row);
    }
  }
  needsYou.sort(
    (a, b) => NEED_ORDER[a.need!] - NEED_ORDER[b.need!] || oldestRequest(a) - oldestRequest(b) || b.createdAt - a.createdAt || a.runKey.localeCompare(b.runKey),
  );
  const newestFirst = (a: BoardRow, b: BoardRow): number => b.createdAt - a.createdAt || a.runKey.localeCompare(b.runKey);
  working.sort(newestFirst);
  done.sort(newestFirst);
  const limit = Math.max(0, options.doneLimit);
  return [
    { id: 'needsYou', label: GROUP_LABELS.needsYou, rows: needsYou, hidden: 0 },
    { id: 'working', label: GROUP_LABELS.working, rows: working, hidden: 0 },
    { id: 'done', label: GROUP_LABELS.done, rows: done.slice(0, limit), hidden: Math.max(0, done.length - limit) },
  ];
}

/** The approvals of a run that wait for a person, oldest first. */
export function waitingApprovals(state: ModelState, run: RunInfo): ApprovalInfo[] {
  const out: ApprovalInfo[] = [];
  for (const id of run.pendingApprovals) {
    const approval = state.approvals.get(approvalKeyOf(run.key, id));
    if (approval && awaitsDecision(approval)) {
      out.push(approval);
    }
  }
  return out.sort((a, b) => a.requestedAt - b.requestedAt);
}

/** The same rule as the composer's "send" (ui/runSummary.ts): connected, not ended, and the daemon takes messages. */
export function acceptsMessage(connection: ConnectionInfo, run: RunInfo): boolean {
  const active = !isTerminalRunState(run.state) && run.state !== 'stopped';
  const takes = connection.capabilities.includes('run.inject') || connection.capabilities.includes('run.queue') || connection.capabilities.includes('hive.operatorMessage');
  return connection.state.kind === 'connected' && active && takes;
}

function needOf(run: RunInfo, approvals: readonly ApprovalInfo[], connection: ConnectionInfo, options: BoardOptions): BoardNeed | undefined {
  if (approvals.length > 0) {
    return 'approval';
  }
  // `idle` = the answer is complete and the run waits for the user (an interactive run, an ACP or SCV session). On
  // a daemon that takes no message it cannot be answered from here: it is simply done for now.
  if (run.state === 'idle' && acceptsMessage(connection, run)) {
    return 'message';
  }
  if (FAILED_STATES.includes(run.state) && !options.acknowledged.has(run.key) && options.now - run.createdAt <= options.failedWindowMs) {
    return 'failed';
  }
  return undefined;
}

function rowOf(
  run: RunInfo,
  connection: ConnectionInfo,
  approvals: readonly ApprovalInfo[],
  canReply: boolean,
  need: BoardNeed | undefined,
  sources: BoardSources,
): BoardRow {
  const changes = sources.changeStats(run.key);
  const lastLine = sources.lastLine(run.key);
  return {
    runKey: run.key,
    title: run.title,
    daemon: DAEMON_LABELS[connection.protocol] ?? connection.protocol,
    connectionName: connection.name,
    state: run.state,
    ...(run.stateDetail ? { stateDetail: run.stateDetail } : {}),
    createdAt: run.createdAt,
    ...(need ? { need } : {}),
    approvals,
    canReply,
    ...(changes ? { changes } : {}),
    ...(lastLine ? { lastLine } : {}),
  };
}

function oldestRequest(row: BoardRow): number {
  return row.approvals[0]?.requestedAt ?? 0;
}

/** `+12 −3` (a real minus sign, as the change-set panel writes it). */
export function changeStatsText(stats: ChangeStats): string {
  return `+${stats.added} \u2212${stats.removed}`;
}

/** How long ago `since` was, compactly: `42s`, `3m`, `1h 5m`, `2d 4h`. */
export function elapsedText(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) {
    return `${seconds}s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes}m`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
  }
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d ${hours % 24}h`;
}

/** Whether the row's elapsed time is still counting (the view refreshes those, and only while visible). */
export function isLiveRow(row: BoardRow): boolean {
  return !isTerminalRunState(row.state) && row.state !== 'stopped';
}

/** Milliseconds until `elapsedText` of a run this old shows something else (seconds, then minutes). */
export function untilNextChange(ageMs: number): number {
  const age = Math.max(0, ageMs);
  const step = age < 60_000 ? 1000 : 60_000;
  return step - (age % step) + 20;
}

/** Everything a run row renders from: two projections with equal signatures render the same row. */
export function rowSignature(row: BoardRow): string {
  return JSON.stringify([
    row.title,
    row.state,
    row.stateDetail,
    row.need,
    row.canReply,
    row.changes,
    row.lastLine,
    row.connectionName,
    row.approvals.map((a) => [a.status, a.title, a.summary]),
  ]);
}

/** The board's shape (which rows and approval children sit where, and the cap): equal shapes re-render by row. */
export function boardStructure(groups: readonly BoardGroup[]): string {
  return groups.map((g) => `${g.id}:${g.hidden}:${g.rows.map((r) => `${r.runKey}[${r.approvals.map((a) => a.key).join(',')}]`).join('|')}`).join('\n');
}

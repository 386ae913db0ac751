/**
 * The run board's projection: every run on every connection sorted into *Needs you*, *Working* and *Done* (most
 * recent first, capped). *Needs you* holds only what the user can act on now (`needOf`, the one definition: the
 * view's badge counts the same rows): an approval the daemon still waits for, an agent's question, a run that waits
 * for the user's next message on a connection that takes it, and a run that ended badly (failed, lost, or its change
 * set refused) that the user has not looked at or acted on yet. An *interrupted* run is not there: the reload or
 * the restart that interrupted it left nothing to decide (SCV offers its leftover prompts on its own), and a lost
 * run the user continued in a new run was acted on. Pure: the view (ui/board/boardTreeProvider.ts) renders it and decides when to
 * project again; what is expensive to derive (a change set's line counts, a transcript's last line) comes in through
 * `BoardSources` so the caller can cache it.
 */
import type { ProtocolName } from '../protocol/protocolNames';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { ApprovalInfo, ConnectionInfo, ModelState, RunInfo } from './modelTypes';
import type { BoardAway, BoardGroup, BoardGroupId, BoardNeed, BoardRow, ChangeStats, ReviewCount } from './boardRows';
import { awaitsDecision } from './modelTypes';
import { approvalKeyOf, runKeyOf } from './runKeys';
import type { RunLook } from './runLook';
import { endedBadly, runLookOf } from './runLook';

export interface BoardSources {
  /** The last line of the run's output, cheap to ask (see model/lastOutputLine.ts). */
  lastLine(runKey: string): string | undefined;
  /** `+N −M` of the run's ready change set, when it has one. */
  changeStats(runKey: string): ChangeStats | undefined;
  /** How many of its change set's hunks are reviewed, when that is known (ui/changeSets/reviewMarks.ts). */
  reviewProgress?(runKey: string): ReviewCount | undefined;
  /**
   * How many questions of the run's agent wait for the person's answer (ACP `elicitation/create`). They live with
   * the driver, not in the store, as the agent's request itself does: gone with the agent process.
   */
  questions(runKey: string): number;
  /** What changed since the user last looked at the run (ui/board/boardAway.ts); absent: nothing to say. */
  away?(runKey: string): BoardAway | undefined;
}

export interface BoardOptions {
  /** How many *Done* rows to show; the rest, and the finished runs not in the model, are counted in `hidden`. */
  readonly doneLimit: number;
  /** Runs that ended badly which the user has looked at or acted on since: they go to *Done*. */
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

const NEED_ORDER: Readonly<Record<BoardNeed, number>> = { approval: 0, question: 1, message: 2, failed: 3 };

/**
 * The three groups, always in the order Needs you, Working, Done (empty ones included: the view may hide them). Every
 * run is sorted into its group, but only the rows shown are built (a *Done* run past the cap costs its sort, not its
 * row, last line or change stats): a board over 1,000 stored runs builds the same twenty-odd rows as over ten.
 */
export function boardGroups(state: ModelState, sources: BoardSources, options: BoardOptions): readonly BoardGroup[] {
  const needsYou: BoardRow[] = [];
  const working: BoardRow[] = [];
  const done: Placed[] = [];
  const children = childRows(state, sources, options);
  for (const run of state.runs.values()) {
    const connection = state.connections.get(run.connectionId);
    if (!connection || parentOf(state, run)) {
      continue; // a run lives only as long as its connection's profile; a subagent's row is under its parent's
    }
    const approvals = waitingApprovals(state, run);
    const kids = children.get(run.key);
    const look = runLookOf(state, run);
    // A subagent that waits for a decision or an answer puts its parent under Needs you (the request is under the
    // child's row).
    const need = needOf(run, look, approvals, connection, options, sources) ?? kids?.map((k) => k.need).find((n) => n === 'approval' || n === 'question');
    const placed: Placed = { run, look, connection, approvals, need, kids };
    if (need) {
      needsYou.push(fullRow(placed, sources));
    } else if (isTerminalRunState(run.state) || run.state === 'stopped' || run.state === 'idle') {
      done.push(placed);
    } else {
      working.push(fullRow(placed, sources));
    }
  }
  needsYou.sort(
    (a, b) => NEED_ORDER[a.need!] - NEED_ORDER[b.need!] || oldestRequest(a) - oldestRequest(b) || b.createdAt - a.createdAt || a.runKey.localeCompare(b.runKey),
  );
  const newestFirst = (a: { createdAt: number; key: string }, b: { createdAt: number; key: string }): number => b.createdAt - a.createdAt || a.key.localeCompare(b.key);
  working.sort((a, b) => newestFirst({ createdAt: a.createdAt, key: a.runKey }, { createdAt: b.createdAt, key: b.runKey }));
  done.sort((a, b) => newestFirst(a.run, b.run));
  const limit = Math.max(0, options.doneLimit);
  const shown = (rows: readonly BoardRow[]) => withAway(rows, sources);
  // Finished runs stored but older than what the model holds (drivers/kit/olderRuns.ts) are Done runs too: counted in
  // the "N older runs…" row, which loads them a page at a time.
  let older = 0;
  for (const connection of state.connections.values()) {
    older += connection.olderRuns ?? 0;
  }
  return [
    { id: 'needsYou', label: GROUP_LABELS.needsYou, rows: shown(needsYou), hidden: 0 },
    { id: 'working', label: GROUP_LABELS.working, rows: shown(working), hidden: 0 },
    { id: 'done', label: GROUP_LABELS.done, rows: shown(done.slice(0, limit).map((placed) => fullRow(placed, sources))), hidden: Math.max(0, done.length - limit) + older },
  ];
}

/** A top-level run sorted into its group, its row not built yet. */
interface Placed {
  readonly run: RunInfo;
  readonly look: RunLook;
  readonly connection: ConnectionInfo;
  readonly approvals: readonly ApprovalInfo[];
  readonly need: BoardNeed | undefined;
  readonly kids: readonly BoardRow[] | undefined;
}

function fullRow({ run, look, connection, approvals, need, kids }: Placed, sources: BoardSources): BoardRow {
  return { ...rowOf(run, look, connection, approvals, acceptsMessage(connection, run), need, sources), ...(kids ? { children: kids } : {}) };
}

/** The rows shown, with what changed since the user looked: asked for those only (a capped-off run costs nothing). */
function withAway(rows: readonly BoardRow[], sources: BoardSources): BoardRow[] {
  return rows.map((row) => {
    const away = sources.away?.(row.runKey);
    const children = row.children ? withAway(row.children, sources) : undefined;
    return { ...row, ...(away ? { away } : {}), ...(children ? { children } : {}) };
  });
}

/** The run a subagent belongs to, when it is in the store (a child whose parent is gone is shown on its own). */
function parentOf(state: ModelState, run: RunInfo): RunInfo | undefined {
  return run.parentRunId !== undefined ? state.runs.get(runKeyOf(run.connectionId, run.parentRunId)) : undefined;
}

/** Each parent's subagent rows, newest first. */
function childRows(state: ModelState, sources: BoardSources, options: BoardOptions): Map<string, BoardRow[]> {
  const byParent = new Map<string, BoardRow[]>();
  for (const run of state.runs.values()) {
    const parent = parentOf(state, run);
    const connection = state.connections.get(run.connectionId);
    if (!parent || !connection) {
      continue;
    }
    const approvals = waitingApprovals(state, run);
    const look = runLookOf(state, run);
    const row = rowOf(run, look, connection, approvals, acceptsMessage(connection, run), needOf(run, look, approvals, connection, options, sources), sources);
    byParent.set(parent.key, [...(byParent.get(parent.key) ?? []), row]);
  }
  for (const rows of byParent.values()) {
    rows.sort((a, b) => b.createdAt - a.createdAt || a.runKey.localeCompare(b.runKey));
  }
  return byParent;
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
  if (run.parentRunId !== undefined) {
    return false; // a subagent takes its instructions from its parent session
  }
  const active = !isTerminalRunState(run.state) && run.state !== 'stopped';
  const takes = connection.capabilities.includes('run.inject') || connection.capabilities.includes('run.queue') || connection.capabilities.includes('hive.operatorMessage');
  return connection.state.kind === 'connected' && active && takes;
}

/**
 * Why the run is under *Needs you*, if it is: the one definition of what the user can act on now (module comment).
 * Exported for the views that count or list the same set.
 */
export function needOf(run: RunInfo, look: RunLook, approvals: readonly ApprovalInfo[], connection: ConnectionInfo, options: BoardOptions, sources: BoardSources): BoardNeed | undefined {
  if (approvals.length > 0) {
    return 'approval';
  }
  // The agent's turn is blocked on the answer: the run shows as running, but nothing moves until the person answers.
  if (sources.questions(run.key) > 0) {
    return 'question';
  }
  // `idle` = the answer is complete and the run waits for the user (an interactive run, an ACP or SCV session). On
  // a daemon that takes no message it cannot be answered from here: it is simply done for now.
  if (run.state === 'idle' && acceptsMessage(connection, run)) {
    return 'message';
  }
  if (endedBadly(look) && !options.acknowledged.has(run.key) && options.now - run.createdAt <= options.failedWindowMs) {
    return 'failed';
  }
  return undefined;
}

function rowOf(
  run: RunInfo,
  look: RunLook,
  connection: ConnectionInfo,
  approvals: readonly ApprovalInfo[],
  canReply: boolean,
  need: BoardNeed | undefined,
  sources: BoardSources,
): BoardRow {
  const changes = sources.changeStats(run.key);
  const review = sources.reviewProgress?.(run.key);
  const lastLine = sources.lastLine(run.key);
  return {
    runKey: run.key,
    title: run.title,
    daemon: DAEMON_LABELS[connection.protocol] ?? connection.protocol,
    connectionName: connection.name,
    state: run.state,
    look,
    ...(run.stateDetail ? { stateDetail: run.stateDetail } : {}),
    createdAt: run.createdAt,
    ...(need ? { need } : {}),
    approvals,
    canReply,
    ...(changes ? { changes } : {}),
    ...(review && review.total > 0 ? { review } : {}),
    ...(lastLine ? { lastLine } : {}),
    ...(run.usage ? { usage: run.usage } : {}),
  };
}

function oldestRequest(row: BoardRow): number {
  return row.approvals[0]?.requestedAt ?? 0;
}


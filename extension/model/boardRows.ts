/**
 * Where the board's rows sit and whether they changed (model/boardGroups.ts projects them): the view compares two
 * projections by their structure (which rows sit where) and by each row's signature, so that a refresh re-renders
 * only the rows whose content changed. Pure.
 */
import type { BoardGroup, BoardGroupId, BoardRow } from './boardGroups';

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

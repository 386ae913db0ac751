/**
 * The rows under a connection in the Connections tree. Most daemons: one row per run, newest first. SCV: a
 * session is a run, and every reconnect or new session adds one under the same name ("SCV session — <folder>"),
 * so sessions are grouped by name — the live one first, two or more ended ones under one collapsed row. Pure.
 */
import type { RunInfo } from '../model/modelTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';

export type SessionRow =
  | { readonly kind: 'run'; readonly key: string }
  /** Ended sessions of one name, newest first; shown collapsed. */
  | { readonly kind: 'ended'; readonly title: string; readonly keys: readonly string[] };

/** The rows of one connection's runs; `grouped`: the daemon's runs are sessions that pile up under one name. */
export function sessionRows(runs: readonly RunInfo[], grouped: boolean): SessionRow[] {
  const newestFirst = [...runs].sort((a, b) => b.createdAt - a.createdAt);
  if (!grouped) {
    return newestFirst.map((r) => ({ kind: 'run', key: r.key }));
  }
  // Map keeps insertion order: groups come in the order of their newest session.
  const byTitle = new Map<string, RunInfo[]>();
  for (const run of newestFirst) {
    const group = byTitle.get(run.title) ?? [];
    group.push(run);
    byTitle.set(run.title, group);
  }
  const rows: SessionRow[] = [];
  for (const [title, group] of byTitle) {
    const ended = group.filter((r) => isTerminalRunState(r.state));
    const live = group.filter((r) => !isTerminalRunState(r.state));
    rows.push(...live.map((r): SessionRow => ({ kind: 'run', key: r.key })));
    // One ended session beside the live one stays a row of its own: only a pile is folded away.
    if (ended.length < 2) {
      rows.push(...ended.map((r): SessionRow => ({ kind: 'run', key: r.key })));
    } else {
      rows.push({ kind: 'ended', title, keys: ended.map((r) => r.key) });
    }
  }
  return rows;
}

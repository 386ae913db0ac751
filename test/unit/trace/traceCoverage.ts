/**
 * Trace coverage (issue 13 §4): which client message kinds of each protocol a protocol trace holds, against the
 * list the spec itself gives. The required kinds are read from WIRE.md's tables (so a kind added to the spec is
 * required here without editing this file):
 *   AgencyProxy 1.4 client frames, plus each `decide_approval` decision and each `shutdown` mode;
 *   SCV 2.4 client messages, except `session.attach` ("not supported; do not send");
 *   A3S 3.3 command actions (start, cancel, recover);
 *   hive 4.3 requests an operator sends (the table minus the agent-side calls listed in AGENT_ONLY_HIVE);
 *   ACP (not in WIRE.md: the SDK's method list is the spec) the agent methods the client calls, and both answers
 *   to a permission request (selected, cancelled).
 */
import type { TraceProtocol } from '../../../extension/transport/protocolTrace';

export type KindsByProtocol = Record<TraceProtocol, readonly string[]>;

/** What an ACP client sends: the agent methods Agent Switchboard calls, and its answers to permission requests. */
export const ACP_CLIENT_KINDS: readonly string[] = [
  'initialize', 'authenticate', 'session/new', 'session/load', 'session/prompt', 'session/cancel', 'session/set_mode', 'session/set_config_option',
  'request_permission:selected', 'request_permission:cancelled',
];

/** hive 4.3 requests only an agent makes about its own work (inbox, todos, status line, turn acks): not operator. */
export const AGENT_ONLY_HIVE: readonly string[] = [
  'recv', 'wake', 'remind', 'upsert_todo', 'clear_todo', 'set_status', 'create_repo', 'ack_turn', 'ack_until', 'requeue_inflight', 'graceful_stop_complete',
];

/** The lines of the markdown section that starts with `### <number>`, up to the next heading. */
function section(wire: string, number: string): string[] {
  const lines = wire.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`### ${number} `));
  if (start < 0) {
    throw new Error(`WIRE.md has no section ${number}`);
  }
  const end = lines.findIndex((l, i) => i > start && l.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The backticked names in the first column of the section's first table (after an optional "**privileged:**"). */
function firstColumn(wire: string, number: string): { name: string; row: string }[] {
  const rows: { name: string; row: string }[] = [];
  const lines = section(wire, number);
  for (const [i, row] of lines.entries()) {
    const m = /^\|\s*(?:\*\*privileged:\*\*\s*)?(`[^|]+)\|/.exec(row);
    // The header row (followed by the `|---|` separator) names the column, not a message.
    if (!m || lines[i + 1]?.startsWith('|---')) {
      if (rows.length > 0 && !row.startsWith('|')) {
        break;
      }
      continue;
    }
    for (const name of m[1]!.matchAll(/`([^`]+)`/g)) {
      rows.push({ name: name[1]!, row });
    }
  }
  return rows;
}

export function requiredKinds(wire: string): KindsByProtocol {
  const agency = firstColumn(wire, '1.4').map((r) => r.name);
  const decide = firstColumn(wire, '1.4').find((r) => r.name === 'decide_approval')!.row;
  const decisions = [...decide.matchAll(/"(allow_once|allow_similar|deny)"/g)].map((m) => `decide_approval:${m[1]}`);
  const shutdown = firstColumn(wire, '1.4').find((r) => r.name === 'shutdown')!.row;
  const modes = [...shutdown.matchAll(/"(drain|terminate)"/g)].map((m) => `shutdown:${m[1]}`);
  const scv = firstColumn(wire, '2.4')
    .filter((r) => !/do not send/.test(r.row))
    .map((r) => r.name);
  const a3s = firstColumn(wire, '3.3').map((r) => r.name);
  const hive = firstColumn(wire, '4.3')
    .map((r) => r.name)
    .filter((n) => !AGENT_ONLY_HIVE.includes(n));
  return { 'agency-proxy': [...agency, ...decisions, ...modes], scv, a3s, hive, acp: ACP_CLIENT_KINDS };
}

interface TraceLine {
  readonly protocol?: string;
  readonly dir?: string;
  readonly frame?: Record<string, unknown>;
  readonly http?: { readonly path?: string };
}

/** The client message kind of one traced outgoing frame, or undefined (incoming, or not a client message). */
export function kindsOf(line: TraceLine): string[] {
  const f = line.frame;
  if (line.dir !== 'out' || f === null || typeof f !== 'object') {
    return [];
  }
  switch (line.protocol) {
    case 'agency-proxy': {
      const type = typeof f.type === 'string' ? f.type : undefined;
      if (type === 'decide_approval' && typeof f.decision === 'string') {
        return [type, `${type}:${f.decision}`];
      }
      if (type === 'shutdown' && typeof f.mode === 'string') {
        return [type, `${type}:${f.mode}`];
      }
      return type ? [type] : [];
    }
    case 'scv':
      return typeof f.type === 'string' ? [f.type] : [];
    case 'a3s':
      return line.http?.path === '/v1/agent/commands' && typeof f.action === 'string' ? [f.action] : [];
    case 'hive':
      return typeof f.cmd === 'string' ? [f.cmd] : [];
    case 'acp': {
      if (typeof f.method === 'string') {
        return [f.method];
      }
      const outcome = (f.result as { outcome?: { outcome?: unknown } } | undefined)?.outcome?.outcome;
      return typeof outcome === 'string' ? [`request_permission:${outcome}`] : [];
    }
    default:
      return [];
  }
}

export interface Coverage {
  readonly seen: Record<string, Set<string>>;
  readonly missing: KindsByProtocol;
  /** Lines that were not JSON (a trace written by two processes at once would show here). */
  readonly badLines: number;
}

export function coverage(trace: string, required: KindsByProtocol): Coverage {
  const seen: Record<string, Set<string>> = {};
  let badLines = 0;
  for (const text of trace.split('\n')) {
    if (text.trim() === '') {
      continue;
    }
    let line: TraceLine;
    try {
      line = JSON.parse(text) as TraceLine;
    } catch {
      badLines += 1;
      continue;
    }
    for (const kind of kindsOf(line)) {
      (seen[line.protocol!] ??= new Set()).add(kind);
    }
  }
  const gaps = (protocol: keyof KindsByProtocol) => required[protocol].filter((k) => !seen[protocol]?.has(k));
  const missing: KindsByProtocol = { 'agency-proxy': gaps('agency-proxy'), scv: gaps('scv'), a3s: gaps('a3s'), hive: gaps('hive'), acp: gaps('acp') };
  return { seen, missing, badLines };
}

/**
 * Trace coverage (issue 13 §4): which client message kinds of each protocol a protocol trace holds, against the
 * list our protocol reference gives. The required kinds are read from the `## Client messages` table of each page
 * in docs/protocols/ (so a message added to a table is required here without editing this file; the format is
 * described in docs/protocols/README.md):
 *   AgencyProxy: every client frame, plus each `decide_approval` decision and each `shutdown` mode;
 *   SCV: every client message except `session.attach` ("do not send");
 *   A3S: the command actions (start, cancel, recover);
 *   hive: the requests an operator sends (the rows not marked "agent only");
 *   ACP (no page: the SDK's method list is the spec) the agent methods the client calls, and both answers to a
 *   permission request (selected, cancelled).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceProtocol } from '../../../extension/transport/protocolTrace';

export type KindsByProtocol = Record<TraceProtocol, readonly string[]>;

/** The text of each protocol's reference page (docs/protocols/<file>). */
export interface ProtocolDocs {
  readonly agencyProxy: string;
  readonly scv: string;
  readonly a3s: string;
  readonly hive: string;
}

/** Where the reference pages are: inside this repository, never beside it. */
export const PROTOCOL_DOCS_DIR = join(__dirname, '..', '..', '..', 'docs', 'protocols');

export const PROTOCOL_DOC_FILES: Readonly<Record<keyof ProtocolDocs, string>> = {
  agencyProxy: 'agency-proxy.md',
  scv: 'scv.md',
  a3s: 'a3s.md',
  hive: 'hive.md',
};

export function readProtocolDocs(dir: string = PROTOCOL_DOCS_DIR): ProtocolDocs {
  const read = (key: keyof ProtocolDocs): string => readFileSync(join(dir, PROTOCOL_DOC_FILES[key]), 'utf8');
  return { agencyProxy: read('agencyProxy'), scv: read('scv'), a3s: read('a3s'), hive: read('hive') };
}

/** What an ACP client sends: the agent methods Agent Switchboard calls, and its answers to permission requests. */
export const ACP_CLIENT_KINDS: readonly string[] = [
  'initialize', 'authenticate', 'session/new', 'session/load', 'session/prompt', 'session/cancel', 'session/set_mode', 'session/set_config_option',
  'session/resume', 'session/list', 'session/close', 'session/fork',
  'request_permission:selected', 'request_permission:cancelled',
];

export const CLIENT_MESSAGES_HEADING = '## Client messages';

/** A client-message row that names something a client must not send, or that only the agent itself sends. */
const NOT_REQUIRED = /do not send|agent only/;

interface Row {
  readonly name: string;
  readonly row: string;
}

/** The lines of the page's `## Client messages` section, up to the next heading of any level. */
function clientMessagesSection(doc: string, page: string): string[] {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.trim() === CLIENT_MESSAGES_HEADING);
  if (start < 0) {
    throw new Error(`${page} has no "${CLIENT_MESSAGES_HEADING}" section`);
  }
  const end = lines.findIndex((l, i) => i > start && l.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The backticked names in the first column of the section's first table, one entry per name. */
function clientMessageRows(doc: string, page: string): Row[] {
  const rows: Row[] = [];
  const lines = clientMessagesSection(doc, page);
  for (const [i, row] of lines.entries()) {
    const m = /^\|\s*(`[^|]+)\|/.exec(row);
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
  if (rows.length === 0) {
    throw new Error(`${page}: the "${CLIENT_MESSAGES_HEADING}" section has no table of backticked message names`);
  }
  return rows;
}

/** `<message>:<value>` for each value listed as "`field`: one of `a`, `b`, `c`" in that message's row. */
function valueKinds(rows: readonly Row[], message: string, field: string, page: string): string[] {
  const row = rows.find((r) => r.name === message)?.row;
  const list = row && new RegExp(`\`${field}\`: one of ((?:\`[^\`]+\`(?:, | or )?)+)`).exec(row)?.[1];
  if (!list) {
    throw new Error(`${page}: the \`${message}\` row lists no "\`${field}\`: one of …" values`);
  }
  return [...list.matchAll(/`([^`]+)`/g)].map((v) => `${message}:${v[1]}`);
}

/** Every message a page's client-message table names, and whether a trace must hold it. */
export function clientMessageTable(doc: string, page: string): { readonly name: string; readonly required: boolean }[] {
  return clientMessageRows(doc, page).map((r) => ({ name: r.name, required: !NOT_REQUIRED.test(r.row) }));
}

export function requiredKinds(docs: ProtocolDocs): KindsByProtocol {
  const required = (doc: string, page: string): Row[] => clientMessageRows(doc, page).filter((r) => !NOT_REQUIRED.test(r.row));
  const agency = required(docs.agencyProxy, PROTOCOL_DOC_FILES.agencyProxy);
  const decisions = valueKinds(agency, 'decide_approval', 'decision', PROTOCOL_DOC_FILES.agencyProxy);
  const modes = valueKinds(agency, 'shutdown', 'mode', PROTOCOL_DOC_FILES.agencyProxy);
  return {
    'agency-proxy': [...agency.map((r) => r.name), ...decisions, ...modes],
    scv: required(docs.scv, PROTOCOL_DOC_FILES.scv).map((r) => r.name),
    a3s: required(docs.a3s, PROTOCOL_DOC_FILES.a3s).map((r) => r.name),
    hive: required(docs.hive, PROTOCOL_DOC_FILES.hive).map((r) => r.name),
    acp: ACP_CLIENT_KINDS,
  };
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

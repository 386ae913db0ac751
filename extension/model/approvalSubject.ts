/**
 * The subject of an approval (tool, files, shell command) read from a tool's input as the daemons send it. Each
 * driver names the tool from its protocol and passes the input it has; the field names are the ones the agents'
 * tools use (Claude Code `file_path`/`command`, Codex `path`/`cmd` arrays, ACP `rawInput`). Pure; input untrusted.
 */
import type { ApprovalSubject } from '../protocol/transcriptTypes';

const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'notebookPath'] as const;
const PATHS_KEYS = ['paths', 'files', 'file_paths'] as const;
const COMMAND_KEYS = ['command', 'cmd'] as const;
/** Bounds what a rule may be built from: a subject is shown and matched, never a store of agent output. */
const MAX_PATHS = 50;
const MAX_TEXT = 2000;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_TEXT) : undefined;
}

/** `git diff`/`*** Begin Patch` headers name the files of a patch; `/dev/null` (a created or deleted side) does not. */
function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split('\n')) {
    const m = /^(?:\+\+\+ (?:b\/)?|\*\*\* (?:Add|Update|Delete) File: )(.+)$/.exec(line);
    const file = m?.[1]?.trim();
    if (file && file !== '/dev/null' && !out.includes(file)) {
      out.push(file);
    }
  }
  return out;
}

function commandOf(r: Record<string, unknown>): string | undefined {
  for (const key of COMMAND_KEYS) {
    const value = r[key];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      // Codex sends argv, often wrapped in a shell: `["bash", "-lc", "npm test"]` runs `npm test`.
      const argv = value as string[];
      const wrapped = argv.length === 3 && /^(ba|z|)sh$/.test(argv[0]!.replace(/^.*\//, '')) && argv[1]!.startsWith('-') && argv[1]!.includes('c');
      return text(wrapped ? argv[2] : argv.join(' '));
    }
    const one = text(value);
    if (one !== undefined) {
      return one;
    }
  }
  return undefined;
}

/** The subject of a request for `tool` with `input`, with `extraPaths` the protocol names beside the input. */
export function subjectOf(tool: string, input: unknown, extraPaths: readonly string[] = []): ApprovalSubject {
  const paths: string[] = [...extraPaths];
  let command: string | undefined;
  const r = record(input);
  if (r) {
    for (const key of PATH_KEYS) {
      const p = text(r[key]);
      if (p !== undefined) {
        paths.push(p);
      }
    }
    for (const key of PATHS_KEYS) {
      const list = r[key];
      if (Array.isArray(list)) {
        paths.push(...list.flatMap((p) => (typeof p === 'string' ? [p] : [])));
      }
    }
    const patch = text(r.patch) ?? text(r.diff);
    if (patch !== undefined) {
      paths.push(...patchPaths(patch));
    }
    command = commandOf(r);
  } else if (typeof input === 'string' && /^(---|diff --git|\*\*\* Begin Patch)/m.test(input)) {
    paths.push(...patchPaths(input));
  }
  const unique = [...new Set(paths.filter((p) => p.trim() !== ''))].slice(0, MAX_PATHS);
  return {
    tool: tool.trim().slice(0, 200) || 'tool',
    ...(unique.length > 0 ? { paths: unique } : {}),
    ...(command !== undefined ? { command } : {}),
  };
}

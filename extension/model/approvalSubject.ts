/**
 * The subject of an approval (tool, files, shell command) read from a tool's input as the daemons send it. Each
 * driver names the tool from its protocol and passes the input it has; the field names are the ones the agents'
 * tools use (Claude Code `file_path`/`command`, Codex `path`/`cmd` arrays, ACP `rawInput`). Pure; input untrusted.
 *
 * A subject is bounded (it is shown and matched, never a store of agent output), and it says whether it holds the
 * whole request: one that was cut or could not be read is marked incomplete, and no approval rule matches it or is
 * proposed from it (model/approvalRules.ts), since a rule would then answer for what nobody saw.
 */
import type { ApprovalSubject } from '../protocol/transcriptTypes';
import { patchFileNames } from './patchFileNames';

const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'notebookPath'] as const;
const PATHS_KEYS = ['paths', 'files', 'file_paths'] as const;
const COMMAND_KEYS = ['command', 'cmd'] as const;
const PATCH_KEYS = ['patch', 'diff'] as const;
const MAX_PATHS = 50;
const MAX_TEXT = 2000;
const MAX_TOOL = 200;
/** Codex runs argv `["bash", "-lc", "npm test"]`: short options of which one is `-c` (not `-o`, which takes a value). */
const SHELL_WRAPPER = /^(?:ba|z|)sh$/;
const SHELL_WRAPPER_OPTIONS = /^-[elxuv]*c[elxuv]*$/;
/** Argv words that read the same in a shell unquoted. */
const PLAIN_ARG = /^[A-Za-z0-9_@%+=:,./-]+$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Collects what was read and whether all of it was. */
class Reading {
  readonly paths: string[] = [];
  command: string | undefined;
  complete = true;

  /** `value` bounded to MAX_TEXT; a longer one is kept cut (for display) and makes the subject incomplete. */
  bounded(value: string): string {
    if (value.length > MAX_TEXT) {
      this.complete = false;
      return value.slice(0, MAX_TEXT);
    }
    return value;
  }

  path(value: unknown): void {
    if (typeof value === 'string') {
      if (value.trim() !== '') {
        this.paths.push(this.bounded(value));
      }
    } else if (value !== undefined && value !== null) {
      this.complete = false;
    }
  }

  pathList(value: unknown): void {
    if (Array.isArray(value)) {
      value.forEach((p) => this.path(p));
    } else if (value !== undefined && value !== null) {
      this.complete = false;
    }
  }

  patch(value: unknown): void {
    if (typeof value === 'string') {
      // The names are read from the whole patch: a name past any display bound still has to match.
      const names = patchFileNames(value);
      this.paths.push(...names.paths.map((p) => this.bounded(p)));
      this.complete &&= names.complete;
    } else if (value !== undefined && value !== null) {
      this.complete = false;
    }
  }
}

/** Argv as a shell would read it: words that need it are single-quoted, so `["rm", "a b"]` is not `rm a b`. */
function shellJoin(argv: readonly string[]): string {
  return argv.map((a) => (PLAIN_ARG.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function readCommand(reading: Reading, value: unknown): void {
  let command: string | undefined;
  if (typeof value === 'string') {
    command = value;
  } else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    const argv = value as string[];
    const wrapped = argv.length === 3 && SHELL_WRAPPER.test(argv[0]!.replace(/^.*\//, '')) && SHELL_WRAPPER_OPTIONS.test(argv[1]!);
    command = wrapped ? argv[2]! : shellJoin(argv);
  }
  if (command === undefined || command.trim() === '') {
    // A command key that says nothing readable: the request runs something nobody can see here.
    reading.complete = false;
    return;
  }
  reading.command = reading.bounded(command);
}

/** The subject of a request for `tool` with `input`, with `extraPaths` the protocol names beside the input. */
export function subjectOf(tool: string, input: unknown, extraPaths: readonly string[] = []): ApprovalSubject {
  const reading = new Reading();
  extraPaths.forEach((p) => reading.path(p));
  const r = record(input);
  if (r) {
    PATH_KEYS.forEach((key) => reading.path(r[key]));
    PATHS_KEYS.forEach((key) => reading.pathList(r[key]));
    PATCH_KEYS.forEach((key) => reading.patch(r[key]));
    const commandKeys = COMMAND_KEYS.filter((key) => r[key] !== undefined && r[key] !== null);
    if (commandKeys.length > 0) {
      readCommand(reading, r[commandKeys[0]!]);
      // Two commands in one request: which one runs is the tool's business, so neither is answered by a rule.
      reading.complete &&= commandKeys.length === 1;
    }
  } else if (typeof input === 'string' && /^(---|diff --git|\*\*\* Begin Patch)/m.test(input)) {
    reading.patch(input);
  }
  const unique = [...new Set(reading.paths)];
  const name = tool.trim();
  // A tool without a name cannot be told from another one: rules match on the name.
  const complete = reading.complete && unique.length <= MAX_PATHS && name !== '' && name.length <= MAX_TOOL;
  return {
    tool: name.slice(0, MAX_TOOL) || 'tool',
    ...(unique.length > 0 ? { paths: unique.slice(0, MAX_PATHS) } : {}),
    ...(reading.command !== undefined ? { command: reading.command } : {}),
    ...(complete ? { complete: true } : {}),
  };
}

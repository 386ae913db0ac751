/**
 * Parses a git unified diff (as `git diff --binary` writes it, default `a/`/`b/` prefixes) into a neutral model.
 *
 * `gitdiff-parser` does the hunk work; this file checks and patches around what it gets wrong or drops, using the
 * raw header lines of each `diff --git` section:
 * - C-quoted paths (`"a/\303\251t\303\251.txt"`) are returned still quoted/escaped → unquoted here;
 * - `old mode`/`new mode` lines (mode changes) are ignored → read here;
 * - a rename or copy that also edits content is reported as `modify` → status derived from the headers;
 * - `GIT binary patch` (from `--binary`) is not recognised as binary → detected here;
 * - `\ No newline at end of file` only sets file-level flags → placed as `noeol` lines where it occurs;
 * - an explicit zero count (`@@ -0,0 +1 @@`) becomes 1 → counts re-read from the header;
 * - nothing is cross-checked → hunk line counts are verified against the header, so a truncated or mangled
 *   patch is an error instead of a silently short file.
 * CRLF content survives: lines are split on LF only, so a CR stays part of the line text.
 */
import gitDiffParser from 'gitdiff-parser';
import type { File as GdpFile } from 'gitdiff-parser';

export type PatchFileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
export type PatchLineKind = 'context' | 'add' | 'del' | 'noeol';

export interface PatchLine {
  readonly kind: PatchLineKind;
  /** The line without its one-character prefix (and without the LF); for `noeol`, the marker text. */
  readonly text: string;
}

export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** The whole `@@ … @@ <section>` line. */
  readonly header: string;
  /** A `noeol` line follows the line that has no final newline. */
  readonly lines: readonly PatchLine[];
}

export interface PatchFile {
  /** Path before (for `added`, equal to `newPath`), without the `a/` prefix, unquoted. */
  readonly oldPath: string;
  /** Path after (for `deleted`, equal to `oldPath`), without the `b/` prefix, unquoted. */
  readonly newPath: string;
  readonly status: PatchFileStatus;
  readonly oldMode?: string;
  readonly newMode?: string;
  readonly binary: boolean;
  /** `similarity index` of a rename/copy, in percent. */
  readonly similarity?: number;
  readonly hunks: readonly PatchHunk[];
  readonly additions: number;
  readonly deletions: number;
}

export interface ParsedPatch {
  readonly files: readonly PatchFile[];
}

export class PatchParseError extends Error {
  constructor(message: string) {
    super(`cannot parse patch: ${message}`);
    this.name = 'PatchParseError';
  }
}

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Decodes one git C-quoted token starting at `start` (which must be `"`). Returns the value (escaped bytes decoded
 * as UTF-8) and the index after the closing quote, or undefined when malformed.
 */
function readQuoted(s: string, start: number): { value: string; end: number } | undefined {
  const bytes: number[] = [];
  for (let i = start + 1; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '"') {
      return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    }
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = s[i + 1] ?? '';
    if (/^[0-7]{3}$/.test(s.slice(i + 1, i + 4))) {
      bytes.push(parseInt(s.slice(i + 1, i + 4), 8));
      i += 3;
    } else if (next in C_ESCAPES) {
      bytes.push(C_ESCAPES[next] as number);
      i += 1;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** Unquotes a git path token: `"a/\303\251.txt"` → `a/é.txt`; unquoted tokens are returned as they are. */
export function unquoteGitPath(token: string): string {
  if (!token.startsWith('"')) {
    return token;
  }
  const q = readQuoted(token, 0);
  if (q === undefined || q.end !== token.length) {
    throw new PatchParseError(`malformed quoted path ${token}`);
  }
  return q.value;
}

function stripPrefix(path: string, prefix: 'a/' | 'b/'): string {
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** `diff --git <a> <b>`: both tokens may be quoted; unquoted names may contain spaces (then a == b by construction). */
function parseDiffGitPaths(rest: string): { a: string; b: string } | undefined {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0);
    if (first === undefined || rest[first.end] !== ' ') {
      return undefined;
    }
    return { a: first.value, b: unquoteGitPath(rest.slice(first.end + 1)) };
  }
  if (rest.endsWith('"')) {
    for (let i = rest.indexOf(' "'); i >= 0; i = rest.indexOf(' "', i + 1)) {
      const second = readQuoted(rest, i + 1);
      if (second !== undefined && second.end === rest.length) {
        return { a: rest.slice(0, i), b: second.value };
      }
    }
    return undefined;
  }
  const n = (rest.length - 5) / 2;
  if (Number.isInteger(n) && n > 0 && rest.startsWith('a/') && rest.slice(2 + n, 5 + n) === ' b/' && rest.slice(2, 2 + n) === rest.slice(5 + n)) {
    return { a: rest.slice(0, 2 + n), b: rest.slice(3 + n) };
  }
  const split = rest.indexOf(' b/');
  return split < 0 ? undefined : { a: rest.slice(0, split), b: rest.slice(split + 1) };
}

/** `--- a/x` / `+++ b/x`: one token, maybe quoted; git appends a TAB when the name contains a space. */
function parseMarkerPath(value: string): string | undefined {
  const v = value.endsWith('\t') ? value.slice(0, -1) : value;
  return v === '/dev/null' ? undefined : unquoteGitPath(v);
}

interface Section {
  readonly start: number;
  readonly end: number;
}

interface Headers {
  oldMode?: string;
  newMode?: string;
  added: boolean;
  deleted: boolean;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  similarity?: number;
  minus?: string;
  plus?: string;
  binary: boolean;
  /** Raw hunks: header line index and body line range. */
  hunks: { header: number; end: number }[];
}

const HEADER_KEYS = [
  'old mode', 'new mode', 'deleted file mode', 'new file mode', 'rename from', 'rename to', 'copy from', 'copy to',
  'similarity index', 'index', '---', '+++',
] as const;

function readHeaders(lines: readonly string[], section: Section): Headers {
  const h: Headers = { added: false, deleted: false, binary: false, hunks: [] };
  let i = section.start + 1;
  for (; i < section.end; i++) {
    const line = lines[i] as string;
    if (line.startsWith('@@ ') || line === 'GIT binary patch' || line.startsWith('Binary files ')) {
      break;
    }
    const key = HEADER_KEYS.find((k) => line.startsWith(`${k} `));
    const value = key === undefined ? '' : line.slice(key.length + 1);
    if (key === 'old mode') {
      h.oldMode = value;
    } else if (key === 'new mode') {
      h.newMode = value;
    } else if (key === 'deleted file mode') {
      [h.deleted, h.oldMode] = [true, value];
    } else if (key === 'new file mode') {
      [h.added, h.newMode] = [true, value];
    } else if (key === 'rename from') {
      h.renameFrom = unquoteGitPath(value);
    } else if (key === 'rename to') {
      h.renameTo = unquoteGitPath(value);
    } else if (key === 'copy from') {
      h.copyFrom = unquoteGitPath(value);
    } else if (key === 'copy to') {
      h.copyTo = unquoteGitPath(value);
    } else if (key === 'similarity index') {
      h.similarity = parseInt(value, 10);
    } else if (key === 'index') {
      const mode = /^[0-9a-f]+\.\.[0-9a-f]+ ([0-7]{6})$/.exec(value)?.[1];
      if (mode !== undefined) {
        h.oldMode ??= mode;
        h.newMode ??= mode;
      }
    } else if (key === '---') {
      h.minus = value;
    } else if (key === '+++') {
      h.plus = value;
    }
  }
  if (i < section.end && (lines[i] === 'GIT binary patch' || (lines[i] as string).startsWith('Binary files '))) {
    h.binary = true;
    return h;
  }
  for (; i < section.end; i++) {
    if ((lines[i] as string).startsWith('@@ ')) {
      const last = h.hunks[h.hunks.length - 1];
      if (last) {
        last.end = i;
      }
      h.hunks.push({ header: i, end: section.end });
    }
  }
  return h;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function buildHunk(lines: readonly string[], raw: { header: number; end: number }, parsed: GdpFile['hunks'][number], where: string): PatchHunk {
  const header = lines[raw.header] as string;
  const m = HUNK_HEADER.exec(header);
  if (m === null) {
    throw new PatchParseError(`${where}: bad hunk header ${JSON.stringify(header)}`);
  }
  const oldLines = m[2] === undefined ? 1 : Number(m[2]);
  const newLines = m[4] === undefined ? 1 : Number(m[4]);
  // Where the raw text has `\` markers: after how many content lines.
  const markers: { after: number; text: string }[] = [];
  let content = 0;
  for (let i = raw.header + 1; i < raw.end; i++) {
    const line = lines[i] as string;
    if (line.startsWith('\\')) {
      markers.push({ after: content, text: line.slice(1).trimStart() });
    } else if (line.startsWith(' ') || line.startsWith('+') || line.startsWith('-')) {
      content++;
    }
  }
  if (parsed.changes.length !== content) {
    throw new PatchParseError(`${where}: parser saw ${parsed.changes.length} lines in hunk ${header}, the text has ${content}`);
  }
  const out: PatchLine[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  parsed.changes.forEach((change, index) => {
    const kind: PatchLineKind = change.type === 'insert' ? 'add' : change.type === 'delete' ? 'del' : 'context';
    if (kind !== 'add') {
      oldSeen++;
    }
    if (kind !== 'del') {
      newSeen++;
    }
    out.push({ kind, text: change.content });
    for (const marker of markers) {
      if (marker.after === index + 1) {
        out.push({ kind: 'noeol', text: marker.text });
      }
    }
  });
  if (oldSeen !== oldLines || newSeen !== newLines) {
    throw new PatchParseError(`${where}: hunk ${header} has ${oldSeen}/${newSeen} old/new lines (truncated patch?)`);
  }
  return { oldStart: Number(m[1]), oldLines, newStart: Number(m[3]), newLines, header, lines: out };
}

function buildFile(lines: readonly string[], section: Section, parsed: GdpFile): PatchFile {
  const first = lines[section.start] as string;
  const h = readHeaders(lines, section);
  const gitPaths = parseDiffGitPaths(first.slice('diff --git '.length));
  const minus = h.minus === undefined ? undefined : parseMarkerPath(h.minus);
  const plus = h.plus === undefined ? undefined : parseMarkerPath(h.plus);
  const oldPath = h.renameFrom ?? h.copyFrom ?? (minus && stripPrefix(minus, 'a/')) ?? (gitPaths && stripPrefix(gitPaths.a, 'a/'));
  const newPath = h.renameTo ?? h.copyTo ?? (plus && stripPrefix(plus, 'b/')) ?? (gitPaths && stripPrefix(gitPaths.b, 'b/'));
  if (oldPath === undefined || newPath === undefined) {
    throw new PatchParseError(`cannot read the paths of ${JSON.stringify(first)}`);
  }
  const status: PatchFileStatus =
    h.renameFrom !== undefined ? 'renamed' : h.copyFrom !== undefined ? 'copied' : h.added ? 'added' : h.deleted ? 'deleted' : 'modified';
  const where = `${oldPath} → ${newPath}`;
  let hunks: PatchHunk[] = [];
  if (!h.binary) {
    if (parsed.hunks.length !== h.hunks.length) {
      throw new PatchParseError(`${where}: parser saw ${parsed.hunks.length} hunks, the text has ${h.hunks.length}`);
    }
    hunks = h.hunks.map((raw, i) => buildHunk(lines, raw, parsed.hunks[i] as GdpFile['hunks'][number], where));
  }
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'add') {
        additions++;
      } else if (line.kind === 'del') {
        deletions++;
      }
    }
  }
  return {
    oldPath: status === 'added' ? newPath : oldPath,
    newPath: status === 'deleted' ? oldPath : newPath,
    status,
    ...(h.oldMode !== undefined && status !== 'added' ? { oldMode: h.oldMode } : {}),
    ...(h.newMode !== undefined && status !== 'deleted' ? { newMode: h.newMode } : {}),
    binary: h.binary,
    ...(h.similarity !== undefined ? { similarity: h.similarity } : {}),
    hunks,
    additions,
    deletions,
  };
}

/** Parses a whole git patch; an empty text is an empty change set. Throws {@link PatchParseError}. */
export function parseGitPatch(text: string): ParsedPatch {
  if (text.length === 0) {
    return { files: [] };
  }
  const lines = text.split('\n');
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (line.startsWith('diff --git ')) {
      starts.push(i);
    }
  });
  if (starts.length === 0) {
    throw new PatchParseError('no "diff --git" section found');
  }
  let parsed: GdpFile[];
  try {
    parsed = gitDiffParser.parse(text);
  } catch (error) {
    throw new PatchParseError(`gitdiff-parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed.length !== starts.length) {
    throw new PatchParseError(`parser saw ${parsed.length} files, the text has ${starts.length} sections`);
  }
  const files = starts.map((start, i) => buildFile(lines, { start, end: starts[i + 1] ?? lines.length }, parsed[i] as GdpFile));
  return { files };
}

/**
 * What both patch parsers share (patchParser.ts, all at once; patchReading.ts, in slices): the raw header lines of
 * one `diff --git` section read into paths, status, modes and where its hunks are, and the file model built from
 * them. Neither depends on how the hunk bodies were read, so both parsers describe a file the same way.
 */
import { parseDiffGitPaths, parseMarkerPath, stripPrefix, unquoteGitPath } from './gitPaths';
import { PatchParseError } from './patchTypes';
import type { PatchFile, PatchFileStatus, PatchHunk } from './patchTypes';

/** A `diff --git` section: its first line and the line after its last, indexes into the patch's lines. */
export interface Section {
  readonly start: number;
  readonly end: number;
}

export interface Headers {
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

export function readHeaders(lines: readonly string[], section: Section): Headers {
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


export const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A hunk's header line and the ranges it names (an omitted count is 1), or a PatchParseError naming `where`. */
export interface HunkRanges {
  readonly header: string;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
}

export function hunkRangesOf(lines: readonly string[], headerLine: number, where: string): HunkRanges {
  const header = lines[headerLine] as string;
  const m = HUNK_HEADER.exec(header);
  if (m === null) {
    throw new PatchParseError(`${where}: bad hunk header ${JSON.stringify(header)}`);
  }
  return { header, oldStart: Number(m[1]), oldLines: m[2] === undefined ? 1 : Number(m[2]), newStart: Number(m[3]), newLines: m[4] === undefined ? 1 : Number(m[4]) };
}

interface FilePaths {
  readonly oldPath: string;
  readonly newPath: string;
  readonly status: PatchFileStatus;
}

function filePaths(lines: readonly string[], section: Section, h: Headers): FilePaths {
  const first = lines[section.start] as string;
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
  return { oldPath, newPath, status };
}

/** `old → new`, as errors about the file name it; throws {@link PatchParseError} when the paths cannot be read. */
export function fileWhere(lines: readonly string[], section: Section, h: Headers): string {
  const { oldPath, newPath } = filePaths(lines, section, h);
  return `${oldPath} → ${newPath}`;
}

/** The file model of a section whose hunks are read (none for a binary file). */
export function patchFileOf(lines: readonly string[], section: Section, h: Headers, hunks: readonly PatchHunk[]): PatchFile {
  const { oldPath, newPath, status } = filePaths(lines, section, h);
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

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
 *
 * Daemon-independent: it reads git's own `diff --binary` output, whether an A3S harness captured it or the editor
 * diffed two local tree snapshots (localChangeSet.ts). Path tokens are decoded in gitPaths.ts; the model it
 * returns is patchTypes.ts.
 */
import gitDiffParser from 'gitdiff-parser';
import type { File as GdpFile } from 'gitdiff-parser';
import { fileWhere, hunkRangesOf, patchFileOf, readHeaders } from './patchHeaders';
import type { Section } from './patchHeaders';
import { PatchParseError } from './patchTypes';
import type { ParsedPatch, PatchFile, PatchHunk, PatchLine, PatchLineKind } from './patchTypes';

function buildHunk(lines: readonly string[], raw: { header: number; end: number }, parsed: GdpFile['hunks'][number], where: string): PatchHunk {
  const { header, oldStart, oldLines, newStart, newLines } = hunkRangesOf(lines, raw.header, where);
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
  return { oldStart, oldLines, newStart, newLines, header, lines: out };
}

function buildFile(lines: readonly string[], section: Section, parsed: GdpFile): PatchFile {
  const h = readHeaders(lines, section);
  const where = fileWhere(lines, section, h);
  let hunks: PatchHunk[] = [];
  if (!h.binary) {
    if (parsed.hunks.length !== h.hunks.length) {
      throw new PatchParseError(`${where}: parser saw ${parsed.hunks.length} hunks, the text has ${h.hunks.length}`);
    }
    hunks = h.hunks.map((raw, i) => buildHunk(lines, raw, parsed.hunks[i] as GdpFile['hunks'][number], where));
  }
  return patchFileOf(lines, section, h, hunks);
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

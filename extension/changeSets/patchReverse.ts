/**
 * A patch file turned around: what takes the "after" side back to the "before" side. An agent that writes the disk
 * itself (Claude Code, Codex) leaves edits no Undo knows; the run's local change set has them, and its reverse,
 * applied like any change set (one WorkspaceEdit, so Undo restores the agent's version), is the revert the person
 * gets per file or per hunk. A hunk reverses on its own (its old and new ranges and lines swap), so any selection of
 * a file's hunks reverses with it. A copy has no reverse that keeps its source: it is not offered (`undefined`).
 */
import type { PatchFile, PatchFileStatus, PatchHunk, PatchLine } from './patchTypes';

const REVERSED_STATUS: Readonly<Record<PatchFileStatus, PatchFileStatus | undefined>> = {
  added: 'deleted',
  deleted: 'added',
  modified: 'modified',
  renamed: 'renamed',
  copied: undefined,
};

function reverseLine(line: PatchLine): PatchLine {
  return line.kind === 'add' ? { ...line, kind: 'del' } : line.kind === 'del' ? { ...line, kind: 'add' } : line;
}

function range(start: number, lines: number): string {
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

export function reverseHunk(hunk: PatchHunk): PatchHunk {
  // The section text after the second @@ (a function name git found) stays: it names the place, not the change.
  const section = /^@@ [^@]* @@(.*)$/.exec(hunk.header)?.[1] ?? '';
  return {
    oldStart: hunk.newStart,
    oldLines: hunk.newLines,
    newStart: hunk.oldStart,
    newLines: hunk.oldLines,
    header: `@@ -${range(hunk.newStart, hunk.newLines)} +${range(hunk.oldStart, hunk.oldLines)} @@${section}`,
    lines: hunk.lines.map(reverseLine),
  };
}

/** The reverse of `file`, or undefined when it has none that can be applied (a copy). */
export function reversePatchFile(file: PatchFile): PatchFile | undefined {
  const status = REVERSED_STATUS[file.status];
  if (status === undefined) {
    return undefined;
  }
  return {
    oldPath: file.newPath,
    newPath: file.oldPath,
    status,
    ...(file.newMode !== undefined ? { oldMode: file.newMode } : {}),
    ...(file.oldMode !== undefined ? { newMode: file.oldMode } : {}),
    binary: file.binary,
    ...(file.similarity !== undefined ? { similarity: file.similarity } : {}),
    hunks: file.hunks.map(reverseHunk),
    additions: file.deletions,
    deletions: file.additions,
  };
}

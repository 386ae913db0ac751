/**
 * Pure helpers over a parsed {@link PatchFile}: apply all or some hunks to a base text (all-or-nothing — a
 * conflict is reported, never a half-applied result) and, when the base file is unavailable, reconstruct what the
 * patch itself reveals of the left (old) and right (new) sides.
 *
 * Application uses jsdiff with fuzz 0 and no line-ending conversion: context and deleted lines must match
 * exactly (a CR is part of the line), though a hunk may sit at an offset, as with `git apply`. Skipping a hunk is
 * sound because hunks address old-file lines, which unselected hunks leave untouched.
 *
 * Daemon-independent: it works on the neutral patch model (patchTypes.ts), so an A3S change set and a locally
 * computed one are applied and previewed the same way.
 */
import { applyPatch } from 'diff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import type { PatchFile, PatchHunk } from './patchTypes';

export interface HunkConflict {
  /** Index into `file.hunks`. */
  readonly hunkIndex: number;
  /** 1-based line of the base text where the hunk expected `expected`. */
  readonly line: number;
  readonly expected: string;
  /** What the base text has there (`undefined` past its end). */
  readonly actual: string | undefined;
  /**
   * `context_mismatch`: the hunk's old lines are not in the base text; `eof_newline`: they are, but the final
   * newline state differs; `overlap`: it applies alone but not after the hunks before it.
   */
  readonly reason: 'context_mismatch' | 'eof_newline' | 'overlap';
}

export type HunkApplyResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'conflict'; readonly conflicts: readonly HunkConflict[] }
  | { readonly ok: false; readonly reason: 'binary' };

const PREFIX = { context: ' ', add: '+', del: '-', noeol: '\\ ' } as const;

function toJsdiffHunk(hunk: PatchHunk): StructuredPatchHunk {
  // jsdiff stores the start of an empty range one higher than the unified-diff header does.
  return {
    oldStart: hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines.map((l) => PREFIX[l.kind] + l.text),
  };
}

function structured(file: PatchFile, hunks: readonly PatchHunk[]): StructuredPatch {
  return {
    oldFileName: file.oldPath,
    newFileName: file.newPath,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: hunks.map(toJsdiffHunk),
  };
}

function apply(original: string, file: PatchFile, hunks: readonly PatchHunk[]): string | false {
  return applyPatch(original, structured(file, hunks), { fuzzFactor: 0, autoConvertLineEndings: false });
}

/** Explains why one hunk does not apply at its stated position. */
function diagnose(original: string, hunk: PatchHunk, hunkIndex: number): HunkConflict {
  const lines = original.split('\n');
  // A pure insertion (oldLines 0) names the line after which it goes.
  const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
  let offset = 0;
  for (const line of hunk.lines) {
    if (line.kind !== 'context' && line.kind !== 'del') {
      continue;
    }
    const actual = start + offset < lines.length ? lines[start + offset] : undefined;
    if (actual !== line.text) {
      return { hunkIndex, line: start + offset + 1, expected: line.text, actual, reason: 'context_mismatch' };
    }
    offset++;
  }
  return { hunkIndex, line: start + offset, expected: '', actual: lines[start + offset - 1], reason: 'eof_newline' };
}

/**
 * Applies the selected hunks (default all; indexes into `file.hunks`, any order) to `original`. Returns the new
 * text, or every conflict found without applying anything. Binary files have no hunks to apply.
 */
export function applyHunks(original: string, file: PatchFile, selection?: readonly number[]): HunkApplyResult {
  if (file.binary) {
    return { ok: false, reason: 'binary' };
  }
  const indexes = [...new Set(selection ?? file.hunks.map((_, i) => i))].sort((a, b) => a - b);
  for (const i of indexes) {
    if (!Number.isInteger(i) || i < 0 || i >= file.hunks.length) {
      throw new RangeError(`hunk index ${i} is out of range 0–${file.hunks.length - 1}`);
    }
  }
  const chosen = indexes.map((i) => file.hunks[i] as PatchHunk);
  const text = apply(original, file, chosen);
  if (text !== false) {
    return { ok: true, text };
  }
  const conflicts: HunkConflict[] = [];
  chosen.forEach((hunk, k) => {
    if (apply(original, file, [hunk]) === false) {
      conflicts.push(diagnose(original, hunk, indexes[k] as number));
    }
  });
  if (conflicts.length === 0) {
    // Each applies alone: find the first that fails after its predecessors.
    for (let k = 1; k < chosen.length; k++) {
      if (apply(original, file, chosen.slice(0, k + 1)) === false) {
        const c = diagnose(original, chosen[k] as PatchHunk, indexes[k] as number);
        conflicts.push({ ...c, reason: 'overlap' });
        break;
      }
    }
  }
  return { ok: false, reason: 'conflict', conflicts };
}

export interface ReconstructedSide {
  /** Lines the patch reveals at their true line numbers; unknown lines before/between hunks are `filler`. */
  readonly text: string;
  /** 1-based ranges of real lines. */
  readonly known: readonly { readonly start: number; readonly count: number }[];
  /** The whole side is known (added/deleted files: the patch carries every line). */
  readonly complete: boolean;
}

function side(file: PatchFile, which: 'old' | 'new', filler: string): ReconstructedSide {
  const absent = which === 'old' ? file.status === 'added' : file.status === 'deleted';
  if (absent) {
    return { text: '', known: [], complete: true };
  }
  const out: string[] = [];
  const known: { start: number; count: number }[] = [];
  let noFinalNewline = false;
  for (const hunk of file.hunks) {
    const start = which === 'old' ? hunk.oldStart : hunk.newStart;
    const count = which === 'old' ? hunk.oldLines : hunk.newLines;
    if (count === 0) {
      continue;
    }
    while (out.length < start - 1) {
      out.push(filler);
    }
    let last: string | undefined;
    for (const line of hunk.lines) {
      if (line.kind === 'noeol') {
        if (last === 'context' || last === (which === 'old' ? 'del' : 'add')) {
          noFinalNewline = true;
        }
        continue;
      }
      last = line.kind;
      if (line.kind === 'context' || line.kind === (which === 'old' ? 'del' : 'add')) {
        out.push(line.text);
      }
    }
    known.push({ start, count });
  }
  const complete = file.status === (which === 'old' ? 'deleted' : 'added');
  const text = out.length === 0 ? '' : out.join('\n') + (noFinalNewline ? '' : '\n');
  return { text, known, complete };
}

/** Both sides as far as the patch shows them, e.g. for a diff view when the base file cannot be read. */
export function reconstructSides(
  file: PatchFile,
  options: { readonly filler?: string } = {},
): { readonly left: ReconstructedSide; readonly right: ReconstructedSide } {
  const filler = options.filler ?? '';
  return { left: side(file, 'old', filler), right: side(file, 'new', filler) };
}

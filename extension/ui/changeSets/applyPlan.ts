/**
 * Plans applying (part of) a change set to the workspace, all or nothing: every selected file is checked against
 * the current workspace content first, and either every file yields an operation or the plan lists every problem
 * (binary files, conflicts, files that already exist or are missing, unsafe paths) and nothing is applied. Pure —
 * the UI reads the files, then turns the operations into one `WorkspaceEdit` (so Undo reverts it as one step).
 */
import { applyHunks } from '../../changeSets/hunkApply';
import type { HunkConflict } from '../../changeSets/hunkApply';
import type { PatchFile } from '../../changeSets/patchTypes';
import { isGitSegment } from '../../protocol/protectedPaths';
import { modeChanged } from './changeSetFiles';

export interface FileSelection {
  /** Index into the change set's files. */
  readonly index: number;
  /** Hunk indexes (modified files only); absent = the whole file. */
  readonly hunks?: readonly number[];
}

/** A workspace file as the UI read it: `text` absent when it exists but is not readable as text. */
export interface WorkspaceFileState {
  readonly exists: boolean;
  readonly text?: string;
}

export type ApplyOperation =
  | { readonly kind: 'create'; readonly path: string; readonly text: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'modify'; readonly path: string; readonly text: string }
  /** `text` when the rename also changes the content. */
  | { readonly kind: 'rename'; readonly from: string; readonly to: string; readonly text?: string };

export interface ApplyProblem {
  readonly path: string;
  readonly reason: string;
}

export type ApplyPlan =
  | { readonly ok: true; readonly operations: readonly ApplyOperation[]; readonly notes: readonly string[] }
  | { readonly ok: false; readonly problems: readonly ApplyProblem[] };

/**
 * Patch paths come from a daemon (untrusted): only plain relative paths inside the workspace, never into `.git` —
 * under any name a file system opens it by (`.GIT`, `.git.`, `.git `, `GIT~1`: protocol/protectedPaths.ts).
 * Returns the problem, or undefined when the path is acceptable.
 */
export function unsafePathProblem(path: string): string | undefined {
  if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.includes('\0')) {
    return 'is not a plain relative path';
  }
  const parts = path.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) {
    return 'leaves the workspace or is not normalised';
  }
  if (parts.some(isGitSegment)) {
    return 'points into the .git directory';
  }
  return undefined;
}

/** The workspace paths the plan needs to read for a selection. */
export function pathsToRead(files: readonly PatchFile[], selection: readonly FileSelection[]): string[] {
  const paths = new Set<string>();
  for (const { index } of selection) {
    const file = files[index];
    if (file) {
      paths.add(file.oldPath);
      paths.add(file.newPath);
    }
  }
  return [...paths];
}

function clip(text: string | undefined): string {
  if (text === undefined) {
    return 'end of file';
  }
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return JSON.stringify(shown);
}

function conflictText(file: PatchFile, c: HunkConflict): string {
  const header = file.hunks[c.hunkIndex]?.header.replace(/^(@@[^@]*@@).*$/, '$1') ?? '';
  if (c.reason === 'eof_newline') {
    return `hunk ${c.hunkIndex + 1} (${header}) differs in the final newline`;
  }
  if (c.reason === 'overlap') {
    return `hunk ${c.hunkIndex + 1} (${header}) overlaps an earlier hunk`;
  }
  return `hunk ${c.hunkIndex + 1} (${header}) does not match: line ${c.line} is ${clip(c.actual)}, the change set expects ${clip(c.expected)}`;
}

/**
 * Plans the selection against the workspace (`read` answers for every path of `pathsToRead`). `expected` may
 * return the known result content of a path (from the result tree) to recognise changes that are already there.
 */
export function planChangeSetApply(
  files: readonly PatchFile[],
  selection: readonly FileSelection[],
  read: (path: string) => WorkspaceFileState,
  expected: (path: string) => string | undefined = () => undefined,
): ApplyPlan {
  const planner = applyPlanner(files, read, expected);
  selection.forEach(planner.add);
  return planner.result();
}

/** Where the plan may give the event loop back (a `TimeSlices`, base/timeSlices.ts). */
export interface Pauses {
  pause(): Promise<void>;
}

/**
 * `planChangeSetApply` without stalling the host (issue #25 §3): the same plan, file by file, giving the event loop
 * back between files once a slice has used its budget (Apply All of a 4 MiB change set runs its hunks against tens
 * of MiB of workspace text). The files were read before; nothing is written until the whole plan is made.
 */
export async function planChangeSetApplySliced(
  files: readonly PatchFile[],
  selection: readonly FileSelection[],
  read: (path: string) => WorkspaceFileState,
  expected: (path: string) => string | undefined,
  slices: Pauses,
): Promise<ApplyPlan> {
  const planner = applyPlanner(files, read, expected);
  for (const item of selection) {
    planner.add(item);
    await slices.pause();
  }
  return planner.result();
}

function applyPlanner(
  files: readonly PatchFile[],
  read: (path: string) => WorkspaceFileState,
  expected: (path: string) => string | undefined,
): { add(item: FileSelection): void; result(): ApplyPlan } {
  const problems: ApplyProblem[] = [];
  const operations: ApplyOperation[] = [];
  const notes: string[] = [];
  const written = new Set<string>();
  const problem = (path: string, reason: string): void => void problems.push({ path, reason });
  const claim = (path: string): boolean => {
    if (written.has(path)) {
      problem(path, 'is written by two files of the selection');
      return false;
    }
    written.add(path);
    return true;
  };
  const readText = (path: string, what: string): string | undefined => {
    const state = read(path);
    if (!state.exists) {
      problem(path, `does not exist in the workspace (the change set ${what} it)`);
      return undefined;
    }
    if (state.text === undefined) {
      problem(path, 'cannot be read as text');
      return undefined;
    }
    return state.text;
  };
  const mustNotExist = (path: string): boolean => {
    const state = read(path);
    if (!state.exists) {
      return true;
    }
    const target = expected(path);
    problem(path, target !== undefined && state.text === target ? 'already contains these changes' : 'already exists in the workspace');
    return false;
  };

  const add = ({ index, hunks }: FileSelection): void => {
    const file = files[index];
    if (!file) {
      problem(`#${index}`, 'is not a file of this change set');
      return;
    }
    const unsafe = [file.oldPath, file.newPath].map((p) => [p, unsafePathProblem(p)] as const).find(([, why]) => why !== undefined);
    if (unsafe) {
      problem(unsafe[0], `${unsafe[1]}; refusing to write it`);
      return;
    }
    if (file.binary) {
      problem(file.newPath, 'is a binary file: Apply writes text only (save the patch and run `git apply` for binary files)');
      return;
    }
    if (modeChanged(file)) {
      notes.push(`${file.newPath}: file mode ${file.oldMode} → ${file.newMode} is not changed by Apply`);
    }
    const selected = hunks && file.status === 'modified' ? hunks : undefined;
    const applyTo = (base: string, path: string): string | undefined => {
      const result = applyHunks(base, file, selected);
      if (result.ok) {
        return result.text;
      }
      if (result.reason === 'binary') {
        problem(path, 'is a binary file');
        return undefined;
      }
      const target = expected(path);
      if (target !== undefined && base === target) {
        problem(path, 'already contains these changes');
      } else {
        for (const c of result.conflicts) {
          problem(path, conflictText(file, c));
        }
      }
      return undefined;
    };
    switch (file.status) {
      case 'added': {
        if (mustNotExist(file.newPath) && claim(file.newPath)) {
          const text = applyTo('', file.newPath);
          if (text !== undefined) {
            operations.push({ kind: 'create', path: file.newPath, text });
          }
        }
        break;
      }
      case 'deleted': {
        const current = readText(file.oldPath, 'deletes');
        if (current !== undefined && claim(file.oldPath)) {
          const rest = applyTo(current, file.oldPath);
          if (rest === '') {
            operations.push({ kind: 'delete', path: file.oldPath });
          } else if (rest !== undefined) {
            problem(file.oldPath, 'has content the change set does not delete');
          }
        }
        break;
      }
      case 'modified': {
        const current = readText(file.newPath, 'modifies');
        if (current !== undefined && claim(file.newPath)) {
          if (file.hunks.length === 0) {
            break; // mode-only change: noted above
          }
          const target = expected(file.newPath);
          if (selected === undefined && target !== undefined && current === target) {
            problem(file.newPath, 'already contains these changes');
            break;
          }
          const text = applyTo(current, file.newPath);
          if (text !== undefined) {
            operations.push({ kind: 'modify', path: file.newPath, text });
          }
        }
        break;
      }
      case 'renamed':
      case 'copied': {
        const verb = file.status === 'renamed' ? 'renames' : 'copies';
        const current = readText(file.oldPath, verb);
        if (current === undefined || !mustNotExist(file.newPath) || !claim(file.newPath) || (file.status === 'renamed' && !claim(file.oldPath))) {
          break;
        }
        const text = file.hunks.length > 0 ? applyTo(current, file.newPath) : current;
        if (text === undefined) {
          break;
        }
        if (file.status === 'copied') {
          operations.push({ kind: 'create', path: file.newPath, text });
        } else {
          operations.push({ kind: 'rename', from: file.oldPath, to: file.newPath, ...(file.hunks.length > 0 ? { text } : {}) });
        }
        break;
      }
    }
  };
  return { add, result: () => (problems.length > 0 ? { ok: false, problems } : { ok: true, operations, notes }) };
}

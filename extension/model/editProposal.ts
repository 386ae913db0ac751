/**
 * Recognises tool inputs that edit files and computes the proposed file contents, so an approval can be shown as
 * a diff. Shapes: Claude-style `{file_path, old_string, new_string, replace_all?}`, `{file_path|path, content}`
 * (write), `{file_path, edits: [{old_string, new_string, replace_all?}]}` (multi-edit), and a unified diff/patch
 * string under `patch`/`diff`/`input` (possibly several files). Pure: file reading is injected.
 */
import { applyPatch, parsePatch } from 'diff';

export interface ProposedFile {
  /** Path as the agent wrote it (absolute, or relative to the run's first workspace root). */
  readonly path: string;
  readonly original: string;
  readonly proposed: string;
  /** Set when the edit does not apply to the current file (the diff then shows what could be computed). */
  readonly problem?: string;
}

interface Replacement {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function str(record: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = record[key];
    if (typeof v === 'string') {
      return v;
    }
  }
  return undefined;
}

function replacementOf(value: unknown): Replacement | undefined {
  const r = asRecord(value);
  if (!r) {
    return undefined;
  }
  const oldString = str(r, 'old_string', 'oldString', 'old_str');
  const newString = str(r, 'new_string', 'newString', 'new_str');
  if (oldString === undefined || newString === undefined) {
    return undefined;
  }
  return { oldString, newString, replaceAll: r.replace_all === true || r.replaceAll === true };
}

/** Whether the input looks like a file edit at all (cheap; used to decide whether to offer "Show diff"). */
export function looksLikeFileEdit(input: unknown): boolean {
  const r = asRecord(input);
  if (!r) {
    return typeof input === 'string' && /^(---|diff --git|\*\*\* Begin Patch)/m.test(input);
  }
  const path = str(r, 'file_path', 'filePath', 'path');
  if (path !== undefined && (replacementOf(r) || typeof r.content === 'string' || Array.isArray(r.edits))) {
    return true;
  }
  const patch = str(r, 'patch', 'diff');
  return patch !== undefined && /^(---|diff --git)/m.test(patch);
}

function applyReplacements(original: string, replacements: readonly Replacement[]): { text: string; problem?: string } {
  let text = original;
  for (const rep of replacements) {
    if (rep.oldString === '') {
      // An empty old_string means "create the file with new_string" (Claude Edit on a new file).
      text = original === '' ? rep.newString : text;
      continue;
    }
    if (!text.includes(rep.oldString)) {
      return { text, problem: 'The text to replace is not in the current file.' };
    }
    text = rep.replaceAll ? text.split(rep.oldString).join(rep.newString) : text.replace(rep.oldString, () => rep.newString);
  }
  return { text };
}

function stripPrefix(path: string | undefined): string | undefined {
  if (path === undefined || path === '/dev/null') {
    return undefined;
  }
  return path.replace(/^[ab]\//, '');
}

/**
 * Computes the proposed files. `readFile` returns the current text ('' for a missing file). Returns [] when the
 * input is not a recognised edit.
 */
export async function proposedFiles(input: unknown, readFile: (path: string) => Promise<string>): Promise<ProposedFile[]> {
  const r = asRecord(input);
  const patchText = typeof input === 'string' ? input : r ? str(r, 'patch', 'diff') : undefined;
  const path = r ? str(r, 'file_path', 'filePath', 'path') : undefined;
  if (r && path !== undefined) {
    const original = await readFile(path);
    if (typeof r.content === 'string') {
      return [{ path, original, proposed: r.content }];
    }
    const single = replacementOf(r);
    const edits = Array.isArray(r.edits) ? r.edits.map(replacementOf) : single ? [single] : [];
    if (edits.length > 0 && edits.every((e): e is Replacement => e !== undefined)) {
      const { text, problem } = applyReplacements(original, edits);
      return [{ path, original, proposed: text, ...(problem ? { problem } : {}) }];
    }
  }
  if (patchText !== undefined && /^(---|diff --git)/m.test(patchText)) {
    const files: ProposedFile[] = [];
    for (const filePatch of parsePatch(patchText)) {
      const target = stripPrefix(filePatch.newFileName) ?? stripPrefix(filePatch.oldFileName);
      if (target === undefined) {
        continue;
      }
      const source = stripPrefix(filePatch.oldFileName);
      const original = source === undefined ? '' : await readFile(source);
      const result = applyPatch(original, filePatch);
      files.push(
        result === false
          ? { path: target, original, proposed: original, problem: 'The patch does not apply to the current file.' }
          : { path: target, original, proposed: result },
      );
    }
    return files;
  }
  return [];
}

/**
 * Recognises tool inputs that edit files and computes the proposed file contents, so an approval can be shown as
 * a diff. Shapes: Claude-style `{file_path, old_string, new_string, replace_all?}`, `{file_path|path, content}`
 * (write), `{file_path, edits: [{old_string, new_string, replace_all?}]}` (multi-edit), and a unified diff/patch
 * string under `patch`/`diff`/`input` (possibly several files). Pure: file reading is injected.
 *
 * A file patch that cannot be placed in the current file is shown as what it is — its own lines, not a whole file —
 * with the reason: a patch whose file headers carry REGION_ONLY_HEADER (the ACP driver writes it for an agent's
 * region it could not place), or one that does not apply any more.
 */
import type { StructuredPatch } from 'diff';
import { applyPatch, parsePatch } from 'diff';

/** The file header of a patch part that is only the agent's region, not placed in the file (acpProposal.ts). */
export const REGION_ONLY_HEADER = "the agent's proposed region does not match the current file";

export interface ProposedFile {
  /** Path as the agent wrote it (absolute, or relative to the run's first workspace root). */
  readonly path: string;
  readonly original: string;
  readonly proposed: string;
  /** Set when the edit does not apply to the current file (the diff then shows what could be computed). */
  readonly problem?: string;
  /**
   * `original`/`proposed` are only the region the edit names (its lines before and after), not the file: the diff
   * compares them side by side instead of against the file.
   */
  readonly regionOnly?: boolean;
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

/** A file edit as an approval's detail carries it: one file written or edited in place, or a patch of files. */
type RecognisedEdit =
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'replace'; readonly path: string; readonly replacements: readonly Replacement[] }
  | { readonly kind: 'patch'; readonly files: readonly StructuredPatch[] };

/** The file a patch part changes (its new name, else its old one); undefined when it names none. */
function patchTarget(filePatch: StructuredPatch): string | undefined {
  return stripPrefix(filePatch.newFileName) ?? stripPrefix(filePatch.oldFileName);
}

/** What `input` edits, or undefined when it is no edit *Show diff* can compute. The one recogniser of both below. */
function recogniseEdit(input: unknown): RecognisedEdit | undefined {
  const r = asRecord(input);
  const path = r ? str(r, 'file_path', 'filePath', 'path') : undefined;
  if (r && path !== undefined) {
    if (typeof r.content === 'string') {
      return { kind: 'write', path, content: r.content };
    }
    const single = replacementOf(r);
    const edits = Array.isArray(r.edits) ? r.edits.map(replacementOf) : single ? [single] : [];
    if (edits.length > 0 && edits.every((e): e is Replacement => e !== undefined)) {
      return { kind: 'replace', path, replacements: edits };
    }
  }
  const patchText = typeof input === 'string' ? input : r ? str(r, 'patch', 'diff') : undefined;
  if (patchText !== undefined && /^(---|diff --git)/m.test(patchText)) {
    const files = parsePatch(patchText).filter((filePatch) => patchTarget(filePatch) !== undefined);
    return files.length > 0 ? { kind: 'patch', files } : undefined;
  }
  return undefined;
}

/**
 * Whether an approval offers *Show diff*: exactly when `proposedFiles` finds a file in its detail, whatever the
 * files hold. The one rule for every surface (the reducer writes it on the card; the notification, the palette and
 * the board read the card) and every driver, so no surface offers a diff that then says "does not edit files".
 */
export function offersDiff(detail: unknown): boolean {
  return recogniseEdit(detail) !== undefined;
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

/** A file patch's own lines: what its hunks remove and keep (before), and what they add and keep (after). */
function hunkSides(filePatch: StructuredPatch): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  filePatch.hunks.forEach((hunk, i) => {
    if (i > 0) {
      before.push('⋯');
      after.push('⋯');
    }
    for (const line of hunk.lines) {
      const mark = line[0];
      if (mark === ' ' || mark === '-') {
        before.push(line.slice(1));
      }
      if (mark === ' ' || mark === '+') {
        after.push(line.slice(1));
      }
    }
  });
  const text = (lines: string[]): string => (lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return { before: text(before), after: text(after) };
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
  const edit = recogniseEdit(input);
  if (edit === undefined) {
    return [];
  }
  if (edit.kind === 'write') {
    return [{ path: edit.path, original: await readFile(edit.path), proposed: edit.content }];
  }
  if (edit.kind === 'replace') {
    const original = await readFile(edit.path);
    const { text, problem } = applyReplacements(original, edit.replacements);
    return [{ path: edit.path, original, proposed: text, ...(problem ? { problem } : {}) }];
  }
  const files: ProposedFile[] = [];
  for (const filePatch of edit.files) {
    const target = patchTarget(filePatch)!;
    if (filePatch.oldHeader === REGION_ONLY_HEADER || filePatch.newHeader === REGION_ONLY_HEADER) {
      const { before, after } = hunkSides(filePatch);
      files.push({ path: target, original: before, proposed: after, regionOnly: true, problem: "The agent's proposed region does not match the current file: shown is the region alone." });
      continue;
    }
    const source = stripPrefix(filePatch.oldFileName);
    const original = source === undefined ? '' : await readFile(source);
    const result = applyPatch(original, filePatch);
    if (result === false) {
      const { before, after } = hunkSides(filePatch);
      files.push({ path: target, original: before, proposed: after, regionOnly: true, problem: 'The patch does not apply to the current file (it changed meanwhile): shown are the patch\'s own lines.' });
    } else {
      files.push({ path: target, original, proposed: result });
    }
  }
  return files;
}

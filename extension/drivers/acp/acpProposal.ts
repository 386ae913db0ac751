/**
 * What an ACP tool call proposes to files, as the approval shows it. Real agents send `{type: "diff", path, oldText,
 * newText}` where the texts are only the *changed region* (claude-agent-acp: its Edit tool's old_string/new_string;
 * codex-acp: a hunk), and the whole file only when `oldText` is null (a new file, or Claude's Write). So the proposal
 * is built here by applying each region, in order, to the file as the editor has it now (its buffer, through
 * WorkspaceAccess), and becomes one multi-file unified patch of (current, proposed) per file — the detail
 * model/editProposal.ts applies again for *Show diff*. A region that is not in the current file, or is there more
 * than once, cannot be placed honestly: that file's part of the patch is the agent's regions alone, marked with
 * REGION_ONLY_HEADER, and the approval's title says so. A file deletion is the whole file going to /dev/null (the
 * protocol has no deletion; codex-acp sends oldText "[file deleted]" and newText "" for it).
 */
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { createTwoFilesPatch } from 'diff';
import { REGION_ONLY_HEADER } from '../../model/editProposal';

export type AcpDiff = Extract<ToolCallContent, { type: 'diff' }>;

/** What the title of an approval whose regions do not fit says (the same words as the patch's file headers). */
export const REGION_MISMATCH = REGION_ONLY_HEADER;

/** codex-acp's oldText for a file its patch deletes (with newText ''): not a region, the whole file goes. */
const CODEX_FILE_DELETED = '[file deleted]';

/** Between two regions of one file in a region-only patch (they are not adjacent in the file). */
const REGION_SEPARATOR = '⋯\n';

export interface AcpProposal {
  /** The unified patch: every file the call changes, in the order the agent named them. */
  readonly patch: string;
  /** Files whose regions could not be placed in the current file (their part of the patch is region-only), and why. */
  readonly mismatched: readonly { readonly path: string; readonly why: string }[];
}

/** The current text of a file as the editor has it, or null when it is not there or cannot be read (outside the workspace). */
export type CurrentText = (path: string) => Promise<string | null>;

type Applied = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) {
    count++;
  }
  return count;
}

/** One region on the text so far; `replaceAll` is Claude's Edit `replace_all` (every occurrence is meant). */
function applyRegion(text: string | null, diff: AcpDiff, replaceAll: boolean): Applied {
  const oldText = diff.oldText ?? null;
  if (oldText === CODEX_FILE_DELETED && diff.newText === '' && text !== null) {
    return { ok: true, text: '' };
  }
  if (oldText === null) {
    // The whole new content: a new file, or a write that replaces the file.
    return { ok: true, text: diff.newText };
  }
  if (text === null) {
    return { ok: false, why: 'the file is not there (or not readable in the workspace)' };
  }
  if (oldText === '') {
    return text === '' ? { ok: true, text: diff.newText } : { ok: false, why: 'an empty region cannot be placed in a file that has text' };
  }
  const found = occurrences(text, oldText);
  if (found === 0) {
    return { ok: false, why: 'the region is not in the file' };
  }
  if (found > 1 && !replaceAll) {
    return { ok: false, why: `the region is in the file ${found} times` };
  }
  return { ok: true, text: replaceAll ? text.split(oldText).join(diff.newText) : text.replace(oldText, () => diff.newText) };
}

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** The agent's regions of one file, side by side, with nothing of the file around them. */
function regionOnlyPatch(path: string, diffs: readonly AcpDiff[]): string {
  const before = diffs.map((d) => withNewline(d.oldText ?? '')).join(REGION_SEPARATOR);
  const after = diffs.map((d) => withNewline(d.newText)).join(REGION_SEPARATOR);
  return createTwoFilesPatch(path, path, before, after, REGION_ONLY_HEADER, REGION_ONLY_HEADER, { context: Number.MAX_SAFE_INTEGER });
}

/**
 * The proposal of a tool call's diffs against the current files. Several diffs of one path apply in order; several
 * paths give one patch per path. `replaceAll` comes from the tool's input (Claude's Edit `replace_all`).
 */
export async function acpProposal(diffs: readonly AcpDiff[], current: CurrentText, replaceAll = false): Promise<AcpProposal> {
  const byPath = new Map<string, AcpDiff[]>();
  for (const diff of diffs) {
    byPath.set(diff.path, [...(byPath.get(diff.path) ?? []), diff]);
  }
  const parts: string[] = [];
  const mismatched: { path: string; why: string }[] = [];
  for (const [path, fileDiffs] of byPath) {
    const original = await current(path);
    let text: string | null = original;
    let why: string | undefined;
    for (const diff of fileDiffs) {
      const applied = applyRegion(text, diff, replaceAll && fileDiffs.length === 1);
      if (!applied.ok) {
        why = applied.why;
        break;
      }
      text = applied.text;
    }
    if (why !== undefined || text === null) {
      mismatched.push({ path, why: why ?? 'the file is not there (or not readable in the workspace)' });
      parts.push(regionOnlyPatch(path, fileDiffs));
    } else {
      const deleted = fileDiffs.some((d) => d.oldText === CODEX_FILE_DELETED && d.newText === '') && text === '';
      parts.push(createTwoFilesPatch(original === null ? '/dev/null' : path, deleted ? '/dev/null' : path, original ?? '', text));
    }
  }
  return { patch: parts.join(''), mismatched };
}

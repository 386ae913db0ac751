/**
 * The path rules of `WorkspaceAccess` (ui/workspaceAccess.ts), kept free of `vscode` so they are unit-tested under
 * plain Node: where a path an agent names really is (`..` and symlinks resolved), whether that is inside a workspace
 * folder, and the 1-based line window of ACP's `fs/read_text_file`.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { WorkspaceAccessError } from '../drivers/kit/workspaceAccess';

/** A path an agent named, resolved: `lexical` as written (normalised), `real` with every symlink followed. */
export interface ResolvedPath {
  readonly lexical: string;
  readonly real: string;
}

/**
 * The real location of `target`: the realpath of its nearest existing ancestor joined with the part that does not
 * exist yet (a file about to be created). Following the links of the existing part is what stops a symlink inside a
 * root from pointing a write outside it.
 */
export async function realLocation(target: string): Promise<string> {
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(existing), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(existing);
      // ENOTDIR: an ancestor is a file; the operation fails later, but the containment check still needs an answer.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing) {
        throw error;
      }
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** Whether `child` is `root` or below it (both absolute and normalised). */
export function isWithin(root: string, child: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Resolves `target` and checks that it lies inside one of `roots` once links are followed (the roots' own links too,
 * e.g. a workspace under a symlinked /tmp). Rejects a relative path (ACP paths are absolute) and one outside.
 */
export async function resolveInsideRoots(target: string, roots: readonly string[]): Promise<ResolvedPath> {
  if (typeof target !== 'string' || target === '' || target.includes('\0')) {
    throw new WorkspaceAccessError('invalid', 'The path is empty or malformed.');
  }
  if (!path.isAbsolute(target)) {
    throw new WorkspaceAccessError('invalid', `The path must be absolute: ${target}`);
  }
  const lexical = path.resolve(target);
  const real = await realLocation(lexical);
  for (const root of roots) {
    const realRoot = await realLocation(path.resolve(root)).catch(() => undefined);
    if (realRoot !== undefined && isWithin(realRoot, real)) {
      return { lexical, real };
    }
  }
  throw new WorkspaceAccessError('outsideWorkspace', `${target} is outside the workspace folders; the agent may only use files inside them.`);
}

/**
 * The part of `text` that starts at 1-based line `line` and spans at most `limit` lines, each with its own line
 * ending (the editor's buffer keeps CRLF or LF as it is). No line or limit: the whole text. A start past the end
 * gives ''.
 */
export function lineWindow(text: string, line?: number | null, limit?: number | null): string {
  for (const [name, value] of [['line', line], ['limit', limit]] as const) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0)) {
      throw new WorkspaceAccessError('invalid', `${name} must be a whole number ≥ 0 (got ${String(value)}).`);
    }
  }
  // Line 0 is read as the first line: agents differ on whether they count from 0 here, and 1 is the spec's first.
  const first = Math.max(1, line ?? 1);
  if (first === 1 && (limit === undefined || limit === null)) {
    return text;
  }
  const start = offsetOfLine(text, first);
  if (start === undefined) {
    return '';
  }
  if (limit === undefined || limit === null) {
    return text.slice(start);
  }
  const end = offsetOfLine(text, first + limit, start, first);
  return text.slice(start, end ?? text.length);
}

/** The offset where 1-based line `target` begins, scanning from `from` (the start of line `fromLine`). */
function offsetOfLine(text: string, target: number, from = 0, fromLine = 1): number | undefined {
  let offset = from;
  for (let current = fromLine; current < target; current++) {
    const newline = text.indexOf('\n', offset);
    if (newline < 0) {
      return undefined;
    }
    offset = newline + 1;
  }
  // A text ending in a newline has no line after it.
  return offset >= text.length && target > 1 ? undefined : offset;
}

/**
 * The path side of approval rules (approvalRules.ts), kept apart so the rules' command side can change without it:
 * which subjects no rule may allow (they name a protected path: protocol/protectedPaths.ts), the exact-file glob a
 * rule proposes when a directory glob would cover a workspace root's top level (and with it `.vscode`, `.git` and
 * every dot-file beside them), and how a path glob is matched (wildcards never cover a dot-segment the glob does
 * not name). Pure.
 */
import type * as PathGlob from '../base/pathGlob';
import type { ApprovalSubject } from '../protocol/transcriptTypes';
import type { ProtectedPath } from '../protocol/protectedPaths';
import { protectedPathsOf } from '../protocol/protectedPaths';

let pathGlob: typeof PathGlob | undefined;

/**
 * Whether `path` matches `glob`, wildcards never covering a dot-segment the glob does not name (`/repo/**` does not
 * cover `/repo/.github/…`). The matcher is a bundle of its own, loaded at the first match (base/pathGlob.ts).
 */
export function pathMatchesGlob(path: string, glob: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
  pathGlob ??= require('../base/pathGlob') as typeof PathGlob;
  return pathGlob.matchesGlob(path, glob);
}

/** The protected paths a request names (any one of them: no rule allows it, and none is offered from it). */
export function protectedPathsOfSubject(subject: ApprovalSubject | undefined): ProtectedPath[] {
  return protectedPathsOf(subject?.paths ?? []);
}

export function isProtectedSubject(subject: ApprovalSubject | undefined): boolean {
  return protectedPathsOfSubject(subject).length > 0;
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Whether directory `dir` is a workspace root or one of its ancestors: a glob over it covers a root's top level. */
export function coversRootTopLevel(dir: string, roots: readonly string[]): boolean {
  const own = segments(dir);
  return roots.some((root) => {
    const rootSegments = segments(root.replace(/\\/g, '/'));
    return own.length <= rootSegments.length && own.every((s, i) => s === rootSegments[i]);
  });
}

/** Glob metacharacters (and the brace list's comma) in a file name are matched literally. */
function literal(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\,]/g, '\\$&');
}

/** A glob matching exactly these files: the one path, or a brace list of them. */
export function exactPathsGlob(paths: readonly string[]): string {
  return paths.length === 1 ? literal(paths[0]!) : `{${paths.map(literal).join(',')}}`;
}

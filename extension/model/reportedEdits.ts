/**
 * The files a run's agent said it edited (issue #26, "what happened while you were away"): ACP tool calls that carry
 * a diff or edit locations. Kept on the run by the reducer (`RunInfo.reportedEdits`: path as the agent named it →
 * when it last reported it), so the board counts a run's edits since the user looked without reading its transcript,
 * and a local change set shared by two runs can say which run made each change (changeSets/changeAttribution.ts).
 * Pure. The agent's paths are untrusted text: they are only compared and shown escaped, never opened from here.
 */

/** Files kept per run; the oldest reports go first (a run that edits more is a refactoring: the count still grows). */
export const MAX_REPORTED_FILES = 1000;
/** Longer paths are not recorded (no real file has one; a hostile agent would only bloat the journal). */
const MAX_PATH_LENGTH = 4096;

/** The run's reported edits after the agent reported `paths` at `at` (the same object when nothing changed). */
export function withReportedEdits(
  edits: Readonly<Record<string, number>> | undefined,
  paths: readonly string[],
  at: number,
): Readonly<Record<string, number>> | undefined {
  const fresh = paths.filter((p) => p !== '' && p.length <= MAX_PATH_LENGTH && edits?.[p] !== at);
  if (fresh.length === 0) {
    return edits;
  }
  const next: Record<string, number> = {};
  // Re-inserting a reported path moves it last: insertion order is report order, so the cap drops the oldest.
  for (const [path, when] of Object.entries(edits ?? {})) {
    if (!fresh.includes(path)) {
      next[path] = when;
    }
  }
  for (const path of fresh) {
    next[path] = at;
  }
  const keys = Object.keys(next);
  for (let i = 0; i < keys.length - MAX_REPORTED_FILES; i++) {
    delete next[keys[i]!];
  }
  return next;
}

/** The reported paths as paths inside `tree` (`a/b.ts`); a relative one is taken as inside it already. */
export function reportedInTree(edits: Readonly<Record<string, number>> | undefined, tree: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [path, at] of Object.entries(edits ?? {})) {
    const relative = treeRelative(path, tree);
    if (relative !== undefined) {
      out.set(relative, Math.max(at, out.get(relative) ?? 0));
    }
  }
  return out;
}

/** `path` relative to `tree` (slashes, no `./`), or undefined when it is outside it. */
export function treeRelative(path: string, tree: string | undefined): string | undefined {
  const normal = path.replace(/\\/g, '/');
  if (!normal.startsWith('/') && !/^[A-Za-z]:\//.test(normal)) {
    const relative = normal.replace(/^(\.\/)+/, '');
    return relative.split('/').includes('..') ? undefined : relative;
  }
  if (tree === undefined) {
    return undefined;
  }
  const root = tree.replace(/\\/g, '/').replace(/\/+$/, '');
  return normal.startsWith(`${root}/`) ? normal.slice(root.length + 1) : undefined;
}

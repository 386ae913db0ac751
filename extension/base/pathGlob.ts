/**
 * Path globs, as approval rules match them (model/pathRules.ts says how). Its own bundle, loaded on demand
 * (extensionBundles.mjs): minimatch and its parts are a twelfth of the core, and only a path rule's match needs them —
 * most windows never evaluate one. Load it through `pathMatchesGlob` (model/pathRules.ts), never directly.
 */
import { minimatch } from 'minimatch';

/** `dot: false`: `/repo/**` does not cover `/repo/.github/…`; a glob must name a dot-segment to cover it. */
const PATH_GLOB_OPTIONS = { dot: false, nocomment: true, nonegate: true } as const;

export function matchesGlob(path: string, glob: string): boolean {
  return minimatch(path, glob, PATH_GLOB_OPTIONS);
}

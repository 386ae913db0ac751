/**
 * Each file of a ready change set with a short signature of its diff (issue #26): the board's "files changed since
 * you looked" compares a run's signatures now with the ones it had when the user looked, so a file counts when its
 * diff changed — not when a change set was merely computed again (every answer, every reload) with the same content.
 * Content-based, so it needs no clock and survives reloads. One pass over the patch, cached per change-set object
 * (the reducer replaces the object when the change set changes). Pure; the patch is untrusted text.
 */
import type { ChangeSetInfo } from './modelTypes';
import { patchFileNames } from './patchFileNames';

/** Files a run's signatures keep (a change set of more is a bulk rewrite: the rest are counted by the caller). */
export const MAX_SIGNED_FILES = 2000;

const cache = new WeakMap<ChangeSetInfo, ReadonlyMap<string, string>>();
const NONE: ReadonlyMap<string, string> = new Map();

/** The signatures of a ready change set's files (none while it is captured, unavailable or refused). */
export function changeSetSignatures(info: ChangeSetInfo | undefined): ReadonlyMap<string, string> {
  if (!info || info.status !== 'ready' || info.patch === undefined) {
    return NONE;
  }
  let signatures = cache.get(info);
  if (!signatures) {
    signatures = fileSignatures(info.patch);
    cache.set(info, signatures);
  }
  return signatures;
}

/**
 * Path (after the change; a deleted file's old path) → an FNV-1a hash of its section of the patch. Sections start
 * at `diff --git`; a patch without one (plain unified diff) starts a section at each `--- ` header line.
 */
export function fileSignatures(patch: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const git = patch.startsWith('diff --git ') || patch.includes('\ndiff --git ');
  const marker = git ? 'diff --git ' : '--- ';
  let start = patch.startsWith(marker) ? 0 : patch.indexOf(`\n${marker}`) + 1;
  while (start > 0 || (start === 0 && patch.startsWith(marker))) {
    const next = patch.indexOf(`\n${marker}`, start + marker.length);
    const end = next < 0 ? patch.length : next + 1;
    const section = patch.slice(start, end);
    // In a plain diff a removed line reading `-- x` would look like a header: only a `---` line followed by `+++`
    // starts a file.
    const path = git || /^--- [^\n]*\n\+\+\+ /.test(section) ? sectionPath(section) : undefined;
    if (path !== undefined && out.size < MAX_SIGNED_FILES) {
      out.set(path, fnv1a(section));
    }
    if (next < 0) {
      break;
    }
    start = next + 1;
  }
  return out;
}

function sectionPath(section: string): string | undefined {
  // Only the header lines name the file (a hunk's line `+++ x` is content): stop at the first hunk.
  const hunk = section.indexOf('\n@@');
  const names = patchFileNames(hunk < 0 ? section : section.slice(0, hunk + 1)).paths;
  return names[names.length - 1];
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits: a change detector, not a security hash. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

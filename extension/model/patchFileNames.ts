/**
 * The file names a patch touches, read from its headers: unified/git diffs (`--- a/x`, `+++ b/x`, `diff --git`,
 * `rename`/`copy from|to`) and the `*** Begin Patch` format (`*** Add|Update|Delete File:`, `*** Move to:`). An
 * approval rule matches on these names, so a name that cannot be read for sure makes the list incomplete rather than
 * shorter: a rule must never answer a patch for the files it did not see. Pure; the patch is untrusted.
 */

export interface PatchFileNames {
  readonly paths: readonly string[];
  /** False when a header could not be read (a quoted name, a `diff --git` section naming nothing) or none was found. */
  readonly complete: boolean;
}

const SIDE = /^(---|\+\+\+) (.+)$/;
const CODEX = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;
const GIT_EXTENDED = /^(?:rename|copy) (?:from|to) (.+)$/;
const GIT_HEADER = /^diff --git (.+)$/;

/** `a/x b/x` with the same name on both sides; a header of two different names is read from its section instead. */
function gitHeaderName(rest: string): string | undefined {
  if (rest.length % 2 === 0) {
    return undefined;
  }
  const half = (rest.length - 1) / 2;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  return rest[half] === ' ' && left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2) ? left.slice(2) : undefined;
}

/**
 * Reads every line that looks like a header, inside hunks too: a removed line `-- x` reads as `--- x` and adds a
 * name, which can only make a rule match less (every name must match), never more.
 */
export function patchFileNames(patch: string): PatchFileNames {
  const paths: string[] = [];
  let complete = true;
  // A `diff --git` section whose header names two different files must name them in its own lines.
  let sectionNeedsNames = false;
  let sectionNamed = false;
  const add = (raw: string): void => {
    const name = raw.trim();
    if (name.startsWith('"')) {
      // Git quotes names with unusual characters (C-style escapes): not read here, so not matched either.
      complete = false;
      return;
    }
    sectionNamed = true;
    if (name !== '' && name !== '/dev/null' && !paths.includes(name)) {
      paths.push(name);
    }
  };
  for (const rawLine of patch.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const header = GIT_HEADER.exec(line);
    if (header) {
      if (sectionNeedsNames && !sectionNamed) {
        complete = false;
      }
      const name = gitHeaderName(header[1]!);
      sectionNeedsNames = name === undefined;
      sectionNamed = false;
      if (name !== undefined) {
        add(name);
      }
      continue;
    }
    const side = SIDE.exec(line);
    if (side) {
      // A unified diff may end a name with a tab and a timestamp.
      const name = side[2]!.replace(/\t.*$/, '');
      add(side[1] === '---' ? name.replace(/^a\//, '') : name.replace(/^b\//, ''));
      continue;
    }
    const other = CODEX.exec(line) ?? GIT_EXTENDED.exec(line);
    if (other) {
      add(other[1]!);
    }
  }
  if (sectionNeedsNames && !sectionNamed) {
    complete = false;
  }
  return { paths, complete: complete && paths.length > 0 };
}

/**
 * A realistic 4 MiB change set for the stall rows (bench/changeSetStalls.ts), with the workspace it applies to:
 * hundreds of long files edited in their middle (several hunks each, three lines of context, as `git diff` writes
 * them), a few added, deleted and renamed-and-edited files, a mode change, a CRLF file, one generated file added
 * whole (one hunk of thousands of lines, as a lock file is) and one binary file (`GIT binary patch`).
 */
import { prng, prose, randInt } from './benchKit';

export interface RealisticChangeSet {
  /** The git patch, just under `maxBytes`. */
  readonly patch: string;
  /** Every path the patch reads, with the text it has before the run (added files are absent). */
  readonly workspace: ReadonlyMap<string, string>;
  /** Files of the patch (in order) that Apply writes as text: all but the binary one. */
  readonly textFiles: readonly number[];
}

const CONTEXT = 3;

function line(random: () => number, eol: string): string {
  return `${'  '.repeat(randInt(random, 0, 4))}${prose(random, randInt(random, 8, 70)).replace(/\n/g, ' ')}${eol}`;
}

/** One modified (or renamed) file: `lines` long, edits in its middle. */
function modifiedFile(random: () => number, oldPath: string, newPath: string, eol: string): { diff: string; old: string } {
  const count = randInt(random, 300, 2_500);
  const old = Array.from({ length: count }, () => line(random, eol));
  const hunks: string[] = [];
  let delta = 0;
  // Edits start past the first third and are spread over the file: the middle of a long file.
  let at = randInt(random, Math.floor(count / 3), Math.floor(count / 2));
  for (let h = randInt(random, 2, 6); h > 0 && at + 40 < count; h--) {
    const dels = randInt(random, 0, 8);
    const adds = randInt(random, dels === 0 ? 1 : 0, 12);
    const before = old.slice(at - CONTEXT, at);
    const removed = old.slice(at, at + dels);
    const after = old.slice(at + dels, at + dels + CONTEXT);
    const added = Array.from({ length: adds }, () => line(random, eol));
    const oldStart = at - CONTEXT + 1;
    const oldLines = CONTEXT * 2 + dels;
    const newLines = CONTEXT * 2 + adds;
    const body = [...before.map((l) => ` ${l}`), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ...after.map((l) => ` ${l}`)];
    hunks.push(`@@ -${oldStart},${oldLines} +${oldStart + delta},${newLines} @@ function part${h}() {\n${body.join('\n')}\n`);
    delta += adds - dels;
    at += dels + CONTEXT * 2 + randInt(random, 10, 120);
  }
  const head = oldPath === newPath
    ? `diff --git a/${oldPath} b/${newPath}\nindex 1234567..89abcde 100644\n--- a/${oldPath}\n+++ b/${newPath}\n`
    : `diff --git a/${oldPath} b/${newPath}\nsimilarity index 96%\nrename from ${oldPath}\nrename to ${newPath}\nindex 1234567..89abcde 100644\n--- a/${oldPath}\n+++ b/${newPath}\n`;
  return { diff: head + hunks.join(''), old: `${old.join('\n')}\n` };
}

function addedFile(path: string, lines: readonly string[]): string {
  return `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..1234567\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}\n`;
}

export function realisticChangeSet(maxBytes: number, seed = 11): RealisticChangeSet {
  const random = prng(seed);
  const workspace = new Map<string, string>();
  const parts: string[] = [];
  const textFiles: number[] = [];
  let size = 0;
  const push = (diff: string, text: boolean): boolean => {
    const bytes = Buffer.byteLength(diff);
    if (size + bytes > maxBytes) {
      return false;
    }
    if (text) {
      textFiles.push(parts.length);
    }
    parts.push(diff);
    size += bytes;
    return true;
  };
  // The generated file added whole: one hunk of 8,000 lines (~400 KiB).
  const lock = Array.from({ length: 8_000 }, (_, i) => `    "node_modules/pkg-${i}": { "version": "1.${i % 97}.${i % 13}", "integrity": "sha512-${'x'.repeat(40)}" },`);
  push(addedFile('package-lock.json', lock), true);
  push(`diff --git a/media/logo.png b/media/logo.png\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 12\nTcmZ?wbhEHbRA5kGU|;|M0)PO|\n\nliteral 8\nPcmZ?wbhEHbRA2x900IC4\n\n`, false);
  push(`diff --git a/scripts/run.sh b/scripts/run.sh\nold mode 100644\nnew mode 100755\n`, true);
  workspace.set('scripts/run.sh', '#!/bin/sh\n');
  const deleted = Array.from({ length: 40 }, () => line(random, ''));
  push(`diff --git a/src/old/legacy.ts b/src/old/legacy.ts\ndeleted file mode 100644\nindex 1234567..0000000\n--- a/src/old/legacy.ts\n+++ /dev/null\n@@ -1,${deleted.length} +0,0 @@\n${deleted.map((l) => `-${l}`).join('\n')}\n`, true);
  workspace.set('src/old/legacy.ts', `${deleted.join('\n')}\n`);
  for (let file = 1; ; file++) {
    const dir = `src/feature${file % 37}`;
    const oldPath = `${dir}/module${file}.ts`;
    const roll = random();
    const newPath = roll < 0.03 ? `${dir}/renamed${file}.ts` : oldPath;
    const eol = file === 7 ? '\r' : ''; // one CRLF file: the CR is part of every line
    const m = roll > 0.97 ? undefined : modifiedFile(random, oldPath, newPath, eol);
    const diff = m ? m.diff : addedFile(`${dir}/new${file}.ts`, Array.from({ length: randInt(random, 20, 200) }, () => line(random, '')));
    if (!push(diff, true)) {
      break;
    }
    if (m) {
      workspace.set(oldPath, m.old);
    }
  }
  return { patch: parts.join(''), workspace, textFiles };
}

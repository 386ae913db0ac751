/**
 * Reads a git patch without stalling the extension host (issue #25 §3): the same model as `parseGitPatch`
 * (patchParser.ts), built file by file and hunk by hunk, giving the event loop back whenever a slice has used its
 * budget (the caller's `Pauses`, a `TimeSlices` of base/timeSlices.ts). A 4 MiB patch costs ~200 ms of parsing; done in one go it froze every view of the
 * window that long.
 *
 * Why slices on the main thread and not a worker_thread: the result is an object graph of ~100k lines that every
 * view reads. A worker would parse in parallel, but its answer arrives as one structured clone that the main
 * thread deserialises in one go (tens of ms for 4 MiB, the same order as the stall it removes), and it would need a
 * bundle of its own in the package and a pool to own. Slices keep one parser model, no copy, and bound every step
 * by the slice budget plus one line.
 *
 * The hunk bodies are read here directly (each line's first character says its kind), not through gitdiff-parser,
 * which only reads a whole text at once: a single hunk of a generated file can hold most of a 4 MiB patch. What it
 * accepts is what `parseGitPatch` accepts, checked by the same header-count checks: the unit tests hold the two to
 * the same result on many patches, hostile ones included.
 */
import { fileWhere, hunkRangesOf, patchFileOf, readHeaders } from './patchHeaders';
import type { Section } from './patchHeaders';
import { PatchParseError } from './patchTypes';
import type { ParsedPatch, PatchFile, PatchHunk, PatchLine } from './patchTypes';

/** Lines between two looks at the clock: cheap enough that the budget is overrun by microseconds only. */
const LINES_PER_LOOK = 1024;

/**
 * Where the reader may give the event loop back: the caller's `TimeSlices` (base/timeSlices.ts; this layer may not
 * import it), which yields once a slice has used its budget.
 */
export interface Pauses {
  pause(): Promise<void>;
}

async function readHunk(lines: readonly string[], raw: { header: number; end: number }, where: string, slices: Pauses): Promise<PatchHunk> {
  const { header, oldStart, oldLines, newStart, newLines } = hunkRangesOf(lines, raw.header, where);
  const out: PatchLine[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  for (let i = raw.header + 1; i < raw.end; i++) {
    if ((i - raw.header) % LINES_PER_LOOK === 0) {
      await slices.pause();
    }
    const line = lines[i] as string;
    const first = line.charCodeAt(0);
    if (first === 0x20 /* ' ' */) {
      out.push({ kind: 'context', text: line.slice(1) });
      oldSeen++;
      newSeen++;
    } else if (first === 0x2b /* + */) {
      out.push({ kind: 'add', text: line.slice(1) });
      newSeen++;
    } else if (first === 0x2d /* - */) {
      out.push({ kind: 'del', text: line.slice(1) });
      oldSeen++;
    } else if (first === 0x5c /* \ */) {
      // `\ No newline at end of file` belongs to the line before it; before any line it is a broken patch (the
      // all-at-once parser fails there too).
      if (out.length === 0) {
        throw new PatchParseError(`${where}: a "\\" marker before any line of hunk ${header}`);
      }
      out.push({ kind: 'noeol', text: line.slice(1).trimStart() });
    } else if (line.startsWith('@@') || line.startsWith('Binary')) {
      // A hunk header without its space, or a binary notice inside a hunk: the other parser ends the hunk or the
      // file there and then fails the counts, so this is refused too.
      throw new PatchParseError(`${where}: unexpected ${JSON.stringify(line.slice(0, 40))} in hunk ${header}`);
    }
    // Any other line (an empty line, stray text) is not part of the hunk, as for the other parser.
  }
  if (oldSeen !== oldLines || newSeen !== newLines) {
    throw new PatchParseError(`${where}: hunk ${header} has ${oldSeen}/${newSeen} old/new lines (truncated patch?)`);
  }
  return { oldStart, oldLines, newStart, newLines, header, lines: out };
}

/**
 * What the other parser cannot read in a section's header lines, which this reader could: a blank line followed by
 * more of the section (it stops reading headers there and then misses the hunks), a `---` line with no line
 * after it (it takes the next line as `+++`), and patch lines after `+++` but before any hunk header (it adds them
 * to the hunk before). Refused here too, so both read the same patches.
 */
function headerProblem(lines: readonly string[], section: Section): string | undefined {
  let pastMarkers = false;
  for (let i = section.start + 1; i < section.end; i++) {
    const line = lines[i] as string;
    if (line.startsWith('@@ ') || line === 'GIT binary patch' || line.startsWith('Binary files ')) {
      return undefined;
    }
    if (pastMarkers && /^[ +\\-]/.test(line)) {
      return 'patch lines outside any hunk';
    }
    pastMarkers ||= line.startsWith('+++ ');
    if (line === '' && lines.slice(i + 1, section.end).some((rest) => rest !== '')) {
      return 'a blank line among its header lines';
    }
    if (line.startsWith('--- ') && i + 1 >= lines.length) {
      return 'a "---" line with nothing after it';
    }
  }
  return undefined;
}

async function readFile(lines: readonly string[], section: Section, slices: Pauses): Promise<PatchFile> {
  const h = readHeaders(lines, section);
  const where = fileWhere(lines, section, h);
  const problem = headerProblem(lines, section);
  if (problem !== undefined) {
    throw new PatchParseError(`${where}: ${problem}`);
  }
  const hunks: PatchHunk[] = [];
  if (!h.binary) {
    if (h.hunks.length > 0 && (h.minus === undefined || h.plus === undefined)) {
      // git writes `---`/`+++` before any hunk; without them the other parser reads no hunks and fails the count.
      throw new PatchParseError(`${where}: hunks without "---"/"+++" lines`);
    }
    for (const raw of h.hunks) {
      hunks.push(await readHunk(lines, raw, where, slices));
      await slices.pause();
    }
  }
  return patchFileOf(lines, section, h, hunks);
}

/**
 * A `diff --git` line the other parser can split into its two paths (a quoted first path, or two tokens); it
 * refuses any other line that starts so, and so does this one.
 */
function readableSectionStart(line: string): boolean {
  const paths = line.slice('diff --git '.length);
  return line.startsWith('diff --git ') && (paths.startsWith('"') || paths.includes(' '));
}

/**
 * Parses a whole git patch as `parseGitPatch` does, giving the event loop back between slices. Rejects with
 * {@link PatchParseError}; an empty text is an empty change set.
 */
export async function readGitPatch(text: string, slices: Pauses): Promise<ParsedPatch> {
  if (text.length === 0) {
    return { files: [] };
  }
  const lines = text.split('\n');
  await slices.pause();
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('diff --git')) {
      if (!readableSectionStart(line)) {
        throw new PatchParseError(`unreadable section start ${JSON.stringify(line.slice(0, 80))}`);
      }
      starts.push(i);
    }
    if (i % (LINES_PER_LOOK * 8) === 0) {
      await slices.pause();
    }
  }
  if (starts.length === 0) {
    throw new PatchParseError('no "diff --git" section found');
  }
  const files: PatchFile[] = [];
  for (let i = 0; i < starts.length; i++) {
    files.push(await readFile(lines, { start: starts[i] as number, end: starts[i + 1] ?? lines.length }, slices));
    await slices.pause();
  }
  return { files };
}

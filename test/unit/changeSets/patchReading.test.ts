/**
 * The sliced patch reader (patchReading.ts) against the all-at-once parser (patchParser.ts, gitdiff-parser plus its
 * checks) as the reference: the same files, hunks and lines on every patch both accept, and a refusal wherever the
 * reference refuses — on real git output (binary, renames, copies, mode changes, no final newline, CRLF, quoted
 * paths), a realistic 4 MiB change set, a huge single line, hand-made broken patches and random mutations.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { TimeSlices } from '../../../extension/base/timeSlices';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { readGitPatch } from '../../../extension/changeSets/patchReading';
import type { Pauses } from '../../../extension/changeSets/patchReading';
import { PatchParseError } from '../../../extension/changeSets/patchTypes';
import type { ParsedPatch } from '../../../extension/changeSets/patchTypes';
import { realisticChangeSet } from '../../../bench/changeSetPatch';
import { prng, randInt } from '../../../bench/benchKit';
import { SAMPLE_PATCH } from './samplePatch';
import { TempGitRepo } from './tempGitRepo';

type Outcome = { readonly ok: true; readonly patch: ParsedPatch } | { readonly ok: false; readonly error: unknown };

function reference(text: string): Outcome {
  try {
    return { ok: true, patch: parseGitPatch(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Counts the places the reader may give the loop back (a budget of 1 ms: it does, often). */
class CountingPauses implements Pauses {
  count = 0;
  private readonly slices = new TimeSlices(1);
  async pause(): Promise<void> {
    this.count++;
    await this.slices.pause();
  }
}

async function sliced(text: string, pauses: Pauses = new TimeSlices(1)): Promise<Outcome> {
  try {
    return { ok: true, patch: await readGitPatch(text, pauses) };
  } catch (error) {
    return { ok: false, error };
  }
}

async function assertSame(text: string, label: string): Promise<Outcome> {
  const want = reference(text);
  const got = await sliced(text);
  if (want.ok) {
    assert.ok(got.ok, `${label}: the reference reads it, the sliced reader refuses: ${got.ok ? '' : String(got.error)}`);
    assert.deepEqual(got.patch, want.patch, label);
  } else {
    assert.ok(!got.ok, `${label}: the reference refuses it (${String(want.error)}), the sliced reader reads it`);
    assert.ok(got.error instanceof PatchParseError, `${label}: ${String(got.error)}`);
  }
  return want;
}

const TWO_FILES = [
  'diff --git a/a.txt b/a.txt',
  'index 1111111..2222222 100644',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,3 +1,3 @@ head',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '@@ -10,2 +10,3 @@',
  ' ten',
  ' eleven',
  '+twelve',
  'diff --git a/b.txt b/b.txt',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/b.txt',
  '@@ -0,0 +1 @@',
  '+only',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('the sliced patch reader reads what the all-at-once parser reads', () => {
  let repo: TempGitRepo;
  let gitText: string;

  before(() => {
    repo = new TempGitRepo();
    repo.write('ren.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n');
    repo.write('crlf.txt', 'x\r\ny\r\nz\r\n');
    repo.write('ne.txt', 'noeol');
    repo.write('del.txt', 'del 1\ndel 2\n');
    repo.write('src.txt', 'copysrc\nline2\nline3\nline4\n');
    repo.write('bin.dat', Buffer.from([0, 1, 2, 3]));
    repo.write('mode.sh', 'echo hi\n');
    repo.commitAll();
    repo.git('mv', 'ren.txt', 'renamed.txt');
    repo.write('renamed.txt', 'a\nb\nc\nD\ne\nf\ng\nh\n');
    repo.write('crlf.txt', 'x\r\nY\r\nz\r\n');
    repo.write('ne.txt', 'noeol2');
    repo.remove('del.txt');
    repo.write('copy.txt', 'copysrc\nline2\nline3\nline4\n');
    repo.write('bin.dat', Buffer.from([0, 1, 2, 4]));
    chmodSync(join(repo.dir, 'mode.sh'), 0o755);
    repo.write('été.txt', 'bonjour\n');
    repo.write('we"ird\tname.txt', 'odd\n');
    repo.write('huge-line.txt', `${'x'.repeat(1_500_000)}\n`);
    gitText = repo.stagedPatch('-C', '--find-copies-harder');
  });

  after(() => repo.dispose());

  it('real git output: binary, rename, copy, mode change, no final newline, CRLF, quoted paths, a 1.5 MB line', async () => {
    const want = await assertSame(gitText, 'git output');
    assert.ok(want.ok);
    const statuses = new Set(want.patch.files.map((f) => f.status));
    assert.deepEqual([...statuses].sort(), ['added', 'copied', 'deleted', 'modified', 'renamed']);
    assert.ok(want.patch.files.some((f) => f.binary));
    assert.ok(want.patch.files.some((f) => f.hunks.some((h) => h.lines.some((l) => l.kind === 'noeol'))));
    assert.ok(want.patch.files.some((f) => f.hunks.some((h) => h.lines.some((l) => l.text.endsWith('\r')))));
  });

  it('the sample patch of the views, and a patch without a final newline', async () => {
    await assertSame(SAMPLE_PATCH, 'sample');
    await assertSame(TWO_FILES, 'two files');
    await assertSame(TWO_FILES.slice(0, -1), 'no final newline');
    await assertSame('', 'empty');
  });

  it('a realistic 4 MiB change set, giving the loop back many times', async () => {
    const { patch } = realisticChangeSet(4 * 1024 * 1024);
    const want = reference(patch);
    assert.ok(want.ok);
    const pauses = new CountingPauses();
    const got = await sliced(patch, pauses);
    assert.ok(got.ok);
    // As JSON: deepEqual over 100k line objects takes seconds; both build the same literal shapes.
    assert.equal(JSON.stringify(got.patch), JSON.stringify(want.patch));
    // Every file and every 1,024 lines of a hunk is a place to yield: thousands of them here.
    assert.ok(pauses.count > want.patch.files.length, `${pauses.count} pauses for ${want.patch.files.length} files`);
  });

  it('a whole patch with CRLF line ends (the CR stays in every line, paths included)', async () => {
    await assertSame(TWO_FILES.replace(/\n/g, '\r\n'), 'CRLF patch');
  });

  it('broken patches are refused by both', async () => {
    const broken: Record<string, string> = {
      'no diff --git': 'hello\nworld\n',
      'truncated hunk': TWO_FILES.split('\n').slice(0, 8).join('\n'),
      'hunk count too high': TWO_FILES.replace('@@ -1,3 +1,3 @@', '@@ -1,4 +1,3 @@'),
      'bad hunk header': TWO_FILES.replace('@@ -10,2 +10,3 @@', '@@ -x +y @@'),
      'marker before any line': TWO_FILES.replace('@@ -0,0 +1 @@\n+only', '@@ -0,0 +1 @@\n\\ No newline at end of file\n+only'),
      'header without its space': TWO_FILES.replace(' ten\n', '@@-10 +10@@\n ten\n'),
      'hunks without ---/+++': 'diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n',
      'unreadable paths': 'diff --git nonsense\n--- x\n+++ y\n@@ -1 +1 @@\n-a\n+b\n',
    };
    for (const [label, text] of Object.entries(broken)) {
      const want = await assertSame(text, label);
      assert.equal(want.ok, false, `${label}: the reference should refuse it`);
    }
  });

  // gitdiff-parser carries its state from one file to the next, so on mangled text whether it refuses can depend on
  // the file before; the sliced reader judges each file alone. What must hold: a patch both read is read the same.
  it('random mutations of real patches: whenever both read one, they read the same files, hunks and lines', async () => {
    let both = 0;
    const random = prng(25);
    const sources = [SAMPLE_PATCH, TWO_FILES, gitText.replace(/x{1000,}/, 'x'.repeat(100))];
    for (let round = 0; round < 600; round++) {
      const source = sources[round % sources.length]!;
      const lines = source.split('\n');
      const at = randInt(random, 0, lines.length - 1);
      switch (randInt(random, 0, 4)) {
        case 0:
          lines.splice(at, 1);
          break;
        case 1:
          lines.splice(at, 0, lines[randInt(random, 0, lines.length - 1)]!);
          break;
        case 2:
          lines[at] = lines[at]!.slice(0, randInt(random, 0, lines[at]!.length));
          break;
        case 3:
          lines[at] = `${['+', '-', ' ', '\\', '@@ ', ''][randInt(random, 0, 5)]}${lines[at]!.slice(1)}`;
          break;
        default:
          lines.length = at;
      }
      const text = lines.join('\n');
      const want = reference(text);
      const got = await sliced(text);
      if (want.ok && got.ok) {
        both++;
        assert.deepEqual(got.patch, want.patch, `mutation ${round}`);
      } else if (!got.ok) {
        assert.ok(got.error instanceof PatchParseError, `mutation ${round}: ${String(got.error)}`);
      }
    }
    assert.ok(both > 100, `only ${both} of 600 mutations were read by both`);
  });
});

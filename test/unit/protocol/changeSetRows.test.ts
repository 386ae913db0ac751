/** The change-set diff rows: the host's `changeSet` message and the webview's row builder, end to end. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { buildDiffRows, encodeHunkLines, fileNotes } from '../../../extension/protocol/changeSetRows';
import { hunkContentKey, reviewUnitsOf } from '../../../extension/changeSets/reviewState';
import type { DiffRow, DiffRows } from '../../../extension/protocol/changeSetRows';
import type { ChangeSetFileView } from '../../../extension/protocol/webviewMessages';
import { changeSetMessageSchema, hostToWebviewSchema } from '../../../extension/protocol/webviewMessages';
import { changeSetMessage } from '../../../extension/ui/changeSets/changeSetWebview';
import { HOSTILE_NAME, SAMPLE_PATCH } from '../changeSets/samplePatch';

const RUN = { key: 'a3s:local::run-7', title: 'Bump the retries' };

function allRows(rows: DiffRows): DiffRow[] {
  return Array.from({ length: rows.length }, (_, i) => rows.row(i)!);
}

/** `kind old new text` per row, compact enough to compare whole files. */
function show(rows: readonly DiffRow[]): string[] {
  return rows.map((r) => `${r.kind} ${r.oldLine || '.'} ${r.newLine || '.'} ${r.text}`.trimEnd());
}

function fileView(overrides: Partial<ChangeSetFileView>): ChangeSetFileView {
  return { index: 0, path: 'a.txt', status: 'modified', additions: 0, deletions: 0, binary: false, hunks: [], ...overrides };
}

describe('changeSet message (host)', () => {
  const files = parseGitPatch(SAMPLE_PATCH).files;
  const message = changeSetMessage(RUN, { source: 'daemon' }, files);

  test('is a valid host message with one view per parsed file, in order', () => {
    assert.equal(hostToWebviewSchema.safeParse(message).success, true);
    assert.equal(changeSetMessageSchema.safeParse(message).success, true);
    assert.equal(message.runKey, RUN.key);
    assert.equal(message.title, RUN.title);
    assert.equal(message.source, 'daemon');
    assert.deepEqual(
      message.files.map((f) => [f.index, f.path, f.status, f.additions, f.deletions, f.binary]),
      [
        [0, 'src/config.ts', 'modified', 3, 2, false],
        [1, 'docs/new.md', 'added', 2, 0, false],
        [2, 'old/removed.txt', 'deleted', 0, 2, false],
        [3, 'lib/renamed.ts', 'renamed', 1, 1, false],
        [4, 'img/logo.png', 'modified', 0, 0, true],
        [5, 'été/café 🍵.txt', 'added', 1, 0, false],
        [6, 'run.sh', 'modified', 0, 0, false],
        [7, HOSTILE_NAME, 'modified', 1, 1, false],
      ],
    );
  });

  test('oldPath only for renames and copies; modes as parsed', () => {
    assert.deepEqual(message.files.map((f) => f.oldPath), [undefined, undefined, undefined, 'lib/ren.ts', undefined, undefined, undefined, undefined]);
    assert.deepEqual([message.files[6]?.oldMode, message.files[6]?.newMode], ['100644', '100755']);
  });

  test('hunk bodies are the patch lines with their prefixes', () => {
    assert.deepEqual(message.files[0]?.hunks[1], {
      header: '@@ -10,2 +11,2 @@ export function loadConfig() {',
      oldStart: 10,
      newStart: 11,
      lines: ' // end\n-export const version = 1;\n\\No newline at end of file\n+export const version = 2;\n\\No newline at end of file',
      // The review key of the hunk (changeSets/reviewState.ts): what a Reviewed toggle sends back.
      key: hunkContentKey('src/config.ts', files[0]!.hunks[1]!),
    });
    assert.deepEqual(message.files[4]?.hunks, []);
    assert.equal(message.files[4]?.key, reviewUnitsOf(files)[4]![0]!.key, 'a file without hunks is reviewed as one unit');
  });

  test('a local change set offers Undo per hunk for files edited in place, per file otherwise, never for a daemon\'s', () => {
    const local = changeSetMessage(RUN, { source: 'local' }, files);
    assert.deepEqual(local.files.map((f) => f.undo), ['hunks', 'file', 'file', 'file', 'file', 'file', 'file', 'hunks']);
    assert.deepEqual(message.files.map((f) => f.undo), files.map(() => undefined));
  });

  test('rows know which hunk of their file they belong to', () => {
    const rows = allRows(buildDiffRows(message.files.slice(0, 1)));
    assert.deepEqual(rows.map((r) => r.hunk), [-1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  });

  test('over the size budget, files go without hunks (marked omitted) and smaller ones after still fit', () => {
    const big = { ...files[0]!, hunks: [{ ...files[0]!.hunks[0]!, lines: [{ kind: 'add' as const, text: 'x'.repeat(500) }] }] };
    const small = changeSetMessage(RUN, { source: 'local' }, [big, files[1]!, files[4]!], 200);
    assert.equal(small.source, 'local');
    assert.deepEqual(small.files.map((f) => [f.hunks.length, f.omitted ?? false]), [[0, true], [1, false], [0, false]]);
    assert.match(fileNotes(small.files[0]!).join(), /too large/);
  });
});

describe('diff rows (webview)', () => {
  const message = changeSetMessage(RUN, { source: 'daemon' }, parseGitPatch(SAMPLE_PATCH).files);
  const rows = buildDiffRows(message.files);
  const list = allRows(rows);
  const ofFile = (f: number) => show(list.filter((r) => r.file === f));

  test('an edited file: header, hunk headers, context/removed/added lines with old/new numbers, no-newline markers', () => {
    assert.deepEqual(ofFile(0), [
      'file . .',
      'hunk . . @@ -1,4 +1,5 @@ export function loadConfig() {',
      "context 1 1 import { readFileSync } from 'node:fs';",
      'del 2 . const retries = 3;',
      'add . 2 const retries = 5;',
      "add . 3 const html = '<script>window.__pwned = 1</script>';",
      'context 3 4 export function loadConfig(path: string) {',
      "context 4 5   return JSON.parse(readFileSync(path, 'utf8'));",
      'hunk . . @@ -10,2 +11,2 @@ export function loadConfig() {',
      'context 10 11 // end',
      'del 11 . export const version = 1;',
      'noeol . . No newline at end of file',
      'add . 12 export const version = 2;',
      'noeol . . No newline at end of file',
    ]);
  });

  test('new, deleted and renamed files number only their side', () => {
    assert.deepEqual(ofFile(1), ['file . .', 'hunk . . @@ -0,0 +1,2 @@', 'add . 1 # New', 'add . 2 <img src=x onerror="window.__pwned = 2">']);
    assert.deepEqual(ofFile(2), ['file . .', 'hunk . . @@ -1,2 +0,0 @@', 'del 1 . gone 1', 'del 2 . gone 2']);
    assert.deepEqual(ofFile(3), ['file . .', 'hunk . . @@ -1,3 +1,3 @@', 'context 1 1 a', 'del 2 . b', 'add . 2 B', 'context 3 3 c']);
  });

  test('binary and mode-only files get a note instead of lines', () => {
    assert.deepEqual(ofFile(4), ['file . .', 'note . . Binary file — not shown here; open it in the diff editor.']);
    assert.deepEqual(ofFile(6), ['file . .', 'note . . File mode 100644 → 100755']);
  });

  test('fileStarts point at each file header; out-of-range rows are undefined', () => {
    assert.equal(rows.fileStarts.length, message.files.length);
    rows.fileStarts.forEach((start, f) => assert.deepEqual([rows.row(start)?.kind, rows.row(start)?.file], ['file', f]));
    assert.equal(rows.row(-1), undefined);
    assert.equal(rows.row(rows.length), undefined);
    assert.equal(rows.row(0.5), undefined);
  });

  test('sizes: the largest line number and the widest line (tabs count 4)', () => {
    assert.equal(rows.maxLineNumber, 12);
    const tabbed = buildDiffRows([fileView({ hunks: [{ header: '@@ -1 +1 @@', oldStart: 1, newStart: 1, lines: encodeHunkLines([{ kind: 'del', text: '\t\tab' }, { kind: 'add', text: 'abcdefghij' }]) }] })]);
    assert.equal(tabbed.maxColumns, 10);
    const wider = buildDiffRows([fileView({ hunks: [{ header: '@@ -1 +1 @@', oldStart: 1, newStart: 1, lines: encodeHunkLines([{ kind: 'del', text: '\t\t\tab' }]) }] })]);
    assert.equal(wider.maxColumns, 14);
  });

  test('encodeHunkLines round-trips every kind; CR stays part of the text', () => {
    const lines = [
      { kind: 'context' as const, text: '' },
      { kind: 'del' as const, text: 'x\r' },
      { kind: 'add' as const, text: '-looks like a removal' },
      { kind: 'add' as const, text: '' },
      { kind: 'noeol' as const, text: 'No newline at end of file' },
    ];
    const decoded = allRows(buildDiffRows([fileView({ hunks: [{ header: '@@', oldStart: 5, newStart: 7, lines: encodeHunkLines(lines) }] })])).slice(2);
    assert.deepEqual(decoded.map((r) => [r.kind, r.text]), lines.map((l) => [l.kind, l.text]));
    assert.deepEqual(decoded.map((r) => [r.oldLine, r.newLine]), [[5, 7], [6, 0], [0, 8], [0, 9], [0, 0]]);
  });

  test('lenient: an empty body has no lines; an unknown prefix becomes a note without numbering', () => {
    const odd = allRows(buildDiffRows([fileView({ hunks: [{ header: '@@ a', oldStart: 1, newStart: 1, lines: '' }, { header: '@@ b', oldStart: 1, newStart: 1, lines: '?what\n+x' }] })]));
    assert.deepEqual(show(odd), ['file . .', 'hunk . . @@ a', 'hunk . . @@ b', 'note . . ?what', 'add . 1 x']);
  });

  test('files without hunks say why', () => {
    assert.deepEqual(fileNotes(fileView({ status: 'added' })), ['New empty file.']);
    assert.deepEqual(fileNotes(fileView({ status: 'renamed', oldPath: 'b.txt' })), ['Renamed without content changes.']);
    assert.deepEqual(fileNotes(fileView({ status: 'deleted' })), ['Deleted an empty file.']);
    assert.deepEqual(fileNotes(fileView({ binary: true, oldMode: '100644', newMode: '100755' })), [
      'File mode 100644 → 100755',
      'Binary file — not shown here; open it in the diff editor.',
    ]);
  });

  test('100k lines build in well under a second', () => {
    const body = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? `+added ${i}` : i % 3 === 1 ? `-removed ${i}` : ` same ${i}`)).join('\n');
    const files = Array.from({ length: 100 }, (_, f) => fileView({ index: f, path: `f${f}.ts`, hunks: [{ header: '@@ -1 +1 @@', oldStart: 1, newStart: 1, lines: body }] }));
    const started = performance.now();
    const big = buildDiffRows(files);
    const elapsed = performance.now() - started;
    assert.equal(big.length, 100 * 1002);
    assert.equal(big.row(big.length - 1)?.text, 'added 999');
    assert.ok(elapsed < 1_000, `took ${elapsed.toFixed(0)} ms`);
  });
});

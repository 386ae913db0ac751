import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { unquoteGitPath } from '../../../extension/changeSets/gitPaths';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { PatchParseError } from '../../../extension/changeSets/patchTypes';
import type { PatchFile, ParsedPatch } from '../../../extension/changeSets/patchTypes';
import { TempGitRepo } from './tempGitRepo';

function byNewPath(patch: ParsedPatch, path: string): PatchFile {
  const file = patch.files.find((f) => f.newPath === path);
  assert.ok(file, `no file ${path} in ${patch.files.map((f) => f.newPath).join(', ')}`);
  return file;
}

function kinds(file: PatchFile): string {
  return file.hunks.map((h) => h.lines.map((l) => l.kind[0]).join('')).join('|');
}

describe('git patch parsing (real git output)', () => {
  let repo: TempGitRepo;
  let text: string;
  let patch: ParsedPatch;

  before(() => {
    repo = new TempGitRepo();
    repo.write('keep.txt', 'one\ntwo\nthree\n');
    repo.write('ren.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n');
    repo.write('pure-rename.txt', 'p\nq\nr\ns\n');
    repo.write('crlf.txt', 'x\r\ny\r\nz\r\n');
    repo.write('ne.txt', 'noeol');
    repo.write('gains-eol.txt', 'last');
    repo.write('del.txt', 'del 1\ndel 2\n');
    repo.write('src.txt', 'copysrc\nline2\nline3\nline4\n');
    repo.write('bin.dat', Buffer.from([0, 1, 2, 3]));
    repo.write('gone.bin', Buffer.from([0, 9, 9, 9]));
    repo.write('mode.sh', 'echo hi\n');
    repo.write('multi.txt', Array.from({ length: 40 }, (_, i) => `m${i}\n`).join(''));
    repo.commitAll();

    repo.git('mv', 'ren.txt', 'renamed.txt');
    repo.write('renamed.txt', 'a\nb\nc\nD\ne\nf\ng\nh\n');
    repo.write('dir/.keep', '');
    repo.git('mv', 'pure-rename.txt', 'dir/moved.txt');
    repo.write('crlf.txt', 'x\r\nY\r\nz\r\n');
    repo.write('ne.txt', 'noeol2');
    repo.write('gains-eol.txt', 'last\n');
    repo.remove('del.txt');
    repo.write('copy.txt', 'copysrc\nline2\nline3\nline4\n');
    repo.write('bin.dat', Buffer.from([0, 1, 2, 4]));
    repo.remove('gone.bin');
    chmodSync(join(repo.dir, 'mode.sh'), 0o755);
    repo.write('multi.txt', Array.from({ length: 40 }, (_, i) => (i === 2 ? 'CHANGED\n' : i === 35 ? 'ALSO\n' : `m${i}\n`)).join(''));
    repo.write('été.txt', 'bonjour\n');
    repo.write('with space.txt', 'sp\n');
    repo.write('we"ird\tname.txt', 'odd\n');
    repo.write('empty-new.txt', '');
    repo.write('new.bin', Buffer.from([0xff, 0, 0xfe]));
    text = repo.stagedPatch('-C', '--find-copies-harder');
    patch = parseGitPatch(text);
  });

  after(() => repo.dispose());

  it('finds one file per diff --git section', () => {
    assert.equal(patch.files.length, (text.match(/^diff --git /gm) ?? []).length);
    assert.equal(patch.files.length, 17);
  });

  it('rename with edits: status renamed (the library says modify), both paths, hunk', () => {
    const f = byNewPath(patch, 'renamed.txt');
    assert.equal(f.status, 'renamed');
    assert.equal(f.oldPath, 'ren.txt');
    assert.equal(f.similarity !== undefined && f.similarity < 100, true);
    assert.equal(f.additions, 1);
    assert.equal(f.deletions, 1);
    assert.deepEqual(f.hunks[0]?.lines.filter((l) => l.kind !== 'context'), [
      { kind: 'del', text: 'd' },
      { kind: 'add', text: 'D' },
    ]);
  });

  it('pure rename into a directory: no hunks', () => {
    const f = byNewPath(patch, 'dir/moved.txt');
    assert.deepEqual([f.status, f.oldPath, f.similarity, f.hunks.length], ['renamed', 'pure-rename.txt', 100, 0]);
  });

  it('copy', () => {
    const f = byNewPath(patch, 'copy.txt');
    assert.deepEqual([f.status, f.oldPath, f.binary], ['copied', 'src.txt', false]);
  });

  it('binary modify, add and delete (GIT binary patch)', () => {
    assert.deepEqual(pick(byNewPath(patch, 'bin.dat')), { status: 'modified', binary: true, hunks: 0 });
    assert.deepEqual(pick(byNewPath(patch, 'new.bin')), { status: 'added', binary: true, hunks: 0 });
    const gone = patch.files.find((f) => f.oldPath === 'gone.bin');
    assert.ok(gone);
    assert.deepEqual(pick(gone), { status: 'deleted', binary: true, hunks: 0 });
    assert.equal(gone.newPath, 'gone.bin');
  });

  it('mode change (old mode / new mode lines)', () => {
    const f = byNewPath(patch, 'mode.sh');
    assert.deepEqual([f.status, f.oldMode, f.newMode, f.hunks.length], ['modified', '100644', '100755', 0]);
  });

  it('no newline at end of file, placed after the line it describes', () => {
    assert.equal(kinds(byNewPath(patch, 'ne.txt')), 'dnan');
    const gains = byNewPath(patch, 'gains-eol.txt');
    assert.equal(kinds(gains), 'dna');
    assert.equal(gains.hunks[0]?.lines[1]?.text, 'No newline at end of file');
  });

  it('CRLF content keeps the CR in line text', () => {
    const f = byNewPath(patch, 'crlf.txt');
    assert.deepEqual(f.hunks[0]?.lines.map((l) => l.text), ['x\r', 'y\r', 'Y\r', 'z\r']);
  });

  it('quoted unicode, space and escape paths are unquoted', () => {
    assert.match(text, /"b\/\\303\\251t\\303\\251\.txt"/);
    assert.equal(byNewPath(patch, 'été.txt').status, 'added');
    assert.equal(byNewPath(patch, 'with space.txt').oldPath, 'with space.txt');
    assert.equal(byNewPath(patch, 'we"ird\tname.txt').status, 'added');
  });

  it('new and deleted files with zero-count ranges', () => {
    const added = byNewPath(patch, 'été.txt');
    assert.deepEqual([added.newMode, added.oldMode, added.hunks[0]?.oldStart, added.hunks[0]?.oldLines, added.hunks[0]?.newLines], ['100644', undefined, 0, 0, 1]);
    const del = patch.files.find((f) => f.oldPath === 'del.txt');
    assert.ok(del);
    assert.deepEqual([del.status, del.oldMode, del.newMode, del.hunks[0]?.newLines, del.deletions], ['deleted', '100644', undefined, 0, 2]);
    const empty = byNewPath(patch, 'empty-new.txt');
    assert.deepEqual([empty.status, empty.hunks.length], ['added', 0]);
  });

  it('several hunks in one file', () => {
    const f = byNewPath(patch, 'multi.txt');
    assert.equal(f.hunks.length, 2);
    assert.deepEqual(f.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]), [[1, 6, 1, 6], [33, 7, 33, 7]]);
    assert.match(f.hunks[0]?.header ?? '', /^@@ -1,6 \+1,6 @@/);
  });

  it('refuses a truncated patch instead of returning a short file', () => {
    const cut = text.slice(0, text.indexOf('+D') + 2);
    assert.throws(() => parseGitPatch(cut), PatchParseError);
  });
});

function pick(f: PatchFile) {
  return { status: f.status, binary: f.binary, hunks: f.hunks.length };
}

describe('patch parser edge cases', () => {
  it('empty text is an empty change set; text without sections is an error', () => {
    assert.deepEqual(parseGitPatch('').files, []);
    assert.throws(() => parseGitPatch('hello\n'), /no "diff --git"/);
  });

  it('unquotes C-style git paths', () => {
    assert.equal(unquoteGitPath('"a/\\303\\251t\\303\\251.txt"'), 'a/été.txt');
    assert.equal(unquoteGitPath('"tab\\there\\"\\\\"'), 'tab\there"\\');
    assert.equal(unquoteGitPath('plain/path'), 'plain/path');
    assert.throws(() => unquoteGitPath('"broken'), PatchParseError);
  });

  it('reads Binary files … differ (without --binary)', () => {
    const p = parseGitPatch('diff --git a/x.png b/x.png\nindex 1111111..2222222 100644\nBinary files a/x.png and b/x.png differ\n');
    assert.deepEqual(pick(p.files[0] as PatchFile), { status: 'modified', binary: true, hunks: 0 });
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyHunks, reconstructSides } from '../../../extension/changeSets/hunkApply';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import type { PatchFile } from '../../../extension/changeSets/patchTypes';
import { TempGitRepo } from './tempGitRepo';

const lines40 = Array.from({ length: 40 }, (_, i) => `m${i}`);
const text = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('');
const ORIGINAL: Record<string, string> = {
  'multi.txt': text(lines40),
  'ne.txt': 'noeol',
  'gains.txt': 'a\nlast',
  'loses.txt': 'a\nb\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'del.txt': 'bye\nnow\n',
  'blob.bin': '\0\u0001',
};
const MODIFIED: Record<string, string> = {
  'multi.txt': text(lines40.map((l, i) => (i === 2 ? 'CHANGED' : i === 35 ? 'ALSO' : l))),
  'ne.txt': 'noeol2',
  'gains.txt': 'a\nlast\n',
  'loses.txt': 'a\nB',
  'crlf.txt': 'one\r\nTWO\r\nthree\r\n',
  'new.txt': 'fresh\nfile\n',
  'blob.bin': '\0\u0002',
};

describe('applyHunks / reconstructSides over real git patches', () => {
  let repo: TempGitRepo;
  let files: readonly PatchFile[];
  const file = (path: string): PatchFile => {
    const f = files.find((x) => x.newPath === path);
    assert.ok(f, path);
    return f;
  };

  before(() => {
    repo = new TempGitRepo();
    for (const [path, content] of Object.entries(ORIGINAL)) {
      repo.write(path, content);
    }
    repo.commitAll();
    repo.remove('del.txt');
    for (const [path, content] of Object.entries(MODIFIED)) {
      repo.write(path, content);
    }
    files = parseGitPatch(repo.stagedPatch()).files;
  });

  after(() => repo.dispose());

  it('applying every hunk reproduces the new file exactly (noeol, CRLF, add, delete)', () => {
    for (const path of ['multi.txt', 'ne.txt', 'gains.txt', 'loses.txt', 'crlf.txt']) {
      assert.deepEqual(applyHunks(ORIGINAL[path] as string, file(path)), { ok: true, text: MODIFIED[path] }, path);
    }
    assert.deepEqual(applyHunks('', file('new.txt')), { ok: true, text: 'fresh\nfile\n' });
    assert.deepEqual(applyHunks('bye\nnow\n', file('del.txt')), { ok: true, text: '' });
  });

  it('applies a chosen subset of hunks', () => {
    const multi = file('multi.txt');
    assert.equal(multi.hunks.length, 2);
    const only = (i: number, v: string) => text(lines40.map((l, k) => (k === i ? v : l)));
    assert.deepEqual(applyHunks(ORIGINAL['multi.txt'] as string, multi, [0]), { ok: true, text: only(2, 'CHANGED') });
    assert.deepEqual(applyHunks(ORIGINAL['multi.txt'] as string, multi, [1]), { ok: true, text: only(35, 'ALSO') });
    assert.deepEqual(applyHunks(ORIGINAL['multi.txt'] as string, multi, []), { ok: true, text: ORIGINAL['multi.txt'] });
    assert.throws(() => applyHunks('', multi, [2]), RangeError);
  });

  it('tolerates an offset like git apply (lines added above)', () => {
    const shifted = `x\ny\nz\n${ORIGINAL['multi.txt'] as string}`;
    const result = applyHunks(shifted, file('multi.txt'));
    assert.deepEqual(result, { ok: true, text: `x\ny\nz\n${MODIFIED['multi.txt'] as string}` });
  });

  it('reports conflicts instead of applying part of the patch', () => {
    const drifted = text(lines40.map((l, i) => (i === 1 ? 'DRIFT' : l)));
    const result = applyHunks(drifted, file('multi.txt'));
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.reason === 'conflict');
    assert.deepEqual(result.conflicts, [{ hunkIndex: 0, line: 2, expected: 'm1', actual: 'DRIFT', reason: 'context_mismatch' }]);
    // The untouched hunk alone still applies.
    assert.equal(applyHunks(drifted, file('multi.txt'), [1]).ok, true);
    // CRLF is content: an LF-only base does not match.
    assert.equal(applyHunks('one\ntwo\nthree\n', file('crlf.txt')).ok, false);
    // End-of-file newline state is checked.
    const eol = applyHunks('noeol\n', file('ne.txt'));
    assert.ok(!eol.ok && eol.reason === 'conflict' && eol.conflicts[0]?.reason === 'eof_newline');
  });

  it('refuses binary files', () => {
    assert.deepEqual(applyHunks('', file('blob.bin')), { ok: false, reason: 'binary' });
  });

  it('reconstructs both sides from the patch at their true line numbers', () => {
    const { left, right } = reconstructSides(file('multi.txt'), { filler: '…' });
    const leftLines = left.text.split('\n');
    const orig = (ORIGINAL['multi.txt'] as string).split('\n');
    for (const range of left.known) {
      for (let n = range.start; n < range.start + range.count; n++) {
        assert.equal(leftLines[n - 1], orig[n - 1], `left line ${n}`);
      }
    }
    assert.equal(leftLines[10], '…');
    assert.deepEqual(left.known, [{ start: 1, count: 6 }, { start: 33, count: 7 }]);
    assert.equal(left.complete, false);
    const rightLines = right.text.split('\n');
    assert.equal(rightLines[2], 'CHANGED');
    assert.equal(rightLines[35], 'ALSO');

    const added = reconstructSides(file('new.txt'));
    assert.deepEqual(added.left, { text: '', known: [], complete: true });
    assert.deepEqual([added.right.text, added.right.complete], ['fresh\nfile\n', true]);
    const deleted = reconstructSides(file('del.txt'));
    assert.deepEqual([deleted.left.text, deleted.left.complete, deleted.right.text], ['bye\nnow\n', true, '']);
    const noeol = reconstructSides(file('loses.txt'));
    assert.deepEqual([noeol.left.text, noeol.right.text], ['a\nb\n', 'a\nB']);
  });
});

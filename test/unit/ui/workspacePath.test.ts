/**
 * The path rules behind WorkspaceAccess: a path is inside a workspace folder only once `..` and symlinks are
 * resolved (also for files that do not exist yet), and ACP's 1-based line window. The real VS Code side (buffers,
 * undo, save) is test/integration/workspaceAccess.test.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WorkspaceAccessError } from '../../../extension/drivers/kit/workspaceAccess';
import { isWithin, lineWindow, realLocation, resolveInsideRoots } from '../../../extension/ui/workspacePath';

const refused = (reason: WorkspaceAccessError['reason']) => (error: unknown) => error instanceof WorkspaceAccessError && error.reason === reason;

describe('resolveInsideRoots', () => {
  let base: string;
  let root: string;
  let outside: string;
  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-path-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(outside, path.join(root, 'escape'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
    fs.symlinkSync(path.join(root, 'src'), path.join(base, 'linked-root'));
    // A root named like a prefix of another must not admit the other's files.
    fs.mkdirSync(path.join(base, 'root-sibling'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  test('a file inside, existing or not (and its missing parents), resolves to itself', async () => {
    assert.deepEqual(await resolveInsideRoots(path.join(root, 'src', 'a.ts'), [root]), { lexical: path.join(root, 'src', 'a.ts'), real: path.join(root, 'src', 'a.ts') });
    const fresh = path.join(root, 'new', 'deeper', 'b.ts');
    assert.equal((await resolveInsideRoots(fresh, [root])).real, fresh);
  });

  test('`..` is resolved before the check', async () => {
    await assert.rejects(resolveInsideRoots(path.join(root, 'src', '..', '..', 'outside', 'secret.txt'), [root]), refused('outsideWorkspace'));
    assert.equal((await resolveInsideRoots(`${root}/src/../src/a.ts`, [root])).real, path.join(root, 'src', 'a.ts'));
  });

  test('an absolute path elsewhere, and a prefix-named sibling, are outside', async () => {
    await assert.rejects(resolveInsideRoots(path.join(outside, 'secret.txt'), [root]), refused('outsideWorkspace'));
    await assert.rejects(resolveInsideRoots(path.join(base, 'root-sibling', 'x'), [root]), refused('outsideWorkspace'));
  });

  test('a symlink pointing out is outside: the file, a directory, and a new file below it', async () => {
    await assert.rejects(resolveInsideRoots(path.join(root, 'secret-link.txt'), [root]), refused('outsideWorkspace'));
    await assert.rejects(resolveInsideRoots(path.join(root, 'escape', 'secret.txt'), [root]), refused('outsideWorkspace'));
    await assert.rejects(resolveInsideRoots(path.join(root, 'escape', 'planted', 'new.txt'), [root]), refused('outsideWorkspace'));
  });

  test("a root reached through a symlink still holds its files (the root's links are followed too)", async () => {
    const viaLink = path.join(base, 'linked-root', 'a.ts');
    assert.deepEqual(await resolveInsideRoots(viaLink, [path.join(root, 'src')]), { lexical: viaLink, real: path.join(root, 'src', 'a.ts') });
    assert.equal((await resolveInsideRoots(path.join(root, 'src', 'a.ts'), [path.join(base, 'linked-root')])).real, path.join(root, 'src', 'a.ts'));
  });

  test('relative, empty and NUL paths are invalid; no roots means nothing is inside', async () => {
    await assert.rejects(resolveInsideRoots('src/a.ts', [root]), refused('invalid'));
    await assert.rejects(resolveInsideRoots('', [root]), refused('invalid'));
    await assert.rejects(resolveInsideRoots(`${root}/a\0b`, [root]), refused('invalid'));
    await assert.rejects(resolveInsideRoots(path.join(root, 'src', 'a.ts'), []), refused('outsideWorkspace'));
  });

  test('realLocation follows links of the existing part only', async () => {
    assert.equal(await realLocation(path.join(root, 'escape', 'x', 'y')), path.join(outside, 'x', 'y'));
    assert.equal(await realLocation(path.join(root, 'src', 'a.ts', 'below-a-file')), path.join(root, 'src', 'a.ts', 'below-a-file'));
  });

  test('isWithin', () => {
    assert.equal(isWithin('/w', '/w'), true);
    assert.equal(isWithin('/w', '/w/a'), true);
    assert.equal(isWithin('/w', '/w/..a'), true);
    assert.equal(isWithin('/w', '/wx'), false);
    assert.equal(isWithin('/w', '/'), false);
  });
});

describe('lineWindow', () => {
  const text = 'one\ntwo\r\nthree\nfour';
  test('no line or limit: the whole text', () => {
    assert.equal(lineWindow(text), text);
    assert.equal(lineWindow(text, null, null), text);
  });
  test('line is 1-based and keeps line endings; limit counts lines', () => {
    assert.equal(lineWindow(text, 2), 'two\r\nthree\nfour');
    assert.equal(lineWindow(text, 2, 2), 'two\r\nthree\n');
    assert.equal(lineWindow(text, 1, 1), 'one\n');
    assert.equal(lineWindow(text, 4, 10), 'four');
    assert.equal(lineWindow(text, undefined, 3), 'one\ntwo\r\nthree\n');
  });
  test('past the end is empty; limit 0 is empty; line 0 reads from the first line', () => {
    assert.equal(lineWindow(text, 5), '');
    assert.equal(lineWindow('a\n', 2), '');
    assert.equal(lineWindow(text, 2, 0), '');
    assert.equal(lineWindow(text, 0, 1), 'one\n');
    assert.equal(lineWindow('', 1, 1), '');
  });
  test('negative or fractional values are invalid', () => {
    assert.throws(() => lineWindow(text, -1), refused('invalid'));
    assert.throws(() => lineWindow(text, 1, 1.5), refused('invalid'));
  });
});

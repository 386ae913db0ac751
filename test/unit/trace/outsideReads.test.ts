/**
 * The repository stands on its own: nothing the build, the tests, CI or the extension run reads a file beside the
 * clone (the upstream protocol spec used to be read from `../shared/protocols/WIRE.md`; our own reference is
 * docs/protocols/). The scanner is checked first against the exact forms that read was written in, so a scanner
 * that finds nothing cannot pass for a clean repository.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { scanRepository, scanScript, scanShell } from './outsideReads';

const root = join(__dirname, '..', '..', '..');
const traceDir = join(root, 'test', 'unit', 'trace');
// The sibling folder's name, spelled so that this file's own strings are not findings of the last test.
const S = ['sha', 'red'].join('');

test('the scanner finds the reads of the sibling spec folder that the trace check used to make', () => {
  const old = [
    // The two reads this replaced (checkTraceCoverage.ts, traceCoverage.test.ts), verbatim.
    `const wireFile = process.env.SWITCHBOARD_WIRE_MD ?? join(__dirname, '..', '..', '..', '..', '${S}', 'protocols', 'WIRE.md');`,
    `const wire = readFileSync(process.env.SWITCHBOARD_WIRE_MD ?? join(__dirname, '..', '..', '..', '..', '${S}', 'protocols', 'WIRE.md'), 'utf8');`,
    "const wire = readFileSync(join(__dirname, '..', '..', '..', '..', 'x.md'), 'utf8');",
    `const spec = readFileSync(new URL('../../../../${S}/protocols/WIRE.md', import.meta.url), 'utf8');`,
    "const up = fileURLToPath(new URL('../../../..', import.meta.url));",
    `const spec = join(root, '..', '${S}', 'protocols');`,
    `const spec = \`\${root}/../${S}/protocols/WIRE.md\`;`,
  ];
  for (const line of old) {
    assert.ok(scanScript(root, join(traceDir, 'x.ts'), line).length > 0, line);
  }
  assert.equal(scanShell(root, join(root, '.ci', 'run'), `cat ../${S}/protocols/WIRE.md\n`).length, 1);
});

test('comments citing the spec, and paths that stay inside the repository, are not reads', () => {
  const fine = [
    `// Copied from WIRE.md §1.3 (the repository must not read ../${S} at test time).`,
    `/** see ../${S}/protocols/WIRE.md 1.9 */ const x = 1;`,
    "const docs = join(__dirname, '..', '..', '..', 'docs', 'protocols');",
    "const root = fileURLToPath(new URL('../../..', import.meta.url));",
    "const dir = join(base, 'shared');",
  ];
  for (const line of fine) {
    assert.deepEqual(scanScript(root, join(traceDir, 'x.ts'), line), [], line);
  }
  assert.deepEqual(scanShell(root, join(root, '.ci', 'run'), `# the spec is in ../${S}/protocols\nnpm test\n`), []);
});

test('nothing in the repository reads a file beside it', () => {
  assert.deepEqual(scanRepository(root), []);
});

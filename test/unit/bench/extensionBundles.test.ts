/**
 * extensionBundles.mjs: the production core stays within its budget, activation loads none of the bundles it loads on
 * demand, those load after it (and refuse to before it), each module of ours is in one bundle only, and the package
 * ships every bundle. A size check, not a timed one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { timeActivate } from '../../../bench/bundles';
import { buildExtensionBundles, CORE_BUNDLE, LAZY_BUNDLES } from '../../../extensionBundles.mjs';
import type { BuiltBundle } from '../../../extensionBundles.mjs';

/** dist/extension.js's budget (issue 25 §5): what VS Code reads and runs at every activation. */
const CORE_BUDGET_BYTES = 400 * 1024;
const ROOT = resolve(__dirname, '../../..');

let outdir: string;
let bundles: readonly BuiltBundle[];

before(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'sb-bundles-'));
  ({ bundles } = await buildExtensionBundles({ outdir, production: true }));
});
after(() => rmSync(outdir, { recursive: true, force: true }));

test(`the production core (${CORE_BUNDLE}) is within ${CORE_BUDGET_BYTES / 1024} KB`, () => {
  const core = bundles.find((b) => b.name === CORE_BUNDLE)!;
  assert.ok(core.bytes <= CORE_BUDGET_BYTES, `${CORE_BUNDLE} is ${(core.bytes / 1024).toFixed(1)} KB: load a rarely used part on demand (extensionBundles.mjs)`);
});

test('each module of ours is in exactly one bundle, and the drivers are not in the core', () => {
  const seen = new Map<string, string>();
  for (const bundle of bundles) {
    for (const module of bundle.modules.filter((m) => m.startsWith('extension/'))) {
      assert.equal(seen.get(module), undefined, `${module} is in ${seen.get(module)} and ${bundle.name}`);
      seen.set(module, bundle.name);
    }
  }
  for (const driver of ['agencyProxy/agencyProxyDriver', 'scv/scvDriver', 'a3s/a3sDriver', 'hive/hiveDriver', 'acp/acpDriver']) {
    assert.equal(seen.get(`extension/drivers/${driver}.ts`), 'driverClasses.js', driver);
  }
});

test('a lazy bundle refuses to load before the core (it would run a second copy of the extension)', () => {
  const load = Module.createRequire(join(outdir, CORE_BUNDLE));
  assert.throws(() => load(join(outdir, 'driverClasses.js')), /must be loaded before/);
});

test('activation loads no lazy bundle; the drivers load after it and hold the five driver classes', async () => {
  const lazyFiles = LAZY_BUNDLES.map((b) => join(outdir, b.out));
  const activation = await timeActivate(join(outdir, CORE_BUNDLE), join(outdir, 'storage'));
  assert.ok(activation.commands > 0, 'the core activated and registered its commands');
  assert.deepEqual(lazyFiles.filter((file) => require.cache[file] !== undefined), [], 'loaded at activation');
  const drivers = Module.createRequire(join(outdir, CORE_BUNDLE))(join(outdir, 'driverClasses.js')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(drivers).filter((k) => typeof drivers[k] === 'function').sort(), ['A3sDriver', 'AcpDriver', 'AgencyProxyDriver', 'HiveDriver', 'ScvDriver']);
});

test('.vscodeignore ships every bundle', () => {
  const kept = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).trim());
  for (const name of [CORE_BUNDLE, ...LAZY_BUNDLES.map((b) => b.out)]) {
    assert.ok(kept.includes(`dist/${name}`), `.vscodeignore does not re-include dist/${name}`);
  }
});

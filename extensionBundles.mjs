// The extension host's bundles: dist/extension.js (the core VS Code loads at activation) and the lazy bundles the core
// `require`s on first use — each daemon's driver when a connection of its protocol opens, the ACP SDK when an ACP
// agent starts. esbuild cannot split CommonJS output, so the split is done here, and it keeps one rule: every module
// is in exactly one bundle. A lazy bundle takes each module the core already holds from the core at run time (through
// the core's `sharedModules` export) instead of bundling a second copy — two copies of a module would mean two copies
// of its classes (`instanceof` fails across them) and of its state. `buildExtensionBundles` checks the rule and throws
// when a module ended up twice. Used by esbuild.mjs (writes dist/), bench/bundles.ts and the bundle budget test.
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));
export const CORE_BUNDLE = 'extension.js';

/** The bundles loaded on demand: the source file a `require` names, and the bundle it becomes (next to the core). */
export const LAZY_BUNDLES = [
  { entry: 'extension/drivers/driverClasses.ts', out: 'driverClasses.js' },
  { entry: 'extension/drivers/acp/acpSdk.ts', out: 'acpSdk.js' },
  { entry: 'extension/ui/worktrees/worktreeFeature.ts', out: 'worktreeFeature.js' },
  { entry: 'extension/ui/reviewTools/reviewToolsFeature.ts', out: 'reviewToolsFeature.js' },
  { entry: 'extension/base/pathGlob.ts', out: 'pathGlob.js' },
  { entry: 'extension/ui/runHistory/runHistoryFeature.ts', out: 'runHistoryFeature.js' },
  { entry: 'extension/ui/connectionEditor/manageConnectionsFeature.ts', out: 'manageConnectionsFeature.js' },
  { entry: 'extension/ui/workspaceConnections/workspaceConsentFeature.ts', out: 'workspaceConsentFeature.js' },
  { entry: 'extension/ui/commands/approvalRuleCommandsFeature.ts', out: 'approvalRuleCommandsFeature.js' },
];

const common = (production) => ({
  absWorkingDir: ROOT,
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  logOverride: { 'import-is-undefined': 'error' },
  metafile: true,
  write: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
});

/** A `require('./…')` (or import) of a lazy bundle's entry, from any bundle, stays a `require` of the built file. */
const lazyRequires = {
  name: 'lazy-requires',
  setup(build) {
    const byPath = new Map(LAZY_BUNDLES.map((b) => [resolve(ROOT, b.entry), b.out]));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const out = byPath.get(`${resolve(args.resolveDir, args.path)}.ts`);
      return out && args.importer !== '' ? { path: `./${out}`, external: true } : undefined;
    });
  },
};

/**
 * In a lazy bundle: every import that resolves to a module of the core (`coreInputs`, paths as the metafile gives
 * them) becomes that module as the core holds it. `requested` collects them: the core must export exactly those.
 */
function fromCore(coreInputs, requested) {
  return {
    name: 'from-core',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.fromCore || args.kind === 'entry-point' || args.namespace !== 'file') {
          return undefined;
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { fromCore: true } });
        if (resolved.errors.length > 0 || resolved.external) {
          return undefined;
        }
        const input = relative(ROOT, resolved.path);
        if (!input.startsWith('extension/') || !coreInputs.has(input)) {
          return undefined;
        }
        requested.add(input);
        return { path: input, namespace: 'core-module' };
      });
      build.onResolve({ filter: new RegExp(`^\\./${CORE_BUNDLE.replace('.', '\\.')}$`), namespace: 'core-table' }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^switchboard-core$/, namespace: 'core-module' }, () => ({ path: 'switchboard-core', namespace: 'core-table' }));
      build.onLoad({ filter: /.*/, namespace: 'core-module' }, (args) => ({
        contents: `module.exports = require('switchboard-core')[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
      // The core as Node loaded it (VS Code requires dist/extension.js before anything can require a lazy bundle).
      // Requiring it by path when it is not loaded would run a second copy of the whole extension: refuse instead.
      build.onLoad({ filter: /.*/, namespace: 'core-table' }, () => ({
        contents: [
          `const core = require.cache[require.resolve('./${CORE_BUNDLE}')];`,
          `if (!core) throw new Error('${CORE_BUNDLE} must be loaded before the bundles it loads on demand');`,
          'module.exports = core.exports.sharedModules;',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/** The core's entry: extension.ts, plus `sharedModules` (every core module a lazy bundle imports, by path). */
function coreEntry(shared) {
  const names = [...shared].sort();
  const imports = names.map((input, i) => `import * as m${i} from ${JSON.stringify(`./${input}`)};`);
  const table = names.map((input, i) => `  ${JSON.stringify(input)}: m${i},`);
  return {
    contents: [`export * from './extension/extension';`, ...imports, 'export const sharedModules = {', ...table, '};'].join('\n'),
    resolveDir: ROOT,
    sourcefile: 'extension/coreEntry.ts',
    loader: 'ts',
  };
}

const inputsOf = (result) => new Set(Object.keys(Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.js'))[1].inputs));

async function buildCore(outdir, production, shared) {
  return esbuild.build({ ...common(production), stdin: coreEntry(shared), outfile: join(outdir, CORE_BUNDLE), plugins: [lazyRequires] });
}

async function buildLazy(outdir, production, bundle, coreInputs, requested) {
  return esbuild.build({ ...common(production), entryPoints: [bundle.entry], outfile: join(outdir, bundle.out), plugins: [lazyRequires, fromCore(coreInputs, requested)] });
}

/**
 * Builds the core and every lazy bundle into `outdir` (written unless `write` is false) and returns each bundle's
 * size and own modules. The core's shared modules depend on what the lazy bundles import, and exporting a module can
 * keep code (and so modules) tree-shaking had dropped, so the two are built until the core's modules stop changing.
 */
export async function buildExtensionBundles({ outdir, production = false, write = true }) {
  let shared = new Set();
  let core = await buildCore(outdir, production, shared);
  let lazy;
  for (let round = 0; ; round++) {
    const coreInputs = inputsOf(core);
    const requested = new Set();
    lazy = await Promise.all(LAZY_BUNDLES.map((b) => buildLazy(outdir, production, b, coreInputs, requested)));
    // Our modules that two lazy bundles need and the core does not: into the core, so there is one copy of each.
    const seen = new Map();
    for (const result of lazy) {
      for (const input of inputsOf(result)) {
        if (input.startsWith('extension/')) seen.set(input, (seen.get(input) ?? 0) + 1);
      }
    }
    shared = new Set([...requested, ...[...seen].filter(([, n]) => n > 1).map(([input]) => input)]);
    core = await buildCore(outdir, production, shared);
    const after = inputsOf(core);
    if (after.size === coreInputs.size && [...after].every((i) => coreInputs.has(i))) {
      break;
    }
    if (round === 4) {
      throw new Error('extensionBundles: the core modules did not settle');
    }
  }
  const coreInputs = inputsOf(core);
  const bundles = [
    { name: CORE_BUNDLE, result: core },
    ...LAZY_BUNDLES.map((b, i) => ({ name: b.out, result: lazy[i] })),
  ].map(({ name, result }) => {
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const own = [...inputsOf(result)].filter((i) => !i.startsWith('core-module:') && !i.startsWith('core-table:') && i !== '<stdin>');
    return { name, bytes: js.contents.byteLength, modules: own, outputFiles: result.outputFiles, warnings: result.warnings };
  });
  // Our own modules (extension/**): exactly one copy in all the bundles. Libraries (zod, minimatch…) are stateless and
  // each lazy bundle carries the parts it uses (zod's own `instanceof` checks go by trait, not by class identity).
  const owner = new Map();
  for (const bundle of bundles) {
    for (const input of bundle.modules.filter((m) => m.startsWith('extension/'))) {
      if (owner.has(input)) {
        throw new Error(`extensionBundles: ${input} is in both ${owner.get(input)} and ${bundle.name}`);
      }
      owner.set(input, bundle.name);
    }
  }
  if (write) {
    mkdirSync(outdir, { recursive: true });
    for (const file of bundles.flatMap((b) => b.outputFiles)) {
      writeFileSync(file.path, file.contents);
    }
  }
  return { bundles: bundles.map(({ name, bytes, modules }) => ({ name, bytes, modules })), shared: [...shared].sort() };
}

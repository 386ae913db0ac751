/**
 * Bundles: production builds of the extension host's bundles (extensionBundles.mjs, as esbuild.mjs builds them: the
 * core dist/extension.js and the bundles it loads on demand) and of dist/webview.js (esbuild.mjs's options; that
 * module builds on import and so cannot be imported), written to a temp directory, not dist/; their sizes against the
 * targets, and the time `activate()` takes — measured by loading the production core under plain Node with a minimal
 * `vscode` stub (bench/vscodeStub.ts) and no connection profiles, not inside a real VS Code.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { BenchRow } from './benchKit';
import { now } from './benchKit';
import { createVscodeStub } from './vscodeStub';
import { buildExtensionBundles } from '../extensionBundles.mjs';
import type { BuiltBundle } from '../extensionBundles.mjs';

const ROOT = resolve(__dirname, '..');

async function buildProduction(outdir: string): Promise<{ extension: string; webview: string; built: readonly BuiltBundle[] }> {
  const { bundles } = await buildExtensionBundles({ outdir, production: true });
  const webview = join(outdir, 'webview.js');
  // As in esbuild.mjs's webviewOptions: markdown-it's punycode from the browser's URL parser (it was missing here, so the
  // bench measured 2.3 KB more than the bundle that ships).
  await build({
    absWorkingDir: ROOT, bundle: true, minify: true, sourcemap: false, logLevel: 'warning', logOverride: { 'import-is-undefined': 'error' },
    entryPoints: ['webview/main.ts'], outfile: webview, platform: 'browser', format: 'iife', target: 'es2022', alias: { 'punycode.js': './webview/punycodeShim.ts' },
  });
  return { extension: join(outdir, 'extension.js'), webview, built: bundles };
}

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

/** Loads the bundle with `require('vscode')` answered by the stub and activates it (no profiles); returns load and activate times. */
export async function timeActivate(bundle: string, storage: string): Promise<{ loadMs: number; activateMs: number; commands: number; views: number; other: number }> {
  const { api, record } = createVscodeStub();
  const loader = Module as unknown as ModuleLoader;
  const original = loader._load;
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? api : original.call(this, request, parent, isMain);
  };
  try {
    const loadStart = now();
    const extension = (Module.createRequire(bundle))(bundle) as { activate(context: unknown): Promise<unknown> };
    const loadMs = now() - loadStart;
    const subscriptions: { dispose(): unknown }[] = [];
    const context = {
      subscriptions,
      extensionUri: (api.Uri as { file(p: string): unknown }).file(ROOT),
      extensionPath: ROOT,
      globalStorageUri: (api.Uri as { file(p: string): unknown }).file(storage),
      storageUri: undefined,
      extension: { packageJSON: { version: 'bench' } },
      globalState: { get: () => undefined, update: () => Promise.resolve(), keys: () => [] },
      workspaceState: { get: () => undefined, update: () => Promise.resolve(), keys: () => [] },
    };
    const activateStart = now();
    const result = await extension.activate(context);
    const activateMs = now() - activateStart;
    if (result === undefined) {
      throw new Error('activate() failed under the stub (it returned undefined)');
    }
    for (const s of subscriptions.reverse()) {
      s.dispose();
    }
    return { loadMs, activateMs, commands: record.commands.length, views: record.views.length, other: record.other.length };
  } finally {
    loader._load = original;
  }
}

export async function benchBundles(): Promise<BenchRow[]> {
  const outdir = mkdtempSync(join(tmpdir(), 'sb-bundle-'));
  try {
    const { extension, webview, built } = await buildProduction(outdir);
    const kb = (file: string): number => statSync(file).size / 1024;
    const lazyKb = (name: string): number => (built.find((b) => b.name === name)?.bytes ?? Number.NaN) / 1024;
    const activation = await timeActivate(extension, join(outdir, 'storage'));
    return [
      { id: 'bundle.extension', name: 'dist/extension.js (production)', value: kb(extension), unit: 'KB', target: '≤ 400 KB', met: kb(extension) <= 400 },
      { id: 'bundle.webview', name: 'dist/webview.js (production)', value: kb(webview), unit: 'KB', target: '≤ 220 KB', met: kb(webview) <= 220 },
      { id: 'bundle.driverClasses', name: 'dist/driverClasses.js (production; loaded when the first connection opens)', value: lazyKb('driverClasses.js'), unit: 'KB', met: null },
      { id: 'bundle.acpSdk', name: 'dist/acpSdk.js (production; loaded when an ACP agent first starts)', value: lazyKb('acpSdk.js'), unit: 'KB', met: null },
      {
        id: 'activate',
        name: 'activate() of the production bundle (Node + vscode stub, no profiles)',
        value: activation.activateMs,
        unit: 'ms',
        met: null,
        note: `require() of the bundle ${activation.loadMs.toFixed(1)} ms; registered ${activation.commands} commands, ${activation.views} views; measured under a stub, not in VS Code`,
      },
    ];
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

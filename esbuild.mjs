// Two bundles: the extension host (Node, CommonJS, `vscode` external) and the webview (browser, IIFE).
// Flags: --watch rebuilds on change; --production minifies, drops sourcemaps and prints bundle sizes.
// Type-checking is separate (`npm run typecheck`): esbuild only strips types.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the format of the `$esbuild-watch` problem matcher so F5 shows them in Problems. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  logOverride: { 'import-is-undefined': 'error' },
  plugins: watch ? [problemMatcherPlugin] : [],
  metafile: true,
};

/**
 * The ACP SDK is a bundle of its own (dist/acpSdk.js), required by acpConnection.ts on first use: the extension
 * bundle keeps the `require('./acpSdk')` as is, and it resolves next to dist/extension.js at run time.
 */
const lazyAcpSdk = {
  name: 'lazy-acp-sdk',
  setup(build) {
    build.onResolve({ filter: /^\.\/acpSdk$/ }, () => ({ path: './acpSdk.js', external: true }));
  },
};

export const extensionOptions = {
  ...common,
  entryPoints: ['extension/extension.ts'],
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  plugins: [...common.plugins, lazyAcpSdk],
};

export const acpSdkOptions = {
  ...common,
  entryPoints: ['extension/drivers/acp/acpSdk.ts'],
  outfile: 'dist/acpSdk.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
};

export const webviewOptions = {
  ...common,
  entryPoints: ['webview/main.ts'],
  outfile: 'dist/webview.js',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  // markdown-it's punycode, from the browser's URL parser (webview/punycodeShim.ts says why).
  alias: { 'punycode.js': './webview/punycodeShim.ts' },
};

/** The webview may load resources only from dist/ and media/, so the codicon font ships inside dist/. */
function copyCodicons() {
  mkdirSync('dist/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
  }
}

copyCodicons();
const contexts = await Promise.all([esbuild.context(extensionOptions), esbuild.context(acpSdkOptions), esbuild.context(webviewOptions)]);
if (watch) {
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  if (production) {
    for (const file of ['dist/extension.js', 'dist/acpSdk.js', 'dist/webview.js']) {
      console.log(`${file.padEnd(20)} ${(statSync(file).size / 1024).toFixed(1).padStart(8)} KB`);
    }
  }
}

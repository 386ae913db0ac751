// The bundles: the extension host's (extensionBundles.mjs: the core dist/extension.js and the bundles it loads on
// demand, Node, CommonJS, `vscode` external) and the webview's (browser, IIFE).
// Flags: --watch rebuilds on change; --production minifies, drops sourcemaps and prints bundle sizes.
// Type-checking is separate (`npm run typecheck`): esbuild only strips types.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, statSync, watch as watchFiles } from 'node:fs';
import { buildExtensionBundles } from './extensionBundles.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the format of the `$esbuild-watch` problem matcher so F5 shows them in Problems. */
function reportErrors(errors) {
  for (const { text, location } of errors) {
    console.error(`✘ [ERROR] ${text}`);
    if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
  }
}

const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      reportErrors(result.errors);
      console.log('[watch] build finished');
    });
  },
};

export const webviewOptions = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  logOverride: { 'import-is-undefined': 'error' },
  plugins: watch ? [problemMatcherPlugin] : [],
  metafile: true,
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

/** The extension host's bundles; in watch mode a failed build is reported and the watch goes on. */
async function buildExtension() {
  if (watch) console.log('[watch] build started');
  try {
    const { bundles } = await buildExtensionBundles({ outdir: 'dist', production });
    if (production) {
      for (const { name, bytes } of bundles) {
        console.log(`${`dist/${name}`.padEnd(24)} ${(bytes / 1024).toFixed(1).padStart(8)} KB`);
      }
    }
  } catch (error) {
    if (!watch) throw error;
    reportErrors(error.errors ?? [{ text: String(error.message ?? error) }]);
  }
  if (watch) console.log('[watch] build finished');
}

copyCodicons();
const webview = await esbuild.context(webviewOptions);
if (watch) {
  await Promise.all([webview.watch(), buildExtension()]);
  // The core and its lazy bundles are built together (extensionBundles.mjs), so any change to extension/ rebuilds all.
  let pending;
  watchFiles('extension', { recursive: true }, () => {
    clearTimeout(pending);
    pending = setTimeout(() => void buildExtension(), 100);
  });
} else {
  await Promise.all([webview.rebuild(), buildExtension()]);
  await webview.dispose();
  if (production) {
    console.log(`${'dist/webview.js'.padEnd(24)} ${(statSync('dist/webview.js').size / 1024).toFixed(1).padStart(8)} KB`);
  }
}

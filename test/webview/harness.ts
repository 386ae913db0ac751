/**
 * The webview test tier's harness: builds webview/main.ts like esbuild.mjs does (in memory), serves the exact
 * document `renderWebviewHtml` produces from a local http server (so the CSP is the real one, with the server origin
 * as cspSource), and drives it in headless Chromium with a stub `acquireVsCodeApi` that records what the webview
 * posts. Host messages are delivered with `window.postMessage`, as VS Code does.
 */
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { renderWebviewHtml } from '../../extension/ui/webviewHtml';
import type { HostToWebview, WebviewToHost } from '../../extension/protocol/webviewMessages';
import { initScript } from './harnessInit';
import { DARK_THEME_CSS } from './theme';

/** The repository root: the nearest directory (from the working directory up) holding webview/main.ts. */
export const ROOT = findRoot(process.cwd());

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'webview/main.ts')) && existsSync(join(dir, 'esbuild.mjs'))) {
      return dir;
    }
    if (dirname(dir) === dir) {
      throw new Error(`run the webview tests from inside the repository (cwd ${from})`);
    }
  }
}

/** The same options as esbuild.mjs's `webviewOptions` (that module builds on import, so it cannot be imported). */
export function webviewBuildOptions(production: boolean): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: ['webview/main.ts'],
    bundle: true,
    minify: production,
    sourcemap: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    alias: { 'punycode.js': './webview/punycodeShim.ts' },
    logLevel: 'silent',
    logOverride: { 'import-is-undefined': 'error' },
    write: false,
    outfile: 'dist/webview.js',
  };
}

let bundle: Promise<string> | undefined;
/**
 * Builds the webview bundle once per process, and reuses it across the tier's processes while the sources are
 * unchanged (keyed by path, size and mtime of everything the bundle is built from).
 */
export function webviewBundle(): Promise<string> {
  bundle ??= (async () => {
    const cached = join(tmpdir(), `agent-switchboard-webview-${sourceKey()}.js`);
    if (existsSync(cached)) {
      return readFileSync(cached, 'utf8');
    }
    const result = await build(webviewBuildOptions(false));
    const file = result.outputFiles?.find((output) => output.path.endsWith('.js'));
    if (!file) {
      throw new Error('esbuild produced no webview.js');
    }
    // Keep one cached bundle: drop those of older sources.
    for (const name of readdirSync(tmpdir())) {
      if (name.startsWith('agent-switchboard-webview-') && name.endsWith('.js')) {
        rmSync(join(tmpdir(), name), { force: true });
      }
    }
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, file.text);
    renameSync(partial, cached);
    return file.text;
  })();
  return bundle;
}

function sourceKey(): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        visit(path);
      } else if (entry.name.endsWith('.ts')) {
        const stat = statSync(join(ROOT, path));
        hash.update(`${path}:${stat.size}:${stat.mtimeMs}\n`);
      }
    }
  };
  visit('webview');
  visit('extension/protocol');
  const lock = statSync(join(ROOT, 'package-lock.json'));
  hash.update(`lock:${lock.size}:${lock.mtimeMs}`);
  return hash.digest('hex').slice(0, 16);
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface CspViolation {
  readonly directive: string;
  readonly blocked: string;
  readonly sample: string;
}

declare global {
  interface Window {
    __posted: unknown[];
    __state: unknown;
    __cspViolations: CspViolation[];
    __pwned?: unknown;
    __toHost?: (message: unknown) => void;
  }
}

export interface Harness {
  readonly browser: Browser;
  readonly page: Page;
  readonly origin: string;
  /** Page errors and console errors seen so far. */
  readonly errors: string[];
  /** Delivers a host message (not validated here: the webview must validate it). */
  deliver(message: HostToWebview | Record<string, unknown>): Promise<void>;
  /** Waits until pending frames have rendered. */
  settle(): Promise<void>;
  /** Everything the webview posted so far. */
  posted(): Promise<WebviewToHost[]>;
  /** Forgets the recorded posts. */
  clearPosted(): Promise<void>;
  /** Calls `listener` with everything the webview posts from now on (the fake host of fakeHost.ts answers there). */
  onPost(listener: (message: WebviewToHost) => void): () => void;
  /** Waits for a post matching `predicate` (evaluated in Node on the recorded posts). */
  waitForPost(predicate: (message: WebviewToHost) => boolean, timeoutMs?: number): Promise<WebviewToHost>;
  cspViolations(): Promise<CspViolation[]>;
  /** Opens a fresh page (new webview) sharing the browser and server; `state` seeds getState(). */
  reload(state?: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly width?: number;
  readonly height?: number;
  readonly state?: unknown;
}

export async function openHarness(options: HarnessOptions = {}): Promise<Harness> {
  const script = await webviewBundle();
  const codicons = join(ROOT, 'node_modules/@vscode/codicons/dist');
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (type: string, body: string | Buffer): void => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') {
      send(
        'text/html; charset=utf-8',
        renderWebviewHtml({
          cspSource: origin,
          scriptUri: `${origin}/dist/webview.js`,
          styleUris: [`${origin}/theme.css`, `${origin}/codicons/codicon.css`, `${origin}/media/transcript.css`],
          title: 'Agent Switchboard transcript',
        }),
      );
    } else if (path === '/dist/webview.js') {
      send('text/javascript; charset=utf-8', script);
    } else if (path === '/theme.css') {
      send('text/css; charset=utf-8', DARK_THEME_CSS);
    } else if (path === '/codicons/codicon.css') {
      send('text/css; charset=utf-8', readFileSync(join(codicons, 'codicon.css')));
    } else if (path === '/codicons/codicon.ttf') {
      send('font/ttf', readFileSync(join(codicons, 'codicon.ttf')));
    } else if (path === '/media/transcript.css') {
      send('text/css; charset=utf-8', readFileSync(join(ROOT, 'media/transcript.css')));
    } else if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: options.width ?? 420, height: options.height ?? 800 } });
  const errors: string[] = [];
  let page!: Page;
  const listeners: Array<(message: WebviewToHost) => void> = [];

  const openPage = async (state: unknown): Promise<void> => {
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') {
        errors.push(`console: ${message.text()}`);
      }
    });
    await page.exposeFunction('__toHost', (message: WebviewToHost) => listeners.forEach((listener) => listener(message)));
    await page.addInitScript(initScript(state));
    await page.goto(`${origin}/`);
    await page
      .waitForFunction(() => window.__posted.some((m) => (m as { type?: string }).type === 'ready'), undefined, { timeout: 10_000 })
      .catch((error: unknown) => {
        throw new Error(`the webview never posted 'ready' (${String(error)}); page errors: ${errors.join(' | ')}`);
      });
  };
  await openPage(options.state);

  const harness: Harness = {
    browser,
    get page() {
      return page;
    },
    origin,
    errors,
    async deliver(message) {
      await page.evaluate((m) => window.postMessage(m, '*'), message as unknown);
      await harness.settle();
    },
    async settle() {
      // postMessage is a task; then two frames let the coalesced render and ResizeObserver corrections run.
      await page.evaluate(
        () => new Promise<void>((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0)),
      );
    },
    async posted() {
      return (await page.evaluate(() => window.__posted)) as WebviewToHost[];
    },
    async clearPosted() {
      await page.evaluate(() => {
        window.__posted.length = 0;
      });
    },
    onPost(listener) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener) >>> 0, 1);
    },
    async waitForPost(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await harness.posted()).find(predicate);
        if (found) {
          return found;
        }
        if (Date.now() > deadline) {
          throw new Error(`no matching post; got ${JSON.stringify(await harness.posted())}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async cspViolations() {
      return page.evaluate(() => window.__cspViolations);
    },
    async reload(state) {
      await page.close();
      await openPage(state);
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return harness;
}

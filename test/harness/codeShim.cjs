#!/usr/bin/env node
// A fake "code" executable for @vscode/test-electron's runTests({ vscodeExecutablePath }): it accepts test-electron's
// command line (--extensionDevelopmentPath=, --extensionTestsPath=, --user-data-dir=, --extensions-dir=, [FOLDER]),
// starts code-server (a real VS Code 1.139 server) on a free 127.0.0.1 port, opens the workbench in headless Debian
// Chromium through playwright-core, and exits with the extension host's exit code. Desktop VS Code cannot be
// downloaded here, so this is how the integration tier runs a real VS Code offline.
// Env: CODE_SERVER_NODE, CODE_SERVER_ENTRY (required), CHROMIUM (/usr/bin/chromium), SHIM_TIMEOUT_MS (600000),
// SHIM_VERBOSE=1, SHIM_KEEP=1 (keep the temp dir and logs), SHIM_THEME (a colour theme for screenshots),
// SHIM_WORKSPACE_TRUST=1 (workspace trust on, no start-up prompt: the folder opens untrusted, in restricted mode).
// A test can ask for a screenshot of the whole workbench by logging `SHIM_SCREENSHOT /abs/file.png`.
'use strict';
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const http = require('node:http');
const util = require('node:util');
const { chromium } = require('playwright-core');

const T0 = Date.now();
const t = () => `[shim ${((Date.now() - T0) / 1000).toFixed(1)}s]`;
const devPaths = [];
let testsPath;
let userDataDir;
let extensionsDir;
const positional = [];
for (const a of process.argv.slice(2)) {
  const m = /^--([^=]+)=(.*)$/.exec(a);
  if (m && m[1] === 'extensionDevelopmentPath') devPaths.push(path.resolve(m[2]));
  else if (m && m[1] === 'extensionTestsPath') testsPath = path.resolve(m[2]);
  else if (m && m[1] === 'user-data-dir') userDataDir = path.resolve(m[2]);
  else if (m && m[1] === 'extensions-dir') extensionsDir = path.resolve(m[2]);
  else if (!a.startsWith('-')) positional.push(path.resolve(a));
}
const folder = positional[positional.length - 1];

/** Webviews are an iframe.webview (class "ready") with the extension's document in an inner frame. */
async function waitForWebviews(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let pending = 0;
    for (const el of await page.$$('iframe.webview')) {
      if (!(await el.isVisible())) continue;
      const ready = await el.evaluate((n) => n.classList.contains('ready'));
      const outer = await el.contentFrame();
      const inner = outer && outer.childFrames()[0];
      const ok =
        ready &&
        inner &&
        (await inner
          .evaluate(() => document.readyState === 'complete' && !!document.body && document.body.innerHTML.trim().length > 0)
          .catch(() => false));
      if (!ok) pending++;
    }
    if (!pending) return;
    if (Date.now() > deadline) {
      console.error(`${t()} waitForWebviews: ${pending} not ready`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

const healthy = (port) =>
  new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (r) => {
        r.resume();
        resolve(r.statusCode === 200);
      })
      .on('error', () => resolve(false))
      .on('timeout', function () {
        this.destroy();
        resolve(false);
      });
  });

/**
 * In the page: the values under `key` in the workbench's state databases (IndexedDB, per origin), i.e. what a later
 * launch on the same browser profile and port restores. The workbench writes them when idle and on unload.
 */
async function readStoredState(key) {
  const request = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
  const values = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name || !name.startsWith('vscode-web-state-db-')) continue;
    const db = await request(indexedDB.open(name));
    try {
      if (!db.objectStoreNames.contains('ItemTable')) continue;
      const value = await request(db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get(key));
      if (typeof value === 'string') values.push(value);
    } finally {
      db.close();
    }
  }
  return values;
}

/**
 * UI actions a test asks for by logging `SHIM_ACTION /abs/result.json {json}`: the shim performs them in the real
 * workbench (or, with "webview": true, inside the visible extension webview) and writes {ok, value|error}.
 *   {"action":"click"|"count"|"text"|"textContent"|"style"|"attribute"|"fill"|"press"|"waitFor", "selector": css,
 *    "hasText"?: string, "webview"?: bool, "value"?: string (fill / press key / attribute name),
 *    "properties"?: string[] (style: CSS properties to read), "timeout"?: ms,
 *    "frame"?: css | {"part": css, "nth"?: n} (which webview iframe when several are visible, e.g. an editor tab
 *    beside the sidebar view; see webviewFrame)}
 *   "value": the current value of an input or textarea.
 *   "storedState" (no selector): the workbench's stored values of the key `value` (see readStoredState).
 */
async function performAction(page, a) {
  if (a.action === 'storedState') return page.evaluate(readStoredState, a.value);
  const timeout = a.timeout || 15000;
  const scope = a.webview ? page.frameLocator(await webviewFrame(page, a, timeout)).frameLocator('#active-frame') : page;
  let locator = scope.locator(a.selector);
  if (a.hasText) locator = locator.filter({ hasText: a.hasText });
  switch (a.action) {
    case 'click':
      await locator.first().click({ timeout });
      return true;
    case 'fill':
      await locator.first().fill(a.value || '', { timeout });
      return true;
    case 'press':
      await locator.first().press(a.value, { timeout });
      return true;
    case 'waitFor':
      await locator.first().waitFor({ timeout });
      return true;
    case 'hover':
      await locator.first().hover({ timeout });
      return true;
    case 'count':
      return locator.count();
    case 'value':
      return locator.first().inputValue({ timeout });
    case 'text':
      return locator.allInnerTexts();
    case 'textContent':
      // Unlike innerText this includes hidden elements, so a test can tell "rendered but hidden" from "absent".
      return locator.evaluateAll((els) => els.map((e) => e.textContent || ''));
    case 'style': {
      // Computed CSS of the first match, e.g. a webview body's background under the current colour theme.
      const props = a.properties || [];
      return locator.first().evaluate((el, ps) => {
        const s = getComputedStyle(el);
        return Object.fromEntries(ps.map((p) => [p, s.getPropertyValue(p)]));
      }, props, { timeout });
    }
    case 'attribute':
      return locator.evaluateAll((els, name) => els.map((e) => e.getAttribute(name)), a.value || 'class');
    default:
      throw new Error(`unknown action ${a.action}`);
  }
}

/** The actions that wait for their element; the others read what is there now. */
const WAITING_ACTIONS = new Set(['click', 'fill', 'press', 'waitFor', 'hover', 'value', 'style']);

/**
 * The selector of the webview iframe an action means. "frame" is a selector, or {"part": css, "nth"?: n}: the nth
 * webview (in document order) drawn over that workbench part, e.g. ".part.sidebar" or ".part.editor". VS Code draws
 * every webview in an overlay outside the part it belongs to, and nothing on the iframe says which part that is
 * (its src has purpose=webviewView only until the view is first hidden and shown again), so the shim looks at where
 * it is on screen and marks the one it found. Waiting actions wait for it to appear; the others fail at once.
 */
async function webviewFrame(page, a, timeout) {
  if (!a.frame || typeof a.frame === 'string') return a.frame || 'iframe.webview.ready';
  const { part, nth = 0 } = a.frame;
  const deadline = Date.now() + (WAITING_ACTIONS.has(a.action) ? timeout : 0);
  for (;;) {
    const mark = await page.evaluate(
      ({ part, nth }) => {
        const area = document.querySelector(part);
        if (!area || area.getClientRects().length === 0) return null;
        const box = area.getBoundingClientRect();
        const over = [...document.querySelectorAll('iframe.webview.ready')].filter((f) => {
          const r = f.getBoundingClientRect();
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          return r.width > 0 && r.height > 0 && getComputedStyle(f).visibility !== 'hidden' && x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
        });
        const frame = over[nth];
        if (!frame) return null;
        window.__shimFrameMark = (window.__shimFrameMark || 0) + 1;
        frame.setAttribute('data-shim-frame', String(window.__shimFrameMark));
        return String(window.__shimFrameMark);
      },
      { part, nth },
    );
    if (mark) return `iframe.webview.ready[data-shim-frame="${mark}"]`;
    if (Date.now() >= deadline) throw new Error(`no webview number ${nth} over ${part}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const NOISE = /AgentHost|ChatModelSelection|AccountPolicyGate|Creating a socket|connection token|grace time|Service Worker|builtin extensions cache|open-vsx|ENOTFOUND|authentication provider/;

(async () => {
  const nodeBin = process.env.CODE_SERVER_NODE || process.execPath;
  const entry = process.env.CODE_SERVER_ENTRY;
  if (!entry) throw new Error('set CODE_SERVER_ENTRY to .../node_modules/code-server/out/node/entry.js');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-shim-'));
  userDataDir = userDataDir || path.join(tmp, 'user-data');
  extensionsDir = extensionsDir || path.join(tmp, 'extensions');
  fs.rmSync(path.join(userDataDir, 'coder.json'), { force: true }); // code-server remembers the last URL there
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': !!process.env.SHIM_WORKSPACE_TRUST,
    'security.workspace.trust.startupPrompt': 'never',
    'git.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'workbench.tips.enabled': false,
    'workbench.colorTheme': process.env.SHIM_THEME || 'Default Dark Modern',
    'window.commandCenter': false,
  };
  // Keep what an earlier launch on the same profile stored (a "reload"): only add the harness defaults.
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  let previous = {};
  try {
    previous = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  } catch {}
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, ...previous }, null, 2));
  const cfg = path.join(tmp, 'config.yaml');
  fs.writeFileSync(cfg, '{}\n');
  // SHIM_PORT + SHIM_BROWSER_PROFILE: a window "reload" across two launches. The workbench keeps its state (open
  // editors, workspaceState) in the browser's IndexedDB, per origin: the same profile and port bring it back.
  // It writes its open editors there when idle or on unload, and ending a launch unloads nothing: a test that needs
  // them in the next launch waits for them (the "storedState" action).
  const port = Number(process.env.SHIM_PORT) || (await freePort());
  const logFile = path.join(tmp, 'code-server.log');
  const log = fs.openSync(logFile, 'w');
  const server = cp.spawn(
    nodeBin,
    [entry, '--config', cfg, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir, '--disable-telemetry', '--disable-update-check',
      ...(process.env.SHIM_WORKSPACE_TRUST ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override', '--ignore-last-opened', '--reconnection-grace-time', '5',
      '--vscode-option', 'enable-smoke-test-driver'],
    { env: process.env, stdio: ['ignore', log, log], detached: true },
  );
  const killServer = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
  };
  process.on('exit', killServer);
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));
  while (!(await healthy(port))) {
    if (server.exitCode !== null) throw new Error(`code-server exited, see ${logFile}`);
    if (Date.now() - T0 > 60000) throw new Error('code-server not healthy after 60s');
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`${t()} code-server up on 127.0.0.1:${port}`);
  const ctx = await chromium.launchPersistentContext(process.env.SHIM_BROWSER_PROFILE || path.join(tmp, 'chromium'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    viewport: { width: 1400, height: 900 },
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  let done;
  const exited = new Promise((r) => (done = r));
  await page.exposeFunction('codeAutomationLog', async (type, args) => {
    const msg = util.format(...(args || [])).replace(/%c\s*|color: #[0-9a-f]{3,6}\s*/g, '');
    const shot = /SHIM_SCREENSHOT (\S+\.png)/.exec(msg);
    if (shot) {
      await waitForWebviews(page, 20000);
      await new Promise((r) => setTimeout(r, 300)); // let the last animation frame paint
      const tf = `${shot[1]}.tmp.png`;
      fs.mkdirSync(path.dirname(shot[1]), { recursive: true });
      await page.screenshot({ path: tf }).then(() => fs.renameSync(tf, shot[1]), (e) => console.error('screenshot failed', e));
      if (process.env.SHIM_VERBOSE) console.log(`${t()} screenshot ${shot[1]}`);
      return;
    }
    const action = /SHIM_ACTION (\S+\.json) (\{.*\})\s*$/.exec(msg);
    if (action) {
      const result = await performAction(page, JSON.parse(action[2])).then(
        (value) => ({ ok: true, value }),
        (e) => ({ ok: false, error: String((e && e.message) || e) }),
      );
      fs.writeFileSync(`${action[1]}.tmp`, JSON.stringify(result));
      fs.renameSync(`${action[1]}.tmp`, action[1]);
      return;
    }
    if (process.env.SHIM_VERBOSE || !NOISE.test(msg)) (type === 'error' ? console.error : console.log)(msg);
  });
  await page.exposeFunction('codeAutomationExit', (code) => done(code));
  if (process.env.SHIM_VERBOSE) page.on('console', (m) => console.log('[browser]', m.text()));
  const auth = `127.0.0.1:${port}`;
  const payload = devPaths.map((p) => ['extensionDevelopmentPath', `vscode-remote://${auth}${p}`]);
  if (testsPath) payload.push(['extensionTestsPath', `vscode-remote://${auth}${testsPath}`]);
  payload.push(['skipWelcome', 'true'], ['skipReleaseNotes', 'true']);
  const where = folder ? `folder=${encodeURIComponent(folder)}` : 'ew=true';
  // The workbench's first load takes over 30 s (playwright's default) on a machine busy with other test runs.
  await page.goto(`http://${auth}/?${where}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: 180000 });
  await page.bringToFront().catch(() => {}); // a focused page, so the workbench shows notification toasts
  console.log(`${t()} workbench opened, waiting for tests`);
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), +(process.env.SHIM_TIMEOUT_MS || 600000)))]);
  await ctx.close().catch(() => {});
  killServer();
  console.log(`${t()} extension host exited with ${code}`);
  if (code === 0 && !process.env.SHIM_KEEP) {
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(tmp, { recursive: true, force: true });
  } else console.log(`${t()} kept ${tmp} (code-server.log, chromium profile)`);
  process.exit(code === 'timeout' ? 124 : Number(code) || 0);
})().catch((e) => {
  console.error(`${t()} ${(e && e.stack) || e}`);
  process.exit(2);
});

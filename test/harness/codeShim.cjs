#!/usr/bin/env node
// A fake "code" executable for @vscode/test-electron's runTests({ vscodeExecutablePath }): it accepts test-electron's
// command line (--extensionDevelopmentPath=, --extensionTestsPath=, --user-data-dir=, --extensions-dir=, [FOLDER]),
// starts code-server (a real VS Code 1.139 server) on a free 127.0.0.1 port, opens the workbench in headless Debian
// Chromium through playwright-core, and exits with the extension host's exit code. Desktop VS Code cannot be
// downloaded here, so this is how the integration tier runs a real VS Code offline.
// Env: CODE_SERVER_NODE, CODE_SERVER_ENTRY (required), CHROMIUM (/usr/bin/chromium), SHIM_TIMEOUT_MS (600000),
// SHIM_VERBOSE=1, SHIM_KEEP=1 (keep the temp dir and logs), SHIM_THEME (a colour theme for screenshots),
// SHIM_WORKSPACE_TRUST=1 (workspace trust on, no start-up prompt: the folder opens untrusted, in restricted mode).
// SHIM_SECOND_WINDOW=<folder> (a second window on that folder, same server and profile: see below).
// A test can ask for a screenshot of its window's whole workbench by logging `SHIM_SCREENSHOT /abs/file.png`, and for
// UI actions (shimPage.cjs).
'use strict';
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const http = require('node:http');
const { chromium } = require('playwright-core');
const { wirePage } = require('./shimPage.cjs');

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
  const auth = `127.0.0.1:${port}`;
  const payload = devPaths.map((p) => ['extensionDevelopmentPath', `vscode-remote://${auth}${p}`]);
  if (testsPath) payload.push(['extensionTestsPath', `vscode-remote://${auth}${testsPath}`]);
  payload.push(['skipWelcome', 'true'], ['skipReleaseNotes', 'true']);
  // SHIM_SECOND_WINDOW=<folder>: a second window (page) on the same server and profile, on another folder, as a
  // user opens two editor windows; each has its own extension host running the same tests. Desktop VS Code never
  // opens one folder in two windows, hence another folder. The launch ends when both test runs have ended.
  const windows = [{ label: '', folder }];
  if (process.env.SHIM_SECOND_WINDOW) {
    windows[0].label = '[window A]';
    windows.push({ label: '[window B]', folder: path.resolve(process.env.SHIM_SECOND_WINDOW) });
  }
  const exits = [];
  const pages = [];
  for (const [i, w] of windows.entries()) {
    const page = (i === 0 && ctx.pages()[0]) || (await ctx.newPage());
    pages.push(page);
    let done;
    exits.push(new Promise((r) => (done = r)));
    await wirePage(page, { label: w.label, t, onExit: (code) => done(code) });
    const where = w.folder ? `folder=${encodeURIComponent(w.folder)}` : 'ew=true';
    // The workbench's first load takes over 30 s (playwright's default) on a machine busy with other test runs.
    await page.goto(`http://${auth}/?${where}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: 180000 });
  }
  // The first window is the focused one (so its workbench shows notification toasts); a second is in the background.
  await pages[0].bringToFront().catch(() => {});
  console.log(`${t()} workbench opened${windows.length > 1 ? ` in ${windows.length} windows` : ''}, waiting for tests`);
  // A launch fails if any window's tests failed (the first non-zero code counts).
  const exited = Promise.all(exits).then((codes) => codes.find((c) => Number(c) !== 0) ?? 0);
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

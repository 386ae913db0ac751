// `npm start`: build the extension, start the embedded reference daemons (AgencyProxy, SCV, A3S, hyperhive) on
// private sockets/ports, and open a real VS Code with the extension, a demo git workspace, and a user profile of its
// own whose settings point at those daemons and at the reference ACP agent (which the extension spawns itself).
// The profiles are the demo user's, not the workspace's: a workspace's profiles wait for the user's consent. Desktop `code` when it is on
// PATH; otherwise code-server on 127.0.0.1 (the URL is printed), with the built extension installed into its
// extensions folder the way a user's install puts it there (no development or smoke-test mode, so notifications
// show as they do for a user). Ctrl+C stops everything and removes the demo's temporary folders.
// SWITCHBOARD_START_CHECK=1: open the workbench once in headless Chromium, check that the extension activated and
// the workspace is clean, report, and exit (non-zero when a check failed).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestBundles } from './buildTestBundles.mjs';
import { prepareWorkspace } from './workspace.mjs';
import { freePort } from './freePort.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = [];
const temp = mkdtempSync(join(tmpdir(), 'switchboard-demo-'));
let workspace;


const bundle = (name) => join(root, 'out/fixtures', `${name}.js`);

function startDaemon(name, args) {
  const child = spawn(process.execPath, [bundle(name), ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  console.log(`started reference ${name} daemon (pid ${child.pid})`);
}

let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const child of children) child.kill('SIGTERM');
  rmSync(temp, { recursive: true, force: true, maxRetries: 5 });
  if (workspace) rmSync(workspace, { recursive: true, force: true, maxRetries: 5 });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    cleanup();
    process.exit(0);
  });
}

execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
await buildTestBundles();

// The connection profiles go into the demo's own user settings (a user-data-dir of its own): profiles in a
// workspace's settings are the repository's and connect only after the user allowed each (README, "What a
// repository's settings can and cannot do"). The demo workspace stays a clean git repository without settings.
const apSocket = join(temp, 'ap', 'runtime.sock');
const scvSocket = join(temp, 'scv', 'server.sock');
mkdirSync(join(temp, 'scv'), { recursive: true });
const a3sPort = await freePort();
const release = `sha256:${'1'.repeat(64)}`;
const hiveDir = join(temp, 'hive');
const connections = [];
if (existsSync(bundle('agencyProxy'))) connections.push({ name: 'AgencyProxy (demo)', protocol: 'agency-proxy', socketPath: apSocket });
if (existsSync(bundle('scv'))) connections.push({ name: 'SCV (demo)', protocol: 'scv', socketPath: scvSocket });
if (existsSync(bundle('a3s'))) connections.push({ name: 'A3S (demo)', protocol: 'a3s', url: `http://127.0.0.1:${a3sPort}`, releaseIdentity: release });
if (existsSync(bundle('hive'))) connections.push({ name: 'hive (demo)', protocol: 'hive', hiveDir });
// The ACP reference agent is no daemon: the extension spawns it (this Node, its bundle) when the profile connects.
if (existsSync(bundle('acp'))) {
  connections.push({ name: 'ACP reference agent (demo)', protocol: 'acp', command: process.execPath, args: [bundle('acp'), '--state-dir', join(temp, 'acp')] });
}
workspace = prepareWorkspace();
console.log(`demo workspace: ${workspace}`);
const userData = join(temp, 'user-data');
mkdirSync(join(userData, 'User'), { recursive: true });

if (existsSync(bundle('agencyProxy'))) startDaemon('agencyProxy', ['--socket', apSocket, '--workspace', workspace]);
if (existsSync(bundle('scv'))) startDaemon('scv', ['--socket', scvSocket]);
if (existsSync(bundle('a3s'))) startDaemon('a3s', ['--port', String(a3sPort), '--workspace', workspace, '--release', release]);
if (existsSync(bundle('hive'))) startDaemon('hive', ['--dir', hiveDir]);

/** Copies what the packaged extension holds (.vscodeignore's list) to where installing the .vsix would put it. */
function installExtension(extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(join(target, 'dist'), { recursive: true });
  for (const file of ['extension.js', 'acpSdk.js', 'webview.js', 'codicons']) {
    if (existsSync(join(root, 'dist', file))) cpSync(join(root, 'dist', file), join(target, 'dist', file), { recursive: true });
  }
  for (const entry of ['media', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(target, entry), { recursive: true });
  }
  // No extensions.json: code-server scans the folder and registers what it finds there (checked with 1.139).
  return target;
}

const hasCode = !process.env.SWITCHBOARD_START_CHECK && spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).status === 0;
if (hasCode) {
  console.log('opening desktop VS Code…');
  // A user-data-dir of its own, so the demo's profiles never touch the user's own settings.
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ 'agentSwitchboard.connections': connections }, null, 2));
  const code = spawn('code', ['--new-window', `--user-data-dir=${userData}`, `--extensionDevelopmentPath=${root}`, workspace], { stdio: 'inherit' });
  code.on('exit', () => console.log('VS Code started. Press Ctrl+C here to stop the reference daemons.'));
} else {
  const setup = spawnSync('bash', [join(root, 'test/harness/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) {
    cleanup();
    throw new Error('test/harness/setup.sh failed');
  }
  const env = Object.fromEntries(setup.stdout.split('\n').map((l) => /^(CODE_SERVER_\w+)=(.+)$/.exec(l.trim())).filter(Boolean).map((m) => [m[1], m[2]]));
  const port = Number(process.env.PORT) || (await freePort());
  const extensionsDir = join(temp, 'extensions');
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'chat.disableAIFeatures': true,
        'security.workspace.trust.enabled': false,
        // The secondary side bar would open empty (chat is disabled): keep it closed.
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'agentSwitchboard.connections': connections,
      },
      null,
      2,
    ),
  );
  writeFileSync(join(temp, 'config.yaml'), '{}\n');
  console.log(`installed the extension into ${installExtension(extensionsDir)}`);
  const server = spawn(
    env.CODE_SERVER_NODE,
    [env.CODE_SERVER_ENTRY, '--config', join(temp, 'config.yaml'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userData, '--extensions-dir', extensionsDir,
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--ignore-last-opened', '--reconnection-grace-time', '5'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  children.push(server);
  const payload = encodeURIComponent(JSON.stringify([['skipWelcome', 'true']]));
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${payload}`;
  console.log(`\nAgent Switchboard is running in VS Code (code-server). Open:\n\n  ${url}\n\nPress Ctrl+C to stop.`);
  if (process.env.SWITCHBOARD_START_CHECK) {
    const failed = await startupCheck(url, userData);
    cleanup();
    process.exit(failed ? 1 : 0);
  }
}

/** Files under `dir` whose name ends with `suffix` (the workbench's log folders are per session and host). */
function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? findFiles(path, suffix) : name.endsWith(suffix) ? [path] : [];
  });
}

/** SWITCHBOARD_START_CHECK: what `npm start` promises, checked once without a person at the browser. */
async function startupCheck(url, userData) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  let activated = false;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    for (let i = 0; i < 100 && !(await page.goto(url).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 300));
    const deadline = Date.now() + 90000;
    while (!activated && Date.now() < deadline) {
      activated = findFiles(join(userData, 'logs'), 'Agent Switchboard.log').some((f) => readFileSync(f, 'utf8').includes('activated'));
      if (!activated) await new Promise((r) => setTimeout(r, 500));
    }
    if (process.env.SWITCHBOARD_START_SCREENSHOT) await page.screenshot({ path: process.env.SWITCHBOARD_START_SCREENSHOT });
  } finally {
    await browser.close();
  }
  const status = execFileSync('git', ['status', '--porcelain'], { cwd: workspace, encoding: 'utf8' });
  const checks = [
    ['the installed extension activated (no development or smoke-test mode)', activated],
    ['the demo workspace has a clean git status', status.trim() === ''],
  ];
  for (const [what, ok] of checks) console.log(`check: ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  return checks.some(([, ok]) => !ok);
}

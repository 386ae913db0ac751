// `npm start`: build the extension, start the embedded reference daemons (AgencyProxy, SCV, A3S, hyperhive) on
// private sockets/ports, and open a real VS Code with the extension and a demo git workspace whose settings point
// at those daemons and at the reference ACP agent (which the extension spawns itself). Desktop `code` when it is on
// PATH; otherwise code-server on 127.0.0.1 (the URL is printed). Ctrl+C stops everything.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestBundles } from './buildTestBundles.mjs';
import { prepareWorkspace } from './workspace.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = [];
const temp = mkdtempSync(join(tmpdir(), 'switchboard-demo-'));

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function startDaemon(name, args) {
  const bundle = join(root, 'out/fixtures', `${name}.js`);
  if (!existsSync(bundle)) return false;
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  console.log(`started reference ${name} daemon (pid ${child.pid})`);
  return true;
}

function cleanup() {
  for (const child of children) child.kill('SIGTERM');
  rmSync(temp, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanup();
  process.exit(0);
});
process.on('SIGTERM', () => {
  cleanup();
  process.exit(0);
});

execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
await buildTestBundles();
const workspace = prepareWorkspace();
console.log(`demo workspace: ${workspace}`);

const connections = [];
const apSocket = join(temp, 'ap', 'runtime.sock');
if (startDaemon('agencyProxy', ['--socket', apSocket, '--workspace', workspace])) {
  connections.push({ name: 'AgencyProxy (demo)', protocol: 'agency-proxy', socketPath: apSocket });
}
const scvSocket = join(temp, 'scv', 'server.sock');
mkdirSync(join(temp, 'scv'), { recursive: true });
if (startDaemon('scv', ['--socket', scvSocket])) {
  connections.push({ name: 'SCV (demo)', protocol: 'scv', socketPath: scvSocket });
}
const a3sPort = await freePort();
const release = `sha256:${'1'.repeat(64)}`;
if (startDaemon('a3s', ['--port', String(a3sPort), '--workspace', workspace, '--release', release])) {
  connections.push({ name: 'A3S (demo)', protocol: 'a3s', url: `http://127.0.0.1:${a3sPort}`, releaseIdentity: release });
}
const hiveDir = join(temp, 'hive');
if (startDaemon('hive', ['--dir', hiveDir])) {
  connections.push({ name: 'hive (demo)', protocol: 'hive', hiveDir });
}
// The ACP reference agent is no daemon: the extension spawns it (this Node, its bundle) when the profile connects.
const acpAgent = join(root, 'out/fixtures/acp.js');
if (existsSync(acpAgent)) {
  connections.push({ name: 'ACP reference agent (demo)', protocol: 'acp', command: process.execPath, args: [acpAgent, '--state-dir', join(temp, 'acp')] });
}
mkdirSync(join(workspace, '.vscode'), { recursive: true });
writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'agentSwitchboard.connections': connections }, null, 2));

const hasCode = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).status === 0;
if (hasCode) {
  console.log('opening desktop VS Code…');
  const code = spawn('code', ['--new-window', `--extensionDevelopmentPath=${root}`, workspace], { stdio: 'inherit' });
  code.on('exit', () => console.log('VS Code started. Press Ctrl+C here to stop the reference daemons.'));
} else {
  const setup = spawnSync('bash', [join(root, 'test/harness/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) {
    cleanup();
    throw new Error('test/harness/setup.sh failed');
  }
  const env = Object.fromEntries(setup.stdout.split('\n').map((l) => /^(CODE_SERVER_\w+)=(.+)$/.exec(l.trim())).filter(Boolean).map((m) => [m[1], m[2]]));
  const port = Number(process.env.PORT) || (await freePort());
  const userData = join(temp, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'chat.disableAIFeatures': true, 'security.workspace.trust.enabled': false }, null, 2));
  writeFileSync(join(temp, 'config.yaml'), '{}\n');
  const server = spawn(env.CODE_SERVER_NODE, [env.CODE_SERVER_ENTRY, '--config', join(temp, 'config.yaml'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--user-data-dir', userData, '--extensions-dir', join(temp, 'extensions'), '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--ignore-last-opened', '--reconnection-grace-time', '5', '--vscode-option', 'enable-smoke-test-driver'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(server);
  const payload = encodeURIComponent(JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${root.replace(/\/$/, '')}`], ['skipWelcome', 'true']]));
  console.log(`\nAgent Switchboard is running in VS Code (code-server). Open:\n\n  http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${payload}\n\nPress Ctrl+C to stop.`);
}

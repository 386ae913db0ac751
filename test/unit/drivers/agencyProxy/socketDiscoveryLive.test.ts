/**
 * Finding live AgencyProxy sockets at the usual places (WIRE.md 1.1) with real temp directories and real listening
 * sockets — a socket file whose daemon is gone is not offered — and the profile written for a picked socket.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { DiscoveryEnvironment } from '../../../../extension/drivers/agencyProxy/socketDiscovery';
import { acceptsConnections, discoverSocketCandidates, findLiveSockets, launcherSocketPath, resolveSocketPath } from '../../../../extension/drivers/agencyProxy/socketDiscovery';
import { configuredSocketPaths, profileNameForSocket, uniqueProfileName, withSocketProfile } from '../../../../extension/drivers/agencyProxy/socketProfiles';

// Short base path: Unix socket paths are limited to ~104 bytes.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-'));
const servers: net.Server[] = [];
after(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  fs.rmSync(base, { recursive: true, force: true, maxRetries: 20 });
});

async function listen(socketPath: string): Promise<void> {
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = net.createServer((c) => c.end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
}

/** A socket file nobody listens on any more (what a crashed daemon leaves behind). */
async function stale(socketPath: string): Promise<void> {
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  // Closing the handle without unlinking: detach the path first so close() cannot remove it.
  const moved = `${socketPath}.keep`;
  fs.renameSync(socketPath, moved);
  await new Promise((resolve) => server.close(resolve));
  fs.renameSync(moved, socketPath);
}

function env(name: string, extra: Partial<DiscoveryEnvironment> = {}): DiscoveryEnvironment {
  const root = fs.mkdtempSync(path.join(base, `${name}-`));
  const home = path.join(root, 'h');
  const tmp = path.join(root, 't');
  fs.mkdirSync(home);
  fs.mkdirSync(tmp);
  return { platform: 'linux', env: {}, homedir: home, tmpdir: tmp, ...extra };
}

describe('AgencyProxy live socket discovery', () => {
  it('finds the launcher sockets under ~/.config/*/ and <tmpdir>/azp-*/, and skips stale ones and decoys', async () => {
    const e = env('a');
    const zero = path.join(e.homedir, '.config', 'AgencyZero', 'agency-proxy', 'runtime.sock');
    const hashed = path.join(e.tmpdir, 'azp-0123456789abcdef', 'runtime.sock');
    const crashed = path.join(e.homedir, '.config', 'Crashed', 'agency-proxy', 'runtime.sock');
    await listen(zero);
    await listen(hashed);
    await stale(crashed);
    // Decoys: the old wrong place (the platform config dir itself), a plain file, a tmp dir without the prefix.
    await listen(path.join(e.homedir, '.config', 'agency-proxy', 'runtime.sock'));
    fs.mkdirSync(path.join(e.homedir, '.config', 'Plain', 'agency-proxy'), { recursive: true });
    fs.writeFileSync(path.join(e.homedir, '.config', 'Plain', 'agency-proxy', 'runtime.sock'), '');
    await listen(path.join(e.tmpdir, 'other-1', 'runtime.sock'));

    const candidates = discoverSocketCandidates(e).map((c) => c.socketPath);
    assert.deepEqual(candidates, [zero, crashed, hashed], 'socket files at the usual places only, in search order');
    const live = await findLiveSockets(e);
    assert.deepEqual(live, [
      { socketPath: zero, launcher: 'AgencyZero' },
      { socketPath: hashed, launcher: 'azp-0123456789abcdef' },
    ]);
    assert.equal(await acceptsConnections(crashed), false);
  });

  it('searches $XDG_CONFIG_HOME as well as ~/.config, once each', async () => {
    const e0 = env('x');
    const xdg = path.join(path.dirname(e0.homedir), 'xdg');
    const e = { ...e0, env: { XDG_CONFIG_HOME: xdg } };
    const inXdg = path.join(xdg, 'Launcher', 'agency-proxy', 'runtime.sock');
    const inHome = path.join(e.homedir, '.config', 'AgencyZero', 'agency-proxy', 'runtime.sock');
    await listen(inXdg);
    await listen(inHome);
    assert.deepEqual((await findLiveSockets(e)).map((s) => s.socketPath), [inXdg, inHome]);
    // The usual setup: XDG_CONFIG_HOME is ~/.config itself — searched once, so each socket is offered once.
    const same = { ...e0, env: { XDG_CONFIG_HOME: path.join(e0.homedir, '.config') } };
    assert.deepEqual((await findLiveSockets(same)).map((s) => s.socketPath), [inHome]);
    // A relative XDG_CONFIG_HOME is invalid (XDG spec) and ignored.
    assert.deepEqual((await findLiveSockets({ ...e0, env: { XDG_CONFIG_HOME: 'xdg' } })).map((s) => s.socketPath), [inHome]);
  });

  it('on macOS also searches ~/Library/Application Support/*/', async () => {
    const e = env('m', { platform: 'darwin' });
    const mac = path.join(e.homedir, 'Library', 'Application Support', 'AgencyZero', 'agency-proxy', 'runtime.sock');
    await listen(mac);
    assert.deepEqual((await findLiveSockets(e)).map((s) => s.launcher), ['AgencyZero']);
  });

  it('the driver connects to the profile path, else the first live socket, else fails retryably naming the places', async () => {
    const e = env('r');
    const notes: string[] = [];
    assert.equal(await resolveSocketPath('~/my.sock', (m) => notes.push(m), e), path.join(e.homedir, 'my.sock'));
    await assert.rejects(resolveSocketPath(undefined, (m) => notes.push(m), e), (error: Error) => {
      assert.equal(error.name, 'DriverError');
      assert.match(error.message, /\.config\/<launcher>\/agency-proxy\/runtime\.sock/);
      assert.match(error.message, /azp-<hash>\/runtime\.sock/);
      return true;
    });
    const first = path.join(e.homedir, '.config', 'A', 'agency-proxy', 'runtime.sock');
    await listen(first);
    await listen(path.join(e.homedir, '.config', 'B', 'agency-proxy', 'runtime.sock'));
    assert.equal(await resolveSocketPath('  ', (m) => notes.push(m), e), first);
    assert.match(notes.join('\n'), /Several AgencyProxy daemons are listening; using .*\/A\/agency-proxy/);
  });

  it('a long launcher directory uses the tmpdir fallback that discovery searches', () => {
    const longDir = `/home/${'x'.repeat(90)}/AgencyZero`;
    assert.match(launcherSocketPath(longDir, '/tmp'), /^\/tmp\/azp-[0-9a-f]{16}\/runtime\.sock$/);
    assert.equal(launcherSocketPath('/h/.config/Z', '/tmp'), '/h/.config/Z/agency-proxy/runtime.sock');
  });
});

describe('connection profiles for discovered sockets', () => {
  const raw = [
    { name: 'AgencyZero', protocol: 'agency-proxy', socketPath: '/h/.config/AgencyZero//agency-proxy/runtime.sock' },
    { name: 'AgencyZero (2)', protocol: 'agency-proxy' },
    { name: 'AgencyZero', protocol: 'scv', socketPath: '/s.sock' },
    'garbage kept as is',
  ];

  it('knows which sockets are configured (normalised, AgencyProxy only)', () => {
    assert.deepEqual([...configuredSocketPaths(raw)], ['/h/.config/AgencyZero/agency-proxy/runtime.sock']);
    assert.deepEqual([...configuredSocketPaths(undefined)], []);
  });

  it('names a profile after its launcher, uniquely among AgencyProxy profiles', () => {
    assert.equal(profileNameForSocket({ socketPath: '/x', launcher: 'AgencyZero' }), 'AgencyZero');
    assert.equal(profileNameForSocket({ socketPath: '/x', launcher: 'azp-0123456789abcdef' }), 'AgencyProxy (012345)');
    assert.equal(uniqueProfileName('AgencyZero', raw), 'AgencyZero (3)');
    assert.equal(uniqueProfileName('Other', raw), 'Other');
  });

  it('appends the profile and keeps every existing entry untouched', () => {
    const next = withSocketProfile(raw, 'AgencyZero (3)', '/t/azp-1/runtime.sock');
    assert.deepEqual(next.slice(0, raw.length), raw);
    assert.deepEqual(next[raw.length], { name: 'AgencyZero (3)', protocol: 'agency-proxy', socketPath: '/t/azp-1/runtime.sock' });
    assert.deepEqual(withSocketProfile({ not: 'an array' }, 'A', '/a'), [{ name: 'A', protocol: 'agency-proxy', socketPath: '/a' }]);
  });
});

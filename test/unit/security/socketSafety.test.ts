/**
 * Endpoint safety: an AgencyProxy socket whose directory others can write to is reported (and shown on the
 * connection); A3S harness URLs are refused unless they are loopback, or the profile opts in; links from agent text
 * are opened only after the user confirmed them, and never `command:` / `file:` / `vscode:` ones.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { linkOpenDecision } from '../../../extension/base/linkPolicy';
import { a3sProfileProblem } from '../../../extension/drivers/a3s/a3sProfile';
import { A3sError } from '../../../extension/drivers/a3s/a3sErrors';
import { parseA3sBaseUrl } from '../../../extension/drivers/a3s/loopback';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { checkSocketSecurity } from '../../../extension/drivers/agencyProxy/socketDiscovery';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { driverSetup, until } from '../drivers/driverKit';

const base = mkdtempSync(join(tmpdir(), 'sock-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

async function listen(path: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(path, done));
  return server;
}

test('a socket in a directory writable by others is reported; a private one is not', async () => {
  const open = join(base, 'open');
  const closed = join(base, 'closed');
  mkdirSync(open);
  mkdirSync(closed);
  chmodSync(open, 0o777);
  chmodSync(closed, 0o700);
  const servers = [await listen(join(open, 'ap.sock')), await listen(join(closed, 'ap.sock'))];
  try {
    chmodSync(join(closed, 'ap.sock'), 0o600);
    const warned = checkSocketSecurity(join(open, 'ap.sock')).warnings.join(' ');
    assert.match(warned, /writable by group and others/);
    assert.match(warned, /chmod 700/);
    assert.deepEqual(checkSocketSecurity(join(closed, 'ap.sock')).warnings, []);
    chmodSync(join(closed, 'ap.sock'), 0o666);
    assert.match(checkSocketSecurity(join(closed, 'ap.sock')).warnings.join(' '), /accessible by group\/others/);
    assert.match(checkSocketSecurity(join(closed, 'ap.sock'), 12345).warnings.join(' '), /owned by uid/);
  } finally {
    servers.forEach((s) => s.close());
  }
});

test('the AgencyProxy connection carries the warning when its socket directory is world-writable', async () => {
  const dir = join(base, 'shared');
  mkdirSync(dir);
  chmodSync(dir, 0o777);
  const socketPath = join(dir, 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir });
  await daemon.start();
  const { store, connectionId, ctx } = driverSetup({ name: 'shared', protocol: 'agency-proxy', socketPath }, join(base, 'storage'));
  const driver = new AgencyProxyDriver(ctx);
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    assert.match(store.state.connections.get(connectionId)?.warning ?? '', /writable by group and others/);
  } finally {
    await driver.dispose();
    await daemon.stop();
  }
});

test('A3S: non-loopback harness URLs are refused unless the profile opts in', () => {
  const loopback = ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:8787', 'http://127.1:80', 'http://0x7f000001/', 'http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://127.255.255.254/a3s'];
  const remote = ['http://192.0.2.10:8787', 'http://10.0.0.1', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io', 'http://[::ffff:10.0.0.1]', 'http://0.0.0.0:8080', 'http://169.254.169.254', 'http://[fe80::1]', 'http://example.com'];
  for (const url of loopback) {
    assert.doesNotThrow(() => parseA3sBaseUrl(url), url);
  }
  for (const url of remote) {
    assert.throws(() => parseA3sBaseUrl(url), (e: unknown) => e instanceof A3sError && /not a loopback address/.test(e.message), url);
    assert.doesNotThrow(() => parseA3sBaseUrl(url, true), `${url} with the opt-in`);
    const problem = a3sProfileProblem({ name: 'a3s', protocol: 'a3s', url, releaseIdentity: `sha256:${'1'.repeat(64)}` });
    assert.match(problem ?? '', /"allowRemote": true/, url);
    assert.equal(a3sProfileProblem({ name: 'a3s', protocol: 'a3s', url, allowRemote: true, releaseIdentity: `sha256:${'1'.repeat(64)}` }), undefined);
  }
  // Never, even with the opt-in: credentials in the URL, or anything but plain http.
  for (const url of ['http://user:secret@127.0.0.1:8080', 'https://127.0.0.1:8080', 'file:///tmp/a3s.sock', 'javascript:alert(1)']) {
    assert.throws(() => parseA3sBaseUrl(url, true), A3sError, url);
  }
});

test('links from agent text: only http(s)/mailto, and only after confirmation; never command:, file:, vscode:', () => {
  for (const scheme of ['http', 'https', 'mailto']) {
    assert.deepEqual(linkOpenDecision(scheme), { kind: 'confirm', scheme });
  }
  for (const scheme of ['command', 'file', 'vscode', 'vscode-insiders', 'vscode-remote', 'javascript', 'data', 'vbscript', 'ftp', 'ssh', 'HTTP', 'Command', '', 'http:', ' https']) {
    assert.equal(linkOpenDecision(scheme).kind, 'refuse', JSON.stringify(scheme));
  }
  // The host uses the decision, asks with a modal, and opens only on an explicit "Open".
  const source = readFileSync(resolve(__dirname, '../../../extension/ui/transcriptActions.ts'), 'utf8');
  const openLink = source.slice(source.indexOf('private async openLink('));
  assert.match(openLink, /linkOpenDecision\(uri\.scheme\)\.kind === 'refuse'/);
  assert.match(openLink, /showWarningMessage\([\s\S]*\{ modal: true[\s\S]*'Open',?\s*\);\s*if \(choice === 'Open'\) \{\s*await vscode\.env\.openExternal\(uri\);/);
  assert.equal(source.split('openExternal(').length - 1, 1, 'openExternal is called in one place only');
});

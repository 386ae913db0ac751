import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  checkSocketSecurity,
  configDir,
  fnv1a64Hex,
  launcherSocketPath,
} from '../../../../extension/drivers/agencyProxy/socketDiscovery';
import type { DiscoveryEnvironment } from '../../../../extension/drivers/agencyProxy/socketDiscovery';

const linux = (home: string, env: Record<string, string> = {}): DiscoveryEnvironment =>
  ({ platform: 'linux', env, homedir: home, tmpdir: '/tmp' });

describe('AgencyProxy socket discovery', () => {
  it('FNV-1a 64 matches independently computed values', () => {
    // Verified with Python: h=0xcbf29ce484222325; for b in s.encode(): h^=b; h=(h*0x100000001b3)%2**64
    assert.equal(fnv1a64Hex(''), 'cbf29ce484222325');
    assert.equal(fnv1a64Hex('a'), 'af63dc4c8601ec8c');
    assert.equal(fnv1a64Hex('/home/user/.config'), '43fe03ba9c20db26');
    assert.equal(fnv1a64Hex('/Users/someone/Library/Application Support'), '37b55f6fdd4d0f1f');
  });

  it('uses XDG_CONFIG_HOME (absolute only), ~/.config, or Application Support', () => {
    assert.equal(configDir(linux('/home/u')), '/home/u/.config');
    assert.equal(configDir(linux('/home/u', { XDG_CONFIG_HOME: '/xdg' })), '/xdg');
    assert.equal(configDir(linux('/home/u', { XDG_CONFIG_HOME: 'relative' })), '/home/u/.config');
    assert.equal(configDir({ platform: 'darwin', env: {}, homedir: '/Users/a', tmpdir: '/tmp' }),
      '/Users/a/Library/Application Support');
    assert.equal(launcherSocketPath(configDir(linux('/home/u')), '/tmp'), '/home/u/.config/agency-proxy/runtime.sock');
  });

  it('falls back to <tmpdir>/azp-<hash>/runtime.sock when the conventional path is over 100 bytes', () => {
    const dir = `/home/${'x'.repeat(80)}`;
    const env = linux(dir);
    const cfg = `${dir}/.config`;
    assert.ok(Buffer.byteLength(`${cfg}/agency-proxy/runtime.sock`) > 100);
    assert.equal(launcherSocketPath(configDir(env), '/tmp'), `/tmp/azp-${fnv1a64Hex(cfg)}/runtime.sock`);
    // Exactly 100 bytes stays conventional.
    const exact = '/h/' + 'y'.repeat(100 - '/h/'.length - '/.config/agency-proxy/runtime.sock'.length);
    assert.equal(Buffer.byteLength(`${exact}/.config/agency-proxy/runtime.sock`), 100);
    assert.equal(launcherSocketPath(configDir(linux(exact)), '/tmp'), `${exact}/.config/agency-proxy/runtime.sock`);
  });

  it('warns about a group/other-writable socket directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apd-'));
    const server = net.createServer();
    const sock = path.join(dir, 's.sock');
    try {
      await new Promise<void>((resolve) => server.listen(sock, resolve));
      fs.chmodSync(sock, 0o600);
      fs.chmodSync(dir, 0o700);
      assert.deepEqual(checkSocketSecurity(sock).warnings, []);
      fs.chmodSync(dir, 0o777);
      const warnings = checkSocketSecurity(sock).warnings;
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /writable by group and others/);
      fs.chmodSync(dir, 0o700);
      assert.match(checkSocketSecurity(sock, 12345).warnings.join('\n'), /owned by uid/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});

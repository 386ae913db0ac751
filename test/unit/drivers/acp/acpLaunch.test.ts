/** What is spawned for an ACP profile: the command resolved on the host's PATH, and a repository's env refused. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { launchSpecOf } from '../../../../extension/drivers/acp/acpLaunch';

function binDir(): { dir: string; agent: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-launch-'));
  const agent = path.join(dir, 'agent');
  fs.writeFileSync(agent, '#!/bin/sh\n');
  fs.chmodSync(agent, 0o755);
  return { dir, agent, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

test("a bare command is spawned as the absolute path found on the host's PATH, not the profile's env PATH", async () => {
  const host = binDir();
  const repo = binDir();
  try {
    const spec = await launchSpecOf({ name: 'a', protocol: 'acp', command: 'agent', env: { PATH: repo.dir } }, '/ws', undefined, { PATH: host.dir });
    assert.equal(spec.command, host.agent);
    assert.equal(spec.env.PATH, repo.dir, "the user's profile may still set the agent's PATH");
  } finally {
    host.cleanup();
    repo.cleanup();
  }
});

test('a relative command is refused before anything is spawned', async () => {
  await assert.rejects(launchSpecOf({ name: 'a', protocol: 'acp', command: './tools/agent' }, '/ws', undefined, { PATH: '/bin' }), /relative path/);
});

test("a workspace profile's NODE_OPTIONS is refused with the key named; the user's is kept", async () => {
  const host = binDir();
  try {
    const profile = { name: 'a', protocol: 'acp', command: host.agent, env: { NODE_OPTIONS: '--require /tmp/x.js' } } as const;
    await assert.rejects(launchSpecOf(profile, '/ws', undefined, {}, 'workspace'), /NODE_OPTIONS/);
    assert.equal((await launchSpecOf(profile, '/ws', undefined, {}, 'user')).env.NODE_OPTIONS, '--require /tmp/x.js');
  } finally {
    host.cleanup();
  }
});

/** An ACP command becomes an absolute path: relative paths refused, bare names found on the host's PATH only. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { isExecutableFile, resolveAgentCommand } from '../../../../extension/drivers/profileTrust/commandResolution';

const only = (...paths: string[]) => (p: string): boolean => paths.includes(p);

test('an absolute command is used as written (normalised)', () => {
  assert.deepEqual(resolveAgentCommand('/usr/local/bin/../bin/agent', '/nowhere', only()), { ok: true, path: '/usr/local/bin/agent' });
});

test('a relative command with a separator is refused, whatever is on PATH', () => {
  for (const command of ['./tools/agent', 'tools/agent', '../agent', '~/bin/agent']) {
    const result = resolveAgentCommand(command, '/bin', () => true);
    assert.equal(result.ok, false, command);
    assert.match(result.ok ? '' : result.reason, /relative path/);
  }
});

test('a bare name is looked up on PATH, first match wins', () => {
  assert.deepEqual(resolveAgentCommand('agent', '/a:/b:/c', only('/b/agent', '/c/agent')), { ok: true, path: '/b/agent' });
});

test('empty and relative PATH entries are skipped (they would resolve against the working directory)', () => {
  const probed: string[] = [];
  const result = resolveAgentCommand('agent', ':.:tools:/opt/bin', (p) => (probed.push(p), p === '/opt/bin/agent' || !path.isAbsolute(p)));
  assert.deepEqual(result, { ok: true, path: '/opt/bin/agent' });
  assert.deepEqual(probed, ['/opt/bin/agent']);
});

test('a bare name not on PATH is refused with the reason', () => {
  const result = resolveAgentCommand('agent', '/a:/b', only());
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.reason, /not found on PATH/);
  assert.equal(resolveAgentCommand('agent', undefined, () => true).ok, false);
  assert.equal(resolveAgentCommand('  ', '/a', () => true).ok, false);
});

test('isExecutableFile: a regular executable file only', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-exec-'));
  try {
    const script = path.join(dir, 'agent');
    fs.writeFileSync(script, '#!/bin/sh\n');
    assert.equal(isExecutableFile(script), false, 'not executable yet');
    fs.chmodSync(script, 0o755);
    assert.equal(isExecutableFile(script), true);
    assert.equal(isExecutableFile(dir), false, 'a directory is not a command');
    assert.deepEqual(resolveAgentCommand('agent', `relative:${dir}`), { ok: true, path: script });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A connection's secret namespace follows what it runs or reaches, never its name. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, secretNamespaceOf } from '../../../../extension/drivers/profileTrust/secretBinding';
import type { ConnectionProfile } from '../../../../extension/protocol/connectionProfile';

const claude: ConnectionProfile = { name: 'Claude Code', protocol: 'acp', command: 'claude-agent-acp', args: [] };

test('same name, other command: another namespace', () => {
  const users = secretNamespaceOf(claude, '/usr/bin/claude-agent-acp');
  const repos = secretNamespaceOf({ ...claude, command: './tools/agent' }, '/repo/tools/agent');
  assert.notEqual(users, repos);
});

test('same command, other arguments or env: another namespace (a base URL or proxy in env could take the key elsewhere)', () => {
  const base = secretNamespaceOf(claude, '/usr/bin/claude-agent-acp');
  assert.notEqual(base, secretNamespaceOf({ ...claude, args: ['--debug'] }, '/usr/bin/claude-agent-acp'));
  assert.notEqual(base, secretNamespaceOf({ ...claude, env: { ANTHROPIC_BASE_URL: 'https://elsewhere.example' } }, '/usr/bin/claude-agent-acp'));
});

test('the name, cwd and autoConnect are not part of it: renaming keeps the sign-in', () => {
  const base = secretNamespaceOf(claude, '/usr/bin/claude-agent-acp');
  assert.equal(base, secretNamespaceOf({ ...claude, name: 'Claude', cwd: '/tmp', autoConnect: false }, '/usr/bin/claude-agent-acp'));
  assert.match(base, /^[0-9a-f]{64}$/);
});

test('the same bare name resolved to another file is another namespace', () => {
  assert.notEqual(secretNamespaceOf(claude, '/usr/bin/claude-agent-acp'), secretNamespaceOf(claude, '/home/u/.local/bin/claude-agent-acp'));
});

test('A3S binds to the URL; socket daemons to the protocol and endpoint', () => {
  const a3s: ConnectionProfile = { name: 'a', protocol: 'a3s', url: 'http://127.0.0.1:8080' };
  assert.equal(secretNamespaceOf(a3s, undefined), secretNamespaceOf({ ...a3s, name: 'b' }, undefined));
  assert.notEqual(secretNamespaceOf(a3s, undefined), secretNamespaceOf({ ...a3s, url: 'http://127.0.0.1:9090' }, undefined));
  const scv: ConnectionProfile = { name: 's', protocol: 'scv', socketPath: '/tmp/s.sock' };
  assert.notEqual(secretNamespaceOf(scv, undefined), secretNamespaceOf({ ...scv, protocol: 'agency-proxy' }, undefined));
});

test('canonicalJson sorts keys at every level', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } }), '{"a":{"c":3,"d":[2,{"y":2,"z":1}]},"b":1}');
});

test('MCP servers are part of the binding (code the agent starts with its environment); none listed keeps the old namespace', () => {
  const base = secretNamespaceOf(claude, '/usr/bin/claude-agent-acp');
  assert.equal(secretNamespaceOf({ ...claude, mcpServers: [] }, '/usr/bin/claude-agent-acp'), base, 'an empty list changes nothing');
  const withServer = secretNamespaceOf({ ...claude, mcpServers: [{ name: 'tools', command: './tools/mcp' }] }, '/usr/bin/claude-agent-acp');
  assert.notEqual(withServer, base);
  assert.notEqual(secretNamespaceOf({ ...claude, mcpServers: [{ name: 'tools', command: './tools/other' }] }, '/usr/bin/claude-agent-acp'), withServer);
});

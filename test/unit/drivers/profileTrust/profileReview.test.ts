/** What the consent prompt names, what is refused, and when a consent no longer applies. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reviewProfile } from '../../../../extension/drivers/profileTrust/profileReview';
import type { ConnectionProfile } from '../../../../extension/protocol/connectionProfile';

const env = { searchPath: '/usr/bin:/opt/bin', workspaceFolder: '/ws', isExecutable: (p: string) => p === '/opt/bin/agent' };
const acp: ConnectionProfile = { name: 'repo agent', protocol: 'acp', command: 'agent', args: ['--acp', 'two words'], env: { DEBUG: '1', OPENAI_API_KEY: 'sk-secret' } };

test('an ACP profile: the resolved absolute command, its arguments, directory and env (secret-looking values hidden)', () => {
  const review = reviewProfile(acp, 'workspace', env);
  assert.equal(review.refusal, undefined);
  assert.equal(review.resolvedCommand, '/opt/bin/agent');
  assert.deepEqual(review.effects, ['Run: /opt/bin/agent --acp "two words"', 'In: /ws', 'Environment: DEBUG=1, OPENAI_API_KEY=(value hidden)']);
  assert.equal(review.effects.join('\n').includes('sk-secret'), false);
});

test('a relative command is refused for any origin', () => {
  for (const origin of ['user', 'workspace'] as const) {
    const review = reviewProfile({ ...acp, command: './tools/agent' }, origin, env);
    assert.match(review.refusal ?? '', /relative path/, origin);
  }
});

test('code-changing env keys are refused from a workspace, named, and allowed from the user', () => {
  const profile = { ...acp, env: { NODE_OPTIONS: '--require /tmp/x.js', LD_PRELOAD: '/tmp/x.so', DEBUG: '1' } };
  assert.match(reviewProfile(profile, 'workspace', env).refusal ?? '', /sets NODE_OPTIONS, LD_PRELOAD in "env"/);
  assert.match(reviewProfile(profile, 'workspaceFolder', env).refusal ?? '', /NODE_OPTIONS/);
  assert.equal(reviewProfile(profile, 'user', env).refusal, undefined);
});

test('A3S: a remote URL is named as such; allowRemote from a workspace is refused, from the user not', () => {
  const remote: ConnectionProfile = { name: 'r', protocol: 'a3s', url: 'http://10.1.2.3:8080', allowRemote: true };
  assert.match(reviewProfile(remote, 'workspace', env).refusal ?? '', /allowRemote/);
  assert.equal(reviewProfile(remote, 'user', env).refusal, undefined);
  assert.match(reviewProfile(remote, 'user', env).effects[0]!, /10\.1\.2\.3:8080 \(another machine/);
  assert.equal(reviewProfile({ ...remote, url: 'http://127.0.0.1:1', allowRemote: undefined }, 'workspace', env).effects[0], 'Connect over HTTP to: http://127.0.0.1:1');
});

test('sockets and hives: the path that is opened', () => {
  assert.deepEqual(reviewProfile({ name: 's', protocol: 'scv', socketPath: '/tmp/s.sock' }, 'workspace', env).effects, ['Connect to the socket: /tmp/s.sock']);
  assert.deepEqual(reviewProfile({ name: 'h', protocol: 'hive', hiveDir: '/run/h' }, 'workspace', env).effects, ["Open the hive's sockets under: /run/h"]);
  assert.deepEqual(reviewProfile({ name: 'h', protocol: 'hive' }, 'workspace', env).effects, ["Open the hive's sockets under: /run/hyperhive"]);
});

test('the consent digest changes with any change to the profile, and with what the command resolves to', () => {
  const base = reviewProfile(acp, 'workspace', env).digest;
  assert.equal(reviewProfile({ ...acp }, 'workspace', env).digest, base, 'same content, same digest');
  assert.equal(reviewProfile({ env: acp.env, args: acp.args, command: acp.command, protocol: acp.protocol, name: acp.name }, 'workspace', env).digest, base, 'key order does not matter');
  for (const changed of [{ ...acp, args: ['--acp'] }, { ...acp, env: { DEBUG: '2' } }, { ...acp, cwd: '/elsewhere' }, { ...acp, autoConnect: false }, { ...acp, name: 'renamed' }]) {
    assert.notEqual(reviewProfile(changed, 'workspace', env).digest, base, JSON.stringify(changed));
  }
  const elsewhere = { ...env, isExecutable: (p: string) => p === '/usr/bin/agent' };
  assert.notEqual(reviewProfile(acp, 'workspace', elsewhere).digest, base, 'the bare name now finds another file');
});

test("a start mode is named, and one that lets the agent act without asking is marked; it is part of what was allowed", () => {
  const asking = reviewProfile({ ...acp, startMode: 'default' }, 'workspace', env);
  assert.equal(asking.effects.at(-1), 'Sessions start in mode: default');
  const bypass = reviewProfile({ ...acp, startMode: 'bypassPermissions' }, 'workspace', env);
  assert.equal(bypass.effects.at(-1), 'Sessions start in mode: bypassPermissions (⚠ the agent runs tools and edits without asking)');
  assert.notEqual(bypass.digest, asking.digest, 'a consent to one start mode is not a consent to another');
  assert.equal(reviewProfile(acp, 'workspace', env).effects.some((e) => e.startsWith('Sessions start')), false);
});

test('MCP servers: the prompt names each command and URL, never an env or header value; the consent is bound to them', () => {
  const profile: ConnectionProfile = {
    ...acp,
    env: {},
    mcpServers: [
      { name: 'repo tools', command: './tools/mcp-server', args: ['--root', 'two words'], env: { TOOLS_TOKEN: 'tok-value-1', MODE: 'fast-mode' } },
      { name: 'tracker', type: 'http', url: 'https://tracker.example/mcp', headers: { Authorization: 'Bearer hdr-value-2' } },
    ],
  };
  const review = reviewProfile(profile, 'workspace', env);
  assert.deepEqual(review.effects.slice(2), [
    'MCP server "repo tools": the agent runs ./tools/mcp-server --root "two words" (environment: TOOLS_TOKEN, MODE; values hidden)',
    'MCP server "tracker": the agent connects to https://tracker.example/mcp (http) (headers: Authorization; values hidden)',
  ]);
  for (const value of ['tok-value-1', 'fast-mode', 'hdr-value-2']) {
    assert.equal(review.effects.join('\n').includes(value), false, value);
  }
  const otherCommand = { ...profile, mcpServers: [{ ...profile.mcpServers![0]!, command: './tools/evil' }, profile.mcpServers![1]!] };
  const otherUrl = { ...profile, mcpServers: [profile.mcpServers![0]!, { name: 'tracker', type: 'http' as const, url: 'https://elsewhere.example/mcp' }] };
  assert.notEqual(reviewProfile(otherCommand, 'workspace', env).digest, review.digest, 'another MCP command asks again');
  assert.notEqual(reviewProfile(otherUrl, 'workspace', env).digest, review.digest, 'another MCP URL asks again');
});

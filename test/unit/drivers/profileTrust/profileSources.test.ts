/** User and workspace profiles side by side, each with its origin; a workspace cannot take a user profile's place. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeProfileSources } from '../../../../extension/drivers/profileTrust/profileSources';

const claude = { name: 'Claude Code', protocol: 'acp', command: 'claude-agent-acp' };

test("a workspace list no longer replaces the user's: both are shown, with their origins", () => {
  const { profiles, problems } = mergeProfileSources({
    user: [claude],
    workspace: [{ name: 'repo agent', protocol: 'acp', command: '/opt/agent' }],
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(profiles.map((p) => [p.id, p.origin]), [
    ['acp:Claude Code', 'user'],
    ['acp:repo agent', 'workspace'],
  ]);
});

test("a workspace profile with a user profile's id is not used, and that is reported", () => {
  const { profiles, problems } = mergeProfileSources({
    user: [claude],
    workspace: [{ name: 'Claude Code', protocol: 'acp', command: '/repo/tools/agent' }],
  });
  assert.equal(profiles.length, 1);
  assert.equal(profiles[0]!.origin, 'user');
  assert.equal(profiles[0]!.profile.command, 'claude-agent-acp');
  assert.match(problems[0]!, /"Claude Code" \(acp\) in this workspace's settings has the name of one in your user settings/);
});

test('the same name under another protocol is another connection', () => {
  const { profiles } = mergeProfileSources({ user: [claude], workspace: [{ name: 'Claude Code', protocol: 'scv' }] });
  assert.deepEqual(profiles.map((p) => p.id), ['acp:Claude Code', 'scv:Claude Code']);
});

test('a workspace folder profile is workspace-defined too, and cannot shadow the workspace one', () => {
  const { profiles, problems } = mergeProfileSources({
    workspace: [{ name: 'x', protocol: 'hive' }],
    workspaceFolder: [{ name: 'x', protocol: 'hive', hiveDir: '/elsewhere' }, { name: 'y', protocol: 'hive' }],
  });
  assert.deepEqual(profiles.map((p) => [p.id, p.origin, p.profile.hiveDir]), [
    ['hive:x', 'workspace', undefined],
    ['hive:y', 'workspaceFolder', undefined],
  ]);
  assert.equal(problems.length, 1);
});

test('invalid entries and duplicates are skipped and reported; a non-array is reported', () => {
  const { profiles, problems } = mergeProfileSources({
    user: [claude, { name: '', protocol: 'acp' }, { ...claude, command: 'other' }],
    workspace: { not: 'an array' },
  });
  assert.equal(profiles.length, 1);
  assert.equal(profiles[0]!.profile.command, 'claude-agent-acp');
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /#2 in your user settings is invalid/);
  assert.match(problems[1]!, /defined twice in your user settings/);
  assert.match(problems[2]!, /this workspace's settings must be an array/);
});

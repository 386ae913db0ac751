/**
 * The ACP presets of *Add Connection*: found on PATH (a fake file system), else through npx, else a clear install
 * message; Gemini's flag follows `gemini --version`; the PATH walk itself (order, relative entries, Windows PATHEXT);
 * and the Node environment against real executables in a temp dir.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { PresetEnvironment } from '../../../../extension/drivers/acpPresets/acpPresets';
import { ACP_PRESET_VERSIONS, acpPresets, findOnPath, nodePresetEnvironment, parseVersion } from '../../../../extension/drivers/acpPresets/acpPresets';

interface Fake {
  readonly environment: PresetEnvironment;
  readonly runs: string[];
}

function fake(files: readonly string[], options: { path?: string; platform?: NodeJS.Platform; env?: Record<string, string>; version?: string | Error } = {}): Fake {
  const executables = new Set(files);
  const runs: string[] = [];
  const environment: PresetEnvironment = {
    env: options.env ?? { PATH: options.path ?? '/usr/local/bin:/usr/bin' },
    platform: options.platform ?? 'linux',
    isExecutable: async (file) => executables.has(file),
    run: async (command, args) => {
      runs.push([command, ...args].join(' '));
      if (options.version instanceof Error) {
        throw options.version;
      }
      return options.version ?? '0.50.0\n';
    },
  };
  return { environment, runs };
}

const byLabel = async (f: Fake) => new Map((await acpPresets(f.environment)).map((p) => [p.label, p]));

test('the three presets, in order, each found on PATH: the absolute path is the command, sessions start in the mode that asks', async () => {
  const f = fake(['/usr/local/bin/claude-agent-acp', '/usr/bin/codex-acp', '/usr/bin/gemini', '/usr/bin/npx']);
  const presets = await acpPresets(f.environment);
  assert.deepEqual(presets.map((p) => p.label), ['Claude Code', 'Codex', 'Gemini CLI']);
  assert.deepEqual(presets.map((p) => p.profile), [
    { name: 'Claude Code', protocol: 'acp', command: '/usr/local/bin/claude-agent-acp', args: [], startMode: 'default' },
    { name: 'Codex', protocol: 'acp', command: '/usr/bin/codex-acp', args: [], startMode: 'read-only' },
    { name: 'Gemini CLI', protocol: 'acp', command: '/usr/bin/gemini', args: ['--acp'], startMode: 'default' },
  ]);
  assert.deepEqual(presets.map((p) => p.problem), [undefined, undefined, undefined]);
  assert.match(presets[0]!.detail, /^\/usr\/local\/bin\/claude-agent-acp/);
  assert.deepEqual(f.runs, ['/usr/bin/gemini --version'], 'only Gemini is asked for its version');
});

test('not on PATH but npx is: run through npx -y <package>@<pinned version>, saying it downloads on first use', async () => {
  const presets = await byLabel(fake(['/usr/bin/npx']));
  assert.deepEqual(presets.get('Claude Code')?.profile, { name: 'Claude Code', protocol: 'acp', command: '/usr/bin/npx', args: ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0'], startMode: 'default' });
  assert.deepEqual(presets.get('Codex')?.profile, { name: 'Codex', protocol: 'acp', command: '/usr/bin/npx', args: ['-y', '@agentclientprotocol/codex-acp@2.6.0'], startMode: 'read-only' });
  assert.deepEqual(presets.get('Gemini CLI')?.profile, { name: 'Gemini CLI', protocol: 'acp', command: '/usr/bin/npx', args: ['-y', '@google/gemini-cli@0.61.0', '--acp'], startMode: 'default' });
  assert.equal(presets.get('Codex')?.description, '2.6.0 via npx');
  for (const preset of presets.values()) {
    assert.match(preset.detail, /downloads .* version \d+\.\d+\.\d+ on first use/);
    assert.equal(preset.problem, undefined);
  }
});

test('the pinned versions are the ones the project tests with (package.json devDependencies)', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const [name, version] of Object.entries(ACP_PRESET_VERSIONS)) {
    assert.equal(manifest.devDependencies[name], version, `${name}: the preset pins ${version}, the tests use ${manifest.devDependencies[name]}`);
  }
});

test('neither the agent nor npx: no profile, and the problem says how to install it', async () => {
  const presets = await byLabel(fake(['/usr/bin/codex-acp']));
  assert.equal(presets.get('Codex')?.profile?.command, '/usr/bin/codex-acp');
  const claude = presets.get('Claude Code');
  assert.equal(claude?.profile, undefined);
  assert.equal(claude?.problem, 'Claude Code not found: install with `npm install -g @agentclientprotocol/claude-agent-acp@0.101.0` (needs Node.js), so that `claude-agent-acp` is on PATH.');
  assert.equal(claude?.detail, claude?.problem);
  assert.match(presets.get('Gemini CLI')?.problem ?? '', /not found: install with `npm install -g @google\/gemini-cli@0\.61\.0`/);
});

test("Gemini before 0.50 gets --experimental-acp; 0.50 and later --acp; an unreadable version assumes the current flag", async () => {
  const flag = async (version: string | Error) => (await byLabel(fake(['/usr/bin/gemini'], { version }))).get('Gemini CLI');
  assert.deepEqual((await flag('0.49.9\n'))?.profile?.args, ['--experimental-acp']);
  assert.deepEqual((await flag('0.9.0'))?.profile?.args, ['--experimental-acp']);
  assert.deepEqual((await flag('0.50.0'))?.profile?.args, ['--acp']);
  assert.deepEqual((await flag('gemini 1.2.3-preview.1'))?.profile?.args, ['--acp']);
  assert.match((await flag('0.49.0'))?.detail ?? '', /--experimental-acp — version 0\.49\.0/);
  const unknown = await flag(new Error('spawn failed'));
  assert.deepEqual(unknown?.profile?.args, ['--acp']);
  assert.match(unknown?.detail ?? '', /could not be read/);
  assert.deepEqual((await flag('no digits here'))?.profile?.args, ['--acp']);
});

test('parseVersion', () => {
  assert.deepEqual(parseVersion('0.49.2\n'), { major: 0, minor: 49, text: '0.49.2' });
  assert.deepEqual(parseVersion('v0.50.0-nightly.20260101'), { major: 0, minor: 50, text: '0.50.0-nightly.20260101' });
  assert.equal(parseVersion('1.2'), undefined);
});

test('the PATH walk: first match wins, relative and empty entries are skipped, no PATH finds nothing', async () => {
  const files = ['/opt/a/tool', '/opt/b/tool', 'rel/tool'];
  assert.equal(await findOnPath('tool', fake(files, { path: 'rel::/opt/b:/opt/a' }).environment), '/opt/b/tool');
  assert.equal(await findOnPath('tool', fake(files, { path: '/opt/none' }).environment), undefined);
  assert.equal(await findOnPath('tool', fake(files, { env: {} }).environment), undefined);
});

test('on Windows: Path in any case, PATHEXT extensions only (not the extension-less shell script), quoted entries', async () => {
  const files = ['C:\\npm\\gemini', 'C:\\npm\\gemini.cmd', 'C:\\Program Files\\nodejs\\npx.cmd'];
  const env = { Path: 'C:\\Windows;"C:\\Program Files\\nodejs";C:\\npm', PATHEXT: '.EXE;.CMD' };
  const f = fake(files, { platform: 'win32', env });
  assert.equal(await findOnPath('gemini', f.environment), 'C:\\npm\\gemini.cmd');
  assert.equal(await findOnPath('npx', f.environment), 'C:\\Program Files\\nodejs\\npx.cmd');
  const presets = await byLabel(f);
  assert.equal(presets.get('Codex')?.profile?.command, 'C:\\Program Files\\nodejs\\npx.cmd');
});

test('the Node environment: an executable file is found, a non-executable file and a directory are not', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-presets-'));
  try {
    const bin = path.join(dir, 'bin');
    const other = path.join(dir, 'other');
    fs.mkdirSync(bin);
    fs.mkdirSync(other);
    fs.mkdirSync(path.join(other, 'codex-acp'));
    fs.writeFileSync(path.join(other, 'claude-agent-acp'), '#!/bin/sh\n', { mode: 0o644 });
    fs.writeFileSync(path.join(bin, 'claude-agent-acp'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'gemini'), '#!/bin/sh\necho 0.48.1\n', { mode: 0o755 });
    const environment = nodePresetEnvironment({ PATH: `${other}${path.delimiter}${bin}` });
    assert.equal(await findOnPath('claude-agent-acp', environment), path.join(bin, 'claude-agent-acp'));
    assert.equal(await findOnPath('codex-acp', environment), undefined);
    if (process.platform !== 'win32') {
      // The real `gemini --version` is run (a script here) and its answer picks the flag.
      const gemini = (await acpPresets(environment)).find((p) => p.label === 'Gemini CLI');
      assert.deepEqual(gemini?.profile, { name: 'Gemini CLI', protocol: 'acp', command: path.join(bin, 'gemini'), args: ['--experimental-acp'], startMode: 'default' });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

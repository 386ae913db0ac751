/**
 * The ACP agents a user picks in *Add Connection*: Claude Code and Codex through their ACP adapters (the
 * `@agentclientprotocol` packages), Gemini CLI through its own ACP mode. Each preset starts sessions in the agent's
 * mode that asks before edits (`startMode`): today's Claude Code starts in `auto` and Codex in `agent` (Auto review),
 * both of which apply edits without asking. Each preset is found on PATH, else run through `npx -y <package>@<version>` (downloaded
 * on first use) when npx is on PATH, else reported as missing with the install command. The version is pinned
 * (`ACP_PRESET_VERSIONS`): an unpinned `npx -y` would run whatever the registry serves today, a release the project
 * never tested, fetched anew whenever npx's cache expires. The search is a pure PATH walk over
 * an injectable environment (tests give it fake files); the one process it runs is `gemini --version`, whose answer
 * picks the flag (`--experimental-acp` before 0.50, `--acp` since). No `vscode`, no model: the UI shows the result.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** A connection profile an ACP preset fills in (`protocol` is the literal the protocol list gains for ACP). */
export interface AcpPresetProfile {
  readonly name: string;
  readonly protocol: 'acp';
  /** The executable: the absolute path found on PATH (npx's, when run through npx). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The mode new sessions start in: the agent's mode that asks before edits. */
  readonly startMode: string;
}

/** One entry of the *Add Connection* picker. */
export interface AcpPreset {
  /** The picker's label, e.g. "Claude Code". */
  readonly label: string;
  /** How it would run (the path found, or that npx downloads it), or why it cannot. */
  readonly detail: string;
  /** The pinned version npx runs (`0.23.1 via npx`); absent for an agent found on PATH (the user's install). */
  readonly description?: string;
  /** What to add to `agentSwitchboard.connections`; `undefined` when the agent cannot be run here. */
  readonly profile: AcpPresetProfile | undefined;
  /** Why there is no profile: not found, and how to install it. */
  readonly problem?: string;
}

/** What the search may look at: the environment, the file system and (for Gemini's version) one child process. */
export interface PresetEnvironment {
  /** The process environment (`PATH`, and `PATHEXT` on Windows). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  /** Whether `file` is a regular file this user may execute. */
  isExecutable(file: string): Promise<boolean>;
  /** Runs `command args` and resolves its stdout; rejects on failure or after `timeoutMs`. */
  run(command: string, args: readonly string[], timeoutMs: number): Promise<string>;
}

interface PresetSpec {
  readonly label: string;
  /** The executable a global install puts on PATH. */
  readonly executable: string;
  /** The npm package that provides it (what npx runs, what to install), a key of `ACP_PRESET_VERSIONS`. */
  readonly npmPackage: keyof typeof ACP_PRESET_VERSIONS;
  /** The agent's mode that asks before edits and commands (Codex's `read-only` asks before edits; it runs only
   *  read-only commands without asking, in its sandbox). */
  readonly startMode: string;
  /** The arguments that start the agent in ACP mode. */
  argsFor(environment: PresetEnvironment, executable: string): Promise<{ readonly args: readonly string[]; readonly note?: string }>;
}

/** Gemini CLI renamed `--experimental-acp` to `--acp` in 0.50. */
const GEMINI_ACP_SINCE = { major: 0, minor: 50 };
const VERSION_TIMEOUT_MS = 10_000;

/**
 * The exact release of each preset's package that npx runs: the versions the project tests with. A unit test checks
 * that these equal package.json's devDependencies, so one is not bumped without the other.
 */
export const ACP_PRESET_VERSIONS = {
  '@agentclientprotocol/claude-agent-acp': '0.101.0',
  '@agentclientprotocol/codex-acp': '2.6.0',
  '@google/gemini-cli': '0.61.0',
} as const;

/** `name@version`, what npx and `npm install -g` are given. */
export function pinnedPackage(npmPackage: keyof typeof ACP_PRESET_VERSIONS): string {
  return `${npmPackage}@${ACP_PRESET_VERSIONS[npmPackage]}`;
}

const PRESETS: readonly PresetSpec[] = [
  { label: 'Claude Code', executable: 'claude-agent-acp', npmPackage: '@agentclientprotocol/claude-agent-acp', startMode: 'default', argsFor: async () => ({ args: [] }) },
  { label: 'Codex', executable: 'codex-acp', npmPackage: '@agentclientprotocol/codex-acp', startMode: 'read-only', argsFor: async () => ({ args: [] }) },
  { label: 'Gemini CLI', executable: 'gemini', npmPackage: '@google/gemini-cli', startMode: 'default', argsFor: geminiArgs },
];

/** The three presets, each with a profile to add or the reason there is none. */
export async function acpPresets(environment: PresetEnvironment = nodePresetEnvironment()): Promise<readonly AcpPreset[]> {
  const npx = await findOnPath('npx', environment);
  return Promise.all(PRESETS.map((spec) => presetOf(spec, environment, npx)));
}

async function presetOf(spec: PresetSpec, environment: PresetEnvironment, npx: string | undefined): Promise<AcpPreset> {
  const found = await findOnPath(spec.executable, environment);
  if (found) {
    const { args, note } = await spec.argsFor(environment, found);
    return {
      label: spec.label,
      detail: [[found, ...args].join(' '), note].filter(Boolean).join(' — '),
      profile: { name: spec.label, protocol: 'acp', command: found, args, startMode: spec.startMode },
    };
  }
  if (npx) {
    // The pinned Gemini CLI is newer than 0.50: its flag is `--acp`.
    const pinned = pinnedPackage(spec.npmPackage);
    const args = ['-y', pinned, ...(spec.executable === 'gemini' ? ['--acp'] : [])];
    return {
      label: spec.label,
      description: `${ACP_PRESET_VERSIONS[spec.npmPackage]} via npx`,
      detail: `npx ${args.join(' ')} — ${spec.executable} is not on PATH; npx downloads ${spec.npmPackage} version ${ACP_PRESET_VERSIONS[spec.npmPackage]} on first use`,
      profile: { name: spec.label, protocol: 'acp', command: npx, args, startMode: spec.startMode },
    };
  }
  const problem = `${spec.label} not found: install with \`npm install -g ${pinnedPackage(spec.npmPackage)}\` (needs Node.js), so that \`${spec.executable}\` is on PATH.`;
  return { label: spec.label, detail: problem, profile: undefined, problem };
}

/** `--acp`, or `--experimental-acp` for a Gemini CLI older than 0.50 (read from `gemini --version`). */
async function geminiArgs(environment: PresetEnvironment, executable: string): Promise<{ readonly args: readonly string[]; readonly note?: string }> {
  const output = await environment.run(executable, ['--version'], VERSION_TIMEOUT_MS).catch(() => undefined);
  const version = output === undefined ? undefined : parseVersion(output);
  if (!version) {
    return { args: ['--acp'], note: 'its version could not be read; assuming 0.50 or later' };
  }
  const older = version.major < GEMINI_ACP_SINCE.major || (version.major === GEMINI_ACP_SINCE.major && version.minor < GEMINI_ACP_SINCE.minor);
  return { args: [older ? '--experimental-acp' : '--acp'], note: `version ${version.text}` };
}

/** The first `major.minor.patch` in `text` (e.g. `0.49.2`, `gemini 0.50.0-preview.1`). */
export function parseVersion(text: string): { readonly major: number; readonly minor: number; readonly text: string } | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)\S*/.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]), text: m[0] } : undefined;
}

/**
 * The first executable named `name` in the environment's PATH, as an absolute path (on Windows `name` with each of
 * PATHEXT's extensions, as the shell would). Relative PATH entries are skipped: they depend on a working directory
 * the agent would not share.
 */
export async function findOnPath(name: string, environment: PresetEnvironment): Promise<string | undefined> {
  const windows = environment.platform === 'win32';
  const pathApi = windows ? path.win32 : path.posix;
  const value = envValue(environment, 'PATH');
  if (!value) {
    return undefined;
  }
  // On Windows only PATHEXT's names run: npm also installs an extension-less shell script there, for Git Bash.
  const extensions = windows ? (envValue(environment, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  for (const rawDir of value.split(windows ? ';' : ':')) {
    const dir = windows ? rawDir.replace(/^"(.*)"$/, '$1') : rawDir;
    if (!dir || !pathApi.isAbsolute(dir)) {
      continue;
    }
    for (const extension of extensions) {
      const candidate = pathApi.join(dir, name + extension.toLowerCase());
      if (await environment.isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** Environment variable names are case-insensitive on Windows (`Path`). */
function envValue(environment: PresetEnvironment, name: string): string | undefined {
  if (environment.platform !== 'win32') {
    return environment.env[name];
  }
  const key = Object.keys(environment.env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : environment.env[key];
}

/** This process's environment, file system and child processes. */
export function nodePresetEnvironment(env: NodeJS.ProcessEnv = process.env): PresetEnvironment {
  const platform = process.platform;
  return {
    env,
    platform,
    isExecutable: async (file) => {
      try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) {
          return false;
        }
        await fs.access(file, platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    run: (command, args, timeoutMs) =>
      new Promise((resolve, reject) => {
        // A Windows `.cmd` shim (what npm installs) runs only through the shell.
        const shell = platform === 'win32' && /\.(cmd|bat)$/i.test(command);
        execFile(command, [...args], { timeout: timeoutMs, windowsHide: true, shell, env }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      }),
  };
}

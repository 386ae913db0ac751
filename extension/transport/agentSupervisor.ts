/**
 * A tiny supervisor between the extension host and an agent process, so the agent dies with the host however the
 * host ends: a window closed, a crash, SIGKILL. A child outlives its parent on POSIX (it is re-parented to init), and
 * nothing in the host runs when it is killed; so the host spawns this script — `process.execPath` (Electron in desktop
 * VS Code, hence ELECTRON_RUN_AS_NODE) with `-e`, so it works bundled and under tsx — with one extra pipe (fd 3) that
 * the host never writes. The kernel closes the host's end when the host dies, by any means: the supervisor reads EOF,
 * sends SIGTERM to its process group (the agent and everything it started), SIGKILL after a grace period, and exits.
 *
 * The supervisor leads a process group of its own (spawned detached) and starts the agent in it with inherited stdio
 * (the host's pipes go straight to the agent: nothing is copied). So the host's `stop` still signals one group; the
 * supervisor ignores SIGTERM (it leaves when the agent has, with the agent's exit code or signal) and only SIGKILL
 * ends it early. A failed spawn (ENOENT …) is reported on fd 3 as `{"spawnError":code}`, since the host no longer
 * sees the agent's spawn itself.
 */

/** What the script is given, as JSON in `argv[1]`. */
export interface SupervisorConfig {
  readonly command: string;
  readonly args: readonly string[];
  /** The agent's ELECTRON_RUN_AS_NODE (`null`: remove it; the supervisor runs with it set). */
  readonly electronRunAsNode: string | null;
  /** SIGTERM → SIGKILL grace after the host is gone. */
  readonly graceMs: number;
}

/** The supervisor, plain CommonJS for `node -e` (no imports from this bundle: it runs in its own process). */
export const SUPERVISOR_SCRIPT = `'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const cfg = JSON.parse(process.argv[1]);
const env = Object.assign({}, process.env);
if (cfg.electronRunAsNode === null) delete env.ELECTRON_RUN_AS_NODE; else env.ELECTRON_RUN_AS_NODE = cfg.electronRunAsNode;
const ignore = () => {};
process.on('SIGTERM', ignore);
process.on('SIGHUP', ignore);
process.on('SIGINT', ignore);
const report = (m) => { try { fs.writeSync(3, JSON.stringify(m) + '\\n'); } catch {} };
const group = (signal) => { try { process.kill(-process.pid, signal); } catch {} };
let hostGone = false;
let child;
try {
  child = spawn(cfg.command, cfg.args, { stdio: 'inherit', env });
} catch (e) {
  report({ spawnError: e.code || String(e.message) });
  process.exit(127);
}
child.on('error', (e) => {
  if (child.pid === undefined) { report({ spawnError: e.code || String(e.message) }); process.exit(127); }
});
child.on('exit', (code, signal) => {
  if (hostGone) group('SIGKILL');
  if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
  process.exit(code === null ? 1 : code);
});
const host = new net.Socket({ fd: 3, readable: true, writable: false });
host.on('data', ignore);
const gone = () => {
  if (hostGone) return;
  hostGone = true;
  group('SIGTERM');
  setTimeout(() => group('SIGKILL'), cfg.graceMs);
};
host.on('end', gone);
host.on('close', gone);
host.on('error', gone);
`;

/** The supervisor's command line and environment for an agent spawned with `env`. */
export function supervisorLaunch(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  graceMs: number,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): { readonly command: string; readonly args: readonly string[]; readonly env: Record<string, string | undefined> } {
  // The host's own ELECTRON_RUN_AS_NODE (VS Code's extension host has it) would make an Electron app the agent runs
  // behave as plain Node: the agent keeps it only when it was given a value of its own.
  const given = env.ELECTRON_RUN_AS_NODE;
  const electronRunAsNode = given !== undefined && given !== hostEnv.ELECTRON_RUN_AS_NODE ? given : null;
  const config: SupervisorConfig = { command, args, electronRunAsNode, graceMs };
  return { command: process.execPath, args: ['-e', SUPERVISOR_SCRIPT, JSON.stringify(config)], env: { ...env, ELECTRON_RUN_AS_NODE: '1' } };
}

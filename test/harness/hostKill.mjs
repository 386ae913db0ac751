// The host-kill launch of the integration tier (issue 22 §4): a window whose only suite ("Host kill",
// test/integration/hostKill.test.ts) starts an ACP agent and writes the extension host's pid and the agent group's
// pids to a state file; this runner then SIGKILLs that extension host — the one way of ending that runs nothing of
// ours — and passes when every one of those processes is gone. The window is started here, not through runTests,
// because its extension host never reports back: the runner ends it (and code-server) itself. Prints the
// `N passed, N failed` line of its one check.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Alive: in /proc and not a zombie (a zombie holds no resources, only a pid until it is reaped). */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the launch; resolves true when the check passed. `env`: the runner's test environment for the window. */
export async function runHostKill({ root, userData, workspace, env }) {
  const stateFile = join(userData, 'host-kill.json');
  const logFile = join(root, 'test-results', 'host-kill.log');
  const log = openSync(logFile, 'w');
  const shim = spawn(
    process.execPath,
    [join(root, 'test/harness/codeShim.cjs'), `--extensionDevelopmentPath=${root}`, `--extensionTestsPath=${join(root, 'out/test/index')}`, `--user-data-dir=${join(userData, 'user-data')}`, `--extensions-dir=${join(userData, 'extensions')}`, workspace],
    { env: { ...process.env, ...env, SWITCHBOARD_INTEGRATION_GREP: 'Host kill', SWITCHBOARD_HOST_KILL_STATE: stateFile, SHIM_TIMEOUT_MS: '240000' }, stdio: ['ignore', log, log], detached: true },
  );
  closeSync(log);
  let ok = false;
  try {
    const state = await until('the host-kill suite to start its agent', () => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')), 180000);
    if (!alive(state.hostPid) || !state.pids.every(alive)) throw new Error(`not all running before the kill: host ${state.hostPid}, agent group ${state.pids.join(', ')}`);
    process.kill(state.hostPid, 'SIGKILL');
    await until('the extension host gone', () => !alive(state.hostPid), 10000);
    await until(`the agent group gone (left: ${state.pids.filter(alive).join(', ')})`, () => state.pids.every((p) => !alive(p)), 15000).catch((error) => {
      throw new Error(`${error.message}; still running: ${state.pids.filter(alive).join(', ')}`);
    });
    console.log(`host kill: SIGKILL of the extension host ${state.hostPid} left none of the agent's ${state.pids.length} processes`);
    ok = true;
  } catch (error) {
    console.error(`host kill failed: ${error instanceof Error ? error.message : String(error)} (see ${logFile})`);
  } finally {
    // Whatever the verdict, nothing of the check is left running: the agent's group (if it survived) and the window.
    const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : { pids: [] };
    for (const pid of state.pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    try {
      process.kill(-shim.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
  return ok;
}

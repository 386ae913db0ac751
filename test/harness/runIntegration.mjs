// The integration tier: a real VS Code (code-server 1.139 on Node 24, installed by setup.sh outside the clone)
// driven by @vscode/test-electron's runTests through codeShim.cjs. Builds the extension and the test bundles,
// prepares a git workspace from test/fixtures/workspace, and runs the mocha suites in the extension host.
import { runTests } from '@vscode/test-electron';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestBundles } from './buildTestBundles.mjs';
import { prepareWorkspace } from './workspace.mjs';
import { freePort } from './freePort.mjs';
import { prepareHostileRepository } from './hostileWorkspace.mjs';
import { runHostKill } from './hostKill.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

function harnessEnv() {
  const setup = spawnSync('bash', [join(root, 'test/harness/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) {
    throw new Error(`test/harness/setup.sh failed (${setup.status})`);
  }
  const env = {};
  for (const line of setup.stdout.split('\n')) {
    const m = /^(CODE_SERVER_NODE|CODE_SERVER_ENTRY)=(.+)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  if (!env.CODE_SERVER_NODE || !env.CODE_SERVER_ENTRY) {
    throw new Error('setup.sh did not report CODE_SERVER_NODE / CODE_SERVER_ENTRY');
  }
  return env;
}

/** Counts every `N passed, N failed` line the suites print (runTests streams their output through our stdout). */
function countResults() {
  const totals = { passed: 0, failed: 0, launches: 0 };
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = (chunk, ...rest) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^(\d+) passed, (\d+) failed$/.exec(line.trim());
      if (m) {
        totals.passed += Number(m[1]);
        totals.failed += Number(m[2]);
        totals.launches += 1;
      }
    }
    return write(chunk, ...rest);
  };
  return totals;
}


/** Starts the reference AgencyProxy outside VS Code, so its runs outlive a window (the reload suites). */
function startReloadDaemon(dir, workspace) {
  const socket = join(dir, 'run', 'runtime.sock');
  const stateDir = join(dir, 'state');
  const child = spawn(process.execPath, [join(root, 'out/fixtures/agencyProxy.js'), '--socket', socket, '--record-dir', stateDir, '--workspace', workspace], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, socket, stateDir };
}

async function main() {
  const env = harnessEnv();
  execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  await buildTestBundles();
  const results = join(root, 'test-results');
  mkdirSync(results, { recursive: true });
  const workspace = prepareWorkspace();
  // A fresh profile per run: stored transcripts and settings of an earlier run must not leak into this one.
  const profile = mkdtempSync(join(tmpdir(), 'switchboard-profile-'));
  const reloadProfile = mkdtempSync(join(tmpdir(), 'switchboard-reload-'));
  const windowReloadProfile = mkdtempSync(join(tmpdir(), 'switchboard-window-reload-'));
  const hostileProfile = mkdtempSync(join(tmpdir(), 'switchboard-hostile-'));
  const untrustedProfile = mkdtempSync(join(tmpdir(), 'switchboard-untrusted-'));
  const traceFile = join(results, 'integration-trace.jsonl');
  rmSync(traceFile, { force: true });
  Object.assign(process.env, env);
  const totals = countResults();
  const only = process.env.SWITCHBOARD_INTEGRATION_GREP;
  const launch = async (userData, grep, invert, extraEnv = {}, folder = workspace) => {
    try {
      await runTests({
        vscodeExecutablePath: join(root, 'test/harness/codeShim.cjs'),
        extensionDevelopmentPath: root,
        extensionTestsPath: join(root, 'out/test/index'),
        launchArgs: [`--user-data-dir=${join(userData, 'user-data')}`, `--extensions-dir=${join(userData, 'extensions')}`, folder],
        extensionTestsEnv: {
          SHIM_SCREENSHOTS: '1',
          SWITCHBOARD_TRACE_FILE: traceFile,
          SWITCHBOARD_TEST_RESULTS: results,
          SWITCHBOARD_TEST_WORKSPACE: workspace,
          SWITCHBOARD_FIXTURES: join(root, 'out/fixtures'),
          SWITCHBOARD_INTEGRATION_GREP: grep,
          SWITCHBOARD_INTEGRATION_INVERT: invert ? '1' : '',
          ...extraEnv,
        },
      });
      return true;
    } catch (error) {
      console.error(`integration launch failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
  let ok = true;
  let daemon;
  let hostile;
  try {
    // 1. Every suite except the reload pair and the hostile repository, in one window.
    if (!only || !/^\/?(Reload|Window reload|Hostile|Untrusted|Host kill)/.test(only)) {
      ok = (await launch(profile, only || '/Reload phase|Hostile repository|Untrusted repository|Host kill/', !only)) && ok;
    }
    // 2. A window reload with three live runs: phase 1 starts them and the window goes away; phase 2 is a new
    //    window on the same profile that must re-attach every run and end with transcripts equal to the journal.
    const phases = !only || /Reload/.test(only);
    const windowReload = !only || /Window reload/.test(only);
    if (phases || windowReload) {
      daemon = startReloadDaemon(reloadProfile, workspace);
    }
    if (phases) {
      // The ACP reference agent of acpReload.test.ts keeps its sessions here, so phase 2's agent can session/load them.
      // One browser profile and port for both phases, so the workbench state (editors, workspaceState) survives.
      process.env.SHIM_PORT = String(await freePort());
      process.env.SHIM_BROWSER_PROFILE = join(reloadProfile, 'browser');
      const reloadEnv = { SWITCHBOARD_RELOAD_SOCKET: daemon.socket, SWITCHBOARD_RELOAD_STATE: daemon.stateDir, SWITCHBOARD_RELOAD_ACP_STATE: join(reloadProfile, 'acp') };
      ok = (await launch(reloadProfile, 'Reload phase 1', false, reloadEnv)) && ok;
      ok = (await launch(reloadProfile, 'Reload phase 2', false, reloadEnv)) && ok;
      // The next launch gets a browser profile of its own again.
      delete process.env.SHIM_PORT;
      delete process.env.SHIM_BROWSER_PROFILE;
    }
    // 3. A real window reload (workbench.action.reloadWindow) in one launch: what VS Code itself restores (editor
    //    tabs, workspace state) lives in the browser page, which a second launch does not share. The reload starts
    //    the suite again in the new window; its state directory says which half runs.
    if (windowReload) {
      const windowReloadEnv = { SWITCHBOARD_RELOAD_SOCKET: daemon.socket, SWITCHBOARD_WINDOW_RELOAD_STATE: join(windowReloadProfile, 'state') };
      mkdirSync(windowReloadEnv.SWITCHBOARD_WINDOW_RELOAD_STATE, { recursive: true });
      ok = (await launch(windowReloadProfile, 'Window reload', false, windowReloadEnv)) && ok;
    }
    // 4. A repository whose settings try to run programs, write a file, loosen approvals and reach another machine:
    //    a window of its own on that workspace, without the runner's trace file (the repository's must not be used).
    if (!only || /Hostile/.test(only)) {
      hostile = await prepareHostileRepository(root, join(hostileProfile, 'user-data'));
      ok = (await launch(hostileProfile, 'Hostile repository', false, { ...hostile.env, SWITCHBOARD_TRACE_FILE: '' }, hostile.workspace)) && ok;
      await hostile.close();
      rmSync(hostile.workspace, { recursive: true, force: true });
      rmSync(hostile.dir, { recursive: true, force: true });
      hostile = undefined;
    }
    // 5. The same repository opened untrusted (workspace trust on, restricted mode): its profiles are not even
    //    offered for consent.
    if (!only || /Untrusted/.test(only)) {
      hostile = await prepareHostileRepository(root, join(untrustedProfile, 'user-data'));
      process.env.SHIM_WORKSPACE_TRUST = '1';
      ok = (await launch(untrustedProfile, 'Untrusted repository', false, { ...hostile.env, SWITCHBOARD_TRACE_FILE: '' }, hostile.workspace)) && ok;
      delete process.env.SHIM_WORKSPACE_TRUST;
    }
    // 6. SIGKILL of the extension host leaves no agent process (test/harness/hostKill.mjs).
    if (!only || /Host kill/.test(only)) {
      const hostKillProfile = mkdtempSync(join(tmpdir(), 'switchboard-host-kill-'));
      try {
        ok = (await runHostKill({ root, userData: hostKillProfile, workspace, env: { SWITCHBOARD_TEST_RESULTS: results, SWITCHBOARD_TEST_WORKSPACE: workspace, SWITCHBOARD_FIXTURES: join(root, 'out/fixtures'), SWITCHBOARD_TRACE_FILE: traceFile } })) && ok;
      } finally {
        rmSync(hostKillProfile, { recursive: true, force: true });
      }
    }
  } finally {
    await hostile?.close();
    if (hostile) {
      rmSync(hostile.workspace, { recursive: true, force: true });
      rmSync(hostile.dir, { recursive: true, force: true });
    }
    rmSync(hostileProfile, { recursive: true, force: true });
    rmSync(untrustedProfile, { recursive: true, force: true });
    daemon?.child.kill('SIGTERM');
    rmSync(workspace, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
    rmSync(reloadProfile, { recursive: true, force: true });
    rmSync(windowReloadProfile, { recursive: true, force: true });
  }
  const failed = totals.failed + (ok || totals.failed > 0 ? 0 : 1);
  console.log(`\nintegration launches: ${totals.launches}`);
  console.log(`${totals.passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

await main();

// The integration tier: a real VS Code (code-server 1.139 on Node 24, installed by setup.sh outside the clone)
// driven by @vscode/test-electron's runTests through codeShim.cjs. Builds the extension and the test bundles,
// prepares a git workspace from test/fixtures/workspace, and runs the mocha suites in the extension host.
import { runTests } from '@vscode/test-electron';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestBundles } from './buildTestBundles.mjs';
import { prepareWorkspace } from './workspace.mjs';
import { freePort } from './freePort.mjs';
import { prepareHostileRepository } from './hostileWorkspace.mjs';
import { runHostKill } from './hostKill.mjs';
import { installPackage, testRunnerExtension } from './installedPackage.mjs';
import { countResults, ownLaunchProblems, selects } from './launchResults.mjs';

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

/**
 * The launches that exist for suites of their own (a reload, another workspace, a killed host), and the top-level
 * suites each must run. The first launch excludes all of these suites (index.ts: SWITCHBOARD_INTEGRATION_EXCLUDE), so
 * a grep that selects one runs it in its own launch or not at all, never as a skip; and each of these launches must
 * report every suite it names as run and passed, none skipped, or the tier fails.
 */
const OWN_LAUNCHES = {
  'Reload phase 1': ['Reload phase 1', 'Reload phase 1: ACP session'],
  'Reload phase 2': ['Reload phase 2', 'Reload phase 2: ACP session'],
  'Window reload': ['Window reload: transcript tabs'],
  'Review marks': ['Review marks'],
  'Run history reload': ['Run history reload: a removed run'],
  'Hostile repository': ['Hostile repository'],
  'Untrusted repository': ['Untrusted repository'],
  'Two windows': ['Two windows: window A', 'Two windows: window B'],
  'Installed package': ['Installed package'],
};
/** The launches with two windows (codeShim.cjs: SHIM_SECOND_WINDOW), each of which must report. */
const WINDOWS = { 'Two windows': ['A', 'B'] };
/** Suites that run only in a launch of their own (the host-kill check reports no suites: hostKill.mjs). */
const EXCLUDED = /^(Reload phase|Window reload|Review marks|Run history reload|Hostile repository|Untrusted repository|Two windows|Host kill|Installed package)/;

/**
 * Starts the reference AgencyProxy outside VS Code, so its runs outlive a window (the reload and two-window suites);
 * its record (`stateDir`) says which client did what (test/fixtures/agencyProxy/clientRecord.ts).
 */
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
  const only = process.env.SWITCHBOARD_INTEGRATION_GREP;
  // Before the development build below: packaging builds dist/ for production, which the other launches must not use.
  const installedProfile = mkdtempSync(join(tmpdir(), 'switchboard-installed-'));
  const installedExtensions = selects(only, 'Installed package') ? installPackage(env, installedProfile) : undefined;
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
  /** The launches started, by name (the host-kill check included). */
  const started = [];
  // The two reload phases go together: phase 2 continues what phase 1 started.
  const together = (name) => (name.startsWith('Reload phase') ? ['Reload phase 1', 'Reload phase 2'] : [name]);
  const wanted = (name) => together(name).some((n) => OWN_LAUNCHES[n].some((suite) => selects(only, suite)));
  const launch = async (name, userData, grep, exclude, extraEnv = {}, folder = workspace, development = root) => {
    totals.current = name;
    started.push(name);
    try {
      await runTests({
        vscodeExecutablePath: join(root, 'test/harness/codeShim.cjs'),
        extensionDevelopmentPath: development,
        extensionTestsPath: join(root, 'out/test/index'),
        launchArgs: [`--user-data-dir=${join(userData, 'user-data')}`, `--extensions-dir=${join(userData, 'extensions')}`, folder],
        extensionTestsEnv: {
          SHIM_SCREENSHOTS: '1',
          SWITCHBOARD_TRACE_FILE: traceFile,
          SWITCHBOARD_TEST_RESULTS: results,
          SWITCHBOARD_TEST_WORKSPACE: workspace,
          SWITCHBOARD_FIXTURES: join(root, 'out/fixtures'),
          SWITCHBOARD_INTEGRATION_GREP: grep,
          SWITCHBOARD_INTEGRATION_EXCLUDE: exclude,
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
  /** The two-window launch's daemon, folders and profile (removed at the end). */
  let twoWindows;
  try {
    // 1. Every suite but those with launches of their own, in one window (those are excluded, not skipped).
    // A grep that names only suites with launches of their own needs no first window.
    const alternatives = /^\/(.+)\/$/.exec(only ?? '')?.[1]?.split('|') ?? [only ?? ''];
    if (!only || !alternatives.every((alt) => /^\^?\(?(Reload phase|Window reload|Review marks|Run history reload|Hostile repository|Untrusted repository|Two windows|Host kill|Installed package)/.test(alt))) {
      ok = (await launch('first', profile, only ?? '', EXCLUDED.source)) && ok;
    }
    // 2. A window reload with three live runs: phase 1 starts them and the window goes away; phase 2 is a new
    //    window on the same profile that must re-attach every run and end with transcripts equal to the journal.
    const phases = wanted('Reload phase 1');
    const windowReload = wanted('Window reload');
    const reviewMarks = wanted('Review marks');
    const historyReload = wanted('Run history reload');
    if (phases || windowReload || reviewMarks || historyReload) {
      daemon = startReloadDaemon(reloadProfile, workspace);
    }
    if (phases) {
      // The ACP reference agent of acpReload.test.ts keeps its sessions here, so phase 2's agent can session/load them.
      // One browser profile and port for both phases, so the workbench state (editors, workspaceState) survives.
      process.env.SHIM_PORT = String(await freePort());
      process.env.SHIM_BROWSER_PROFILE = join(reloadProfile, 'browser');
      const reloadEnv = { SWITCHBOARD_RELOAD_SOCKET: daemon.socket, SWITCHBOARD_RELOAD_STATE: daemon.stateDir, SWITCHBOARD_RELOAD_ACP_STATE: join(reloadProfile, 'acp') };
      ok = (await launch('Reload phase 1', reloadProfile, 'Reload phase 1', '', reloadEnv)) && ok;
      ok = (await launch('Reload phase 2', reloadProfile, 'Reload phase 2', '', reloadEnv)) && ok;
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
      ok = (await launch('Window reload', windowReloadProfile, 'Window reload', '', windowReloadEnv)) && ok;
    }
    // 3a. Review marks through a real window reload (test/integration/reviewMarks.test.ts), the same way: a launch of
    //     its own, since its reload would start the other reload suite's second half again.
    if (reviewMarks) {
      const reviewProfile = mkdtempSync(join(tmpdir(), 'switchboard-review-marks-'));
      const reviewEnv = { SWITCHBOARD_RELOAD_SOCKET: daemon.socket, SWITCHBOARD_REVIEW_STATE: join(reviewProfile, 'state') };
      mkdirSync(reviewEnv.SWITCHBOARD_REVIEW_STATE, { recursive: true });
      try {
        ok = (await launch('Review marks', reviewProfile, 'Review marks', '', reviewEnv)) && ok;
      } finally {
        rmSync(reviewProfile, { recursive: true, force: true });
      }
    }
    // 3b. A removed run through a real window reload (test/integration/runHistoryReload.test.ts): the daemon outlives
    //     the window and still lists the run. A launch of its own, as 3a, for the same reason.
    if (historyReload) {
      const historyProfile = mkdtempSync(join(tmpdir(), 'switchboard-history-reload-'));
      const historyEnv = { SWITCHBOARD_RELOAD_SOCKET: daemon.socket, SWITCHBOARD_HISTORY_RELOAD_STATE: join(historyProfile, 'state') };
      mkdirSync(historyEnv.SWITCHBOARD_HISTORY_RELOAD_STATE, { recursive: true });
      try {
        ok = (await launch('Run history reload', historyProfile, 'Run history reload', '', historyEnv)) && ok;
      } finally {
        rmSync(historyProfile, { recursive: true, force: true });
      }
    }
    // 3c. Two windows (two extension hosts) on one profile and one daemon: window A starts a run, window B watches
    //     it, both reload while it streams (test/integration/twoWindows.test.ts). Each window has a folder of its own,
    //     as desktop VS Code never opens one folder twice; they coordinate through files in a shared directory.
    if (wanted('Two windows')) {
      twoWindows = { dir: mkdtempSync(join(tmpdir(), 'switchboard-two-windows-')), folders: [prepareWorkspace(), prepareWorkspace()] };
      twoWindows.daemon = startReloadDaemon(twoWindows.dir, twoWindows.folders[0]);
      const coordination = join(twoWindows.dir, 'coordination');
      mkdirSync(coordination, { recursive: true });
      // The connection is in the user settings before either window opens, as on a machine where both windows are
      // opened on a profile that already has it (a settings change made in one window is not seen by the other's
      // extension host under code-server: tried).
      const userSettings = join(twoWindows.dir, 'user-data', 'User');
      mkdirSync(userSettings, { recursive: true });
      const connection = { name: 'Two windows daemon', protocol: 'agency-proxy', socketPath: twoWindows.daemon.socket };
      writeFileSync(join(userSettings, 'settings.json'), JSON.stringify({ 'agentSwitchboard.connections': [connection] }, null, 2));
      process.env.SHIM_SECOND_WINDOW = twoWindows.folders[1];
      // Five window reloads and a run of thousands of events: more than the default ten minutes on a slow machine.
      process.env.SHIM_TIMEOUT_MS = '1200000';
      const twoWindowsEnv = {
        SWITCHBOARD_TWO_WINDOWS_SOCKET: twoWindows.daemon.socket,
        SWITCHBOARD_TWO_WINDOWS_RECORD: twoWindows.daemon.stateDir,
        SWITCHBOARD_TWO_WINDOWS_DIR: coordination,
        SWITCHBOARD_TWO_WINDOWS_A: twoWindows.folders[0],
        SWITCHBOARD_TWO_WINDOWS_B: twoWindows.folders[1],
      };
      ok = (await launch('Two windows', twoWindows.dir, 'Two windows', '', twoWindowsEnv, twoWindows.folders[0])) && ok;
      delete process.env.SHIM_SECOND_WINDOW;
      delete process.env.SHIM_TIMEOUT_MS;
    }
    // 4. A repository whose settings try to run programs, write a file, loosen approvals and reach another machine:
    //    a window of its own on that workspace, without the runner's trace file (the repository's must not be used).
    if (wanted('Hostile repository')) {
      hostile = await prepareHostileRepository(root, join(hostileProfile, 'user-data'));
      ok = (await launch('Hostile repository', hostileProfile, 'Hostile repository', '', { ...hostile.env, SWITCHBOARD_TRACE_FILE: '' }, hostile.workspace)) && ok;
      await hostile.close();
      rmSync(hostile.workspace, { recursive: true, force: true });
      rmSync(hostile.dir, { recursive: true, force: true });
      hostile = undefined;
    }
    // 5. The same repository opened untrusted (workspace trust on, restricted mode): its profiles are not even
    //    offered for consent.
    if (wanted('Untrusted repository')) {
      hostile = await prepareHostileRepository(root, join(untrustedProfile, 'user-data'));
      process.env.SHIM_WORKSPACE_TRUST = '1';
      ok = (await launch('Untrusted repository', untrustedProfile, 'Untrusted repository', '', { ...hostile.env, SWITCHBOARD_TRACE_FILE: '' }, hostile.workspace)) && ok;
      delete process.env.SHIM_WORKSPACE_TRUST;
    }
    // 6. The packaged .vsix, installed with --install-extension, in a window that does not develop it: what ships
    //    (a file .vscodeignore leaves out fails here) is what runs.
    if (installedExtensions) {
      const runner = testRunnerExtension(join(installedProfile, 'test-runner'));
      ok = (await launch('Installed package', installedProfile, 'Installed package', '', { SWITCHBOARD_INSTALLED_EXTENSIONS: installedExtensions }, workspace, runner)) && ok;
    }
    // 7. SIGKILL of the extension host leaves no agent process (test/harness/hostKill.mjs).
    if (selects(only, 'Host kill')) {
      started.push('Host kill');
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
    rmSync(installedProfile, { recursive: true, force: true });
    daemon?.child.kill('SIGTERM');
    twoWindows?.daemon?.child.kill('SIGTERM');
    for (const dir of twoWindows ? [twoWindows.dir, ...twoWindows.folders] : []) rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
    rmSync(reloadProfile, { recursive: true, force: true });
    rmSync(windowReloadProfile, { recursive: true, force: true });
  }
  // Each launch that exists for suites the run selected must have run them and passed; a missing one is a failure.
  let ownFailed = 0;
  const own = Object.keys(OWN_LAUNCHES);
  for (const name of own.filter(wanted)) {
    const problems = ownLaunchProblems(totals.results.get(name), OWN_LAUNCHES[name], WINDOWS[name]);
    if (problems.length > 0) {
      ownFailed += 1;
      console.log(`✖ the "${name}" launch did not prove its suites: ${problems.join('; ')}`);
    }
  }
  const ranOwn = own.filter(wanted).length;
  // A grep that selects nothing is no pass.
  const none = totals.passed === 0 && totals.failed === 0 ? 1 : 0;
  if (none) console.log('✖ no integration test ran');
  const failed = totals.failed + ownFailed + none + (ok || totals.failed > 0 || ownFailed > 0 ? 0 : 1);
  // test/run.mjs reads these: a run without a grep must have started every launch, heard from each, and every
  // launch for suites of their own must have proved them.
  console.log(`\nintegration launches: ${started.length} started, ${totals.launches} reported (${started.join(', ')})`);
  console.log(`suite launches: ${ranOwn - ownFailed} proved of ${ranOwn} wanted, ${own.length} in all`);
  console.log(`${totals.passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

await main();

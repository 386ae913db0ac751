// The integration tier: a real VS Code (code-server 1.139 on Node 24, installed by setup.sh outside the clone)
// driven by @vscode/test-electron's runTests through codeShim.cjs. Builds the extension and the test bundles,
// prepares a git workspace from test/fixtures/workspace, and runs the mocha suites in the extension host.
import { runTests } from '@vscode/test-electron';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestBundles } from './buildTestBundles.mjs';
import { prepareWorkspace } from './workspace.mjs';

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

async function main() {
  const env = harnessEnv();
  execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  await buildTestBundles();
  const results = join(root, 'test-results');
  mkdirSync(results, { recursive: true });
  const workspace = prepareWorkspace();
  // A fresh profile per run: stored transcripts and settings of an earlier run must not leak into this one.
  const profile = mkdtempSync(join(tmpdir(), 'switchboard-profile-'));
  const traceFile = join(results, 'integration-trace.jsonl');
  rmSync(traceFile, { force: true });
  Object.assign(process.env, env);
  let code = 0;
  try {
    await runTests({
      vscodeExecutablePath: join(root, 'test/harness/codeShim.cjs'),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(root, 'out/test/index'),
      launchArgs: [`--user-data-dir=${join(profile, 'user-data')}`, `--extensions-dir=${join(profile, 'extensions')}`, workspace],
      extensionTestsEnv: {
        SHIM_SCREENSHOTS: '1',
        SWITCHBOARD_TRACE_FILE: traceFile,
        SWITCHBOARD_TEST_RESULTS: results,
        SWITCHBOARD_TEST_WORKSPACE: workspace,
        SWITCHBOARD_FIXTURES: join(root, 'out/fixtures'),
      },
    });
  } catch (error) {
    console.error(`integration tests failed: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(code);
}

await main();

// Runs the test tiers and prints one closing line `N passed, N failed` summing them (CI reads it).
//   node test/run.mjs all | unit | webview | integration | trace
// `all` first type-checks and lints (a failure there counts as one failed check), then runs every tier even if an
// earlier one failed, so one run shows everything that is wrong.
// `all` also records the protocol trace of the whole suite (issue 13 §4): SWITCHBOARD_TRACE_FILE points every tier
// at a fresh test-results/trace.jsonl (the integration tier writes its own file, appended after it), and a last
// check (`trace`, one check in the totals) verifies it holds every client message kind of every protocol, as the
// client-message tables of our protocol reference (docs/protocols/) list them.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const which = process.argv[2] ?? 'all';
const traceFile = join(root, 'test-results', 'trace.jsonl');
if (which === 'all') {
  mkdirSync(dirname(traceFile), { recursive: true });
  rmSync(traceFile, { force: true });
  process.env.SWITCHBOARD_TRACE_FILE = traceFile;
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out.sort();
}

/** Runs a command, echoing its output, and returns { code, output }. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * What failed, in a few lines per failure, for the end of the run: CI shows only the tail of the output, and the
 * closing counts alone do not say which test to look at. node:test's spec reporter repeats its failures after
 * `✖ failing tests:`; each mocha launch of the integration tier lists its own after `N failing`.
 */
function failureReports(output) {
  const lines = output.split('\n');
  const reports = [];
  for (let i = 0; i < lines.length; i++) {
    const mochaFailing = /^(\[[^\]]+\] )?\s*\d+ failing\s*$/.test(lines[i]);
    if (!mochaFailing && !/^✖ failing tests:/.test(lines[i])) continue;
    const block = [];
    for (let j = i + 1; j < lines.length && block.length < 12; j++) {
      if (/^(\[[^\]]+\] )?integration launch result:|^ℹ |^##### |^=== |^\s*\d+ passed, \d+ failed$/.test(lines[j])) break;
      if (lines[j].trim() !== '') block.push(lines[j].slice(0, 240));
    }
    reports.push(block.join('\n'));
  }
  return reports;
}
const failures = [];

/** node:test's spec reporter ends with `ℹ pass N` / `ℹ fail N`. */
function nodeTestCounts({ code, output }) {
  failures.push(...failureReports(output));
  const pass = Number(/ℹ pass (\d+)/.exec(output)?.[1] ?? 0);
  const fail = Number(/ℹ fail (\d+)/.exec(output)?.[1] ?? 0);
  // A crashed runner that printed no counts still counts as a failure.
  return { passed: pass, failed: fail === 0 && code !== 0 ? 1 : fail };
}

async function nodeTier(dir) {
  if (dir === 'webview') {
    // Headless Debian chromium: installed on first use (apt), like the integration tier's VS Code.
    const setup = await run('bash', [join(root, 'test/harness/setup.sh'), '--system-only']);
    if (setup.code !== 0) return { passed: 0, failed: 1 };
  }
  const files = findTests(join(root, 'test', dir));
  if (files.length === 0) return { passed: 0, failed: 1 };
  return nodeTestCounts(await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files]));
}

async function integrationTier() {
  const started = Date.now();
  const result = await run(process.execPath, ['test/harness/runIntegration.mjs']);
  failures.push(...failureReports(result.output));
  // runIntegration.mjs gives the extension host a fresh trace of its own (its suites read it back and must not see
  // the unit tier's frames); it joins the suite trace here.
  const own = join(root, 'test-results', 'integration-trace.jsonl');
  if (process.env.SWITCHBOARD_TRACE_FILE && existsSync(own) && statSync(own).mtimeMs >= started) {
    appendFileSync(process.env.SWITCHBOARD_TRACE_FILE, readFileSync(own));
  }
  const m = [...result.output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
  if (!m) return { passed: 0, failed: 1 };
  const passed = Number(m[1]);
  const failed = Number(m[2]);
  const incomplete = process.env.SWITCHBOARD_INTEGRATION_GREP ? undefined : incompleteLaunches(result.output);
  if (incomplete) {
    console.log(`✖ integration: ${incomplete}`);
    failures.push(`integration: ${incomplete}`);
    return { passed, failed: failed + 1 };
  }
  return { passed, failed: failed === 0 && result.code !== 0 ? 1 : failed };
}

/** The whole tier (no grep): every launch started and reported, every launch for suites of its own proved them. */
function incompleteLaunches(output) {
  const launches = /^integration launches: (\d+) started, (\d+) reported/m.exec(output);
  const suites = /^suite launches: (\d+) proved of (\d+) wanted, (\d+) in all$/m.exec(output);
  if (!launches || !suites) return 'the runner did not say which launches ran';
  if (launches[1] !== launches[2]) return `${launches[1]} launches started, ${launches[2]} reported`;
  if (!(suites[1] === suites[2] && suites[2] === suites[3])) return `suite launches: ${suites[1]} proved of ${suites[2]} wanted, ${suites[3]} in all`;
  return undefined;
}

/** One check: the trace holds every client message kind of every protocol (prints what is missing). */
async function traceCoverage() {
  const file = process.env.SWITCHBOARD_TRACE_FILE ?? traceFile;
  console.log(`\n=== trace coverage of ${relative(root, file)}`);
  const { code } = await run(process.execPath, ['--import', 'tsx', 'test/unit/trace/checkTraceCoverage.ts', file]);
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

async function staticChecks() {
  let passed = 0;
  let failed = 0;
  for (const [name, args] of [
    ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.json']],
    ['typecheck webview', ['npx', 'tsc', '-p', 'webview/tsconfig.json']],
    ['typecheck webview tests', ['npx', 'tsc', '-p', 'test/tsconfig.webview-tests.json']],
    ['lint', ['npx', 'eslint', '.']],
  ]) {
    console.log(`\n=== ${name}`);
    const { code } = await run(args[0], args.slice(1));
    if (code === 0) passed++;
    else {
      failed++;
      console.log(`✖ ${name} failed`);
      failures.push(`${name} failed (its output is above)`);
    }
  }
  return { passed, failed };
}

const tiers = {
  static: staticChecks,
  unit: () => nodeTier('unit'),
  webview: () => nodeTier('webview'),
  integration: integrationTier,
  trace: traceCoverage,
};
const order = which === 'all' ? ['static', 'unit', 'webview', 'integration', 'trace'] : [which];
let passed = 0;
let failed = 0;
const summary = [];
for (const tier of order) {
  if (!tiers[tier]) {
    console.error(`unknown tier ${tier}`);
    process.exit(2);
  }
  console.log(`\n##### ${tier}`);
  const r = await tiers[tier]();
  summary.push(`${tier}: ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
if (failures.length > 0) {
  console.log(`\n##### what failed (the first lines of each report above)`);
  for (const report of failures.slice(0, 10)) console.log(`${report}\n`);
  if (failures.length > 10) console.log(`… and ${failures.length - 10} more reports above`);
}
console.log(`\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

// Runs test tiers with every core saturated, several times in a row: no test may depend on an idle machine.
//   node test/harness/saturate.mjs [--runs N] [tier …]      (default: 3 runs of unit and integration)
// One busy loop per core (plain Node processes spinning) runs for the whole time; each run is `node test/run.mjs
// <tier>` and the script stops at the first failing run. It prints one line per run and a closing
// `N passed, N failed` over all of them.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
let runs = 3;
const tiers = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') {
    runs = Number(args[++i]);
  } else {
    tiers.push(args[i]);
  }
}
if (tiers.length === 0) {
  tiers.push('unit', 'integration');
}

const burners = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(130));
}
console.log(`saturating ${burners.length} core(s) with busy loops; ${runs} run(s) of: ${tiers.join(', ')}`);

function runTier(tier) {
  return new Promise((resolve) => {
    // Waits are for states; a loaded machine lengthens their timeouts (test/integration/support.ts TIME_SCALE).
    const env = { ...process.env, SWITCHBOARD_TIME_SCALE: process.env.SWITCHBOARD_TIME_SCALE ?? '3' };
    const child = spawn(process.execPath, ['test/run.mjs', tier], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => {
      const m = [...out.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
      resolve({ passed: Number(m?.[1] ?? 0), failed: m ? Number(m[2]) + (code !== 0 && m[2] === '0' ? 1 : 0) : 1 });
    });
  });
}

let passed = 0;
let failed = 0;
const lines = [];
outer: for (let run = 1; run <= runs; run++) {
  for (const tier of tiers) {
    const started = Date.now();
    const r = await runTier(tier);
    passed += r.passed;
    failed += r.failed;
    lines.push(`run ${run} ${tier}: ${r.passed} passed, ${r.failed} failed (${Math.round((Date.now() - started) / 1000)} s, cores saturated)`);
    if (r.failed > 0) {
      break outer;
    }
  }
}
stopBurners();
console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

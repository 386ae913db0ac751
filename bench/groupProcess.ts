/**
 * One benchmark group in its own process: `node --import tsx bench/groupProcess.ts <group id> <repeat>`. Runs the
 * group once to warm up (discarded), then `repeat` times, and writes one line `BENCH_ROWS <json>` with the rows of
 * every repetition (bench/run.ts aggregates them). Anything else the group prints passes through.
 */
import { BENCH_GROUPS } from './benchGroups';
import type { BenchRow } from './benchKit';

async function main(): Promise<number> {
  const [id, repeatArg] = process.argv.slice(2);
  const group = BENCH_GROUPS.find((g) => g.id === id);
  if (!group) {
    console.error(`no benchmark group "${String(id)}"`);
    return 2;
  }
  const repeat = group.repeat ?? Math.max(1, Number(repeatArg ?? 3));
  if (group.warmUp !== false) {
    await group.run();
  }
  const runs: BenchRow[][] = [];
  for (let i = 0; i < repeat; i++) {
    runs.push(await group.run());
  }
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(runs.map((rows) => rows.map((r) => ({ ...r, value: Number.isNaN(r.value) ? null : r.value }))))}\n`);
  return 0;
}

void main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);

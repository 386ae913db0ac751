/**
 * `npm run bench`: runs every benchmark group in a process of its own (bench/groupProcess.ts: a warm-up, then
 * `--repeat` repetitions, default 3), folds each figure to the median repetition with its spread
 * (bench/repetitions.ts), writes bench/results.json and ends with a table. Ratios are measured side by side within
 * each repetition (never compared with numbers from another machine or run); CPU time is used where the work is
 * synchronous, so a busy machine distorts them less. `npm run bench -- ingest` runs the groups whose id starts with
 * `ingest`; `npm run bench -- --repeat 5 changeSet` repeats more.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { BENCH_GROUPS } from './benchGroups';
import type { BenchRow } from './benchKit';
import { fmt, printRow } from './benchKit';
import type { AggregatedRow } from './repetitions';
import { aggregateRepetitions } from './repetitions';

function spreadText(row: AggregatedRow): string {
  return row.spread ? `${fmt(row.spread.min, 3)}–${fmt(row.spread.max, 3)} (n=${row.spread.n})` : '';
}

function table(rows: readonly AggregatedRow[]): string {
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'spread', 'target', 'met'];
  const body = rows.map((r) => [
    r.id,
    r.value === null || Number.isNaN(r.value) ? 'n/a' : `${fmt(r.value)} ${r.unit}`,
    r.baseline ? `${fmt(r.baseline.value)} ${r.baseline.unit}` : '',
    r.ratio !== undefined ? fmt(r.ratio, 3) : '',
    spreadText(r),
    r.target ?? '',
    r.met === null ? '–' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** Runs one group in a child process; resolves its repetitions, or rejects with what it printed. */
function runGroup(id: string, repeat: number): Promise<BenchRow[][]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'groupProcess.ts'), id, String(repeat)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let resultLine: string | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      // Pass the group's own progress lines through as they come; the result line is kept for us.
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const l of lines) {
        if (l.startsWith('BENCH_ROWS ')) {
          resultLine = l.slice('BENCH_ROWS '.length);
        } else {
          console.log(l);
        }
      }
    });
    child.on('close', (code) => {
      if (out.startsWith('BENCH_ROWS ')) {
        resultLine = out.slice('BENCH_ROWS '.length);
      }
      if (code === 0 && resultLine !== undefined) {
        resolve((JSON.parse(resultLine) as BenchRow[][]).map((rows) => rows.map((r) => ({ ...r, value: r.value ?? Number.NaN }))));
      } else {
        reject(new Error(`the group's process exited with ${String(code)}${resultLine === undefined ? ' and no result' : ''}`));
      }
    });
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const repeatAt = args.indexOf('--repeat');
  const repeat = repeatAt >= 0 ? Math.max(1, Number(args[repeatAt + 1])) : 3;
  const only = args.filter((a, i) => a !== '--repeat' && (repeatAt < 0 || i !== repeatAt + 1));
  const selected = BENCH_GROUPS.filter((b) => only.length === 0 || only.some((prefix) => b.id.startsWith(prefix)));
  const rows: AggregatedRow[] = [];
  const failures: string[] = [];
  const started = Date.now();
  for (const group of selected) {
    console.log(`\n${group.title}`);
    const t0 = Date.now();
    try {
      const result = aggregateRepetitions(await runGroup(group.id, repeat));
      for (const row of result) {
        printRow(row);
        if (row.spread) {
          console.log(`    median of ${row.spread.n} runs after a warm-up; ${row.spread.of} from ${spreadText(row)}`);
        }
      }
      rows.push(...result);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      failures.push(`${group.id}: ${text}`);
      console.log(`  FAILED: ${text}`);
    }
    console.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const file = join(__dirname, 'results.json');
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
        durationSeconds: Math.round((Date.now() - started) / 1000),
        method: `each group in its own process: one warm-up run, then ${repeat} repetitions; each row is the median repetition, with the spread of its ratio (or value)`,
        rows: rows.map((r) => ({ ...r, value: Number.isNaN(r.value) ? null : r.value })),
        failures,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\n${table(rows)}\n`);
  const missed = rows.filter((r) => r.met === false).map((r) => r.id);
  console.log(`${rows.length} figures, ${missed.length} target(s) missed${missed.length > 0 ? `: ${missed.join(', ')}` : ''}; written to ${file}`);
  if (failures.length > 0) {
    console.log(`${failures.length} benchmark(s) failed to run`);
    return 1;
  }
  return 0;
}

void main().then((code) => process.exit(code));

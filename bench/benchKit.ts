/**
 * Shared bits of the benchmarks: a seeded PRNG (so every run measures the same input), timing helpers that take
 * the median of interleaved repetitions (a ratio is only meaningful when both sides ran under the same load), and
 * the result row every benchmark reports.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface BenchRow {
  /** Stable id, e.g. `ingest.agencyProxy`. */
  readonly id: string;
  /** What was measured, for the table. */
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The side-by-side baseline, when the target is a ratio. */
  readonly baseline?: { readonly label: string; readonly value: number; readonly unit: string };
  /** value ÷ baseline (or the benchmark's own ratio). */
  readonly ratio?: number;
  /** Human-readable target, e.g. `≥ 0.5× JSON.parse`. */
  readonly target?: string;
  /** Whether the target is met; null when there is no target or it could not be measured. */
  readonly met: boolean | null;
  readonly note?: string;
}

/** mulberry32: tiny, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

const WORDS = [
  'the', 'function', 'returns', 'a', 'value', 'config', 'loader', 'reads', 'file', 'test', 'passes', 'we', 'should',
  'check', '`path`', 'and', 'then', 'update', 'README.md', 'with', 'new', 'options', '**note**', 'error', 'handling',
  'in', 'src/index.ts', 'for', 'each', 'item', '-', '```ts', '```', 'const', 'x', '=', '1;', 'é', '—', '✓',
];

/** Markdown-ish prose of roughly `chars` characters. */
export function prose(random: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) {
    out += WORDS[Math.floor(random() * WORDS.length)]!;
    out += random() < 0.08 ? '\n' : ' ';
  }
  return out.slice(0, chars);
}

export function now(): number {
  return performance.now();
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * CPU time (user + system) of this process in ms. The synchronous benchmarks use it rather than wall time: on a
 * shared machine another process's load inflates wall time but not the CPU this work needs.
 */
export function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Runs `fn` once and returns the CPU time it took, in ms. */
export function timeOnce(fn: () => void): number {
  const start = cpuMs();
  fn();
  return cpuMs() - start;
}

let gcFunction: (() => void) | undefined;

/** A full GC between measurements, so one side does not pay for the other's garbage (`npm run bench` has no --expose-gc). */
export function collectGarbage(): void {
  if (gcFunction === undefined) {
    setFlagsFromString('--expose-gc');
    gcFunction = runInNewContext('gc') as () => void;
  }
  gcFunction();
}

/**
 * Times `subject` and `baseline` in alternation (`rounds` each, after one warm-up of both) and returns the median
 * durations: both sides see the same JIT state, GC pressure and machine load.
 */
export function sideBySide(subject: () => void, baseline: () => void, rounds = 5): { subjectMs: number; baselineMs: number } {
  subject();
  baseline();
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    collectGarbage();
    b.push(timeOnce(baseline));
    collectGarbage();
    s.push(timeOnce(subject));
  }
  return { subjectMs: median(s), baselineMs: median(b) };
}

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) {
    return String(value);
  }
  const abs = Math.abs(value);
  if (abs >= 1000) {
    return Math.round(value).toLocaleString('en-US');
  }
  return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : digits);
}

/** One line per row, as each benchmark finishes. */
export function printRow(row: BenchRow): void {
  const base = row.baseline ? `   baseline (${row.baseline.label}): ${fmt(row.baseline.value)} ${row.baseline.unit}` : '';
  const ratio = row.ratio !== undefined ? `   ratio ${fmt(row.ratio, 3)}` : '';
  const target = row.target ? `   target ${row.target}: ${row.met === null ? 'n/a' : row.met ? 'met' : 'MISSED'}` : '';
  console.log(`  ${row.name}: ${fmt(row.value)} ${row.unit}${base}${ratio}${target}${row.note ? `\n    (${row.note})` : ''}`);
}

/**
 * `npm run bench`: runs every benchmark in one process, prints each figure with its baseline as it goes, writes
 * bench/results.json and ends with a table. Ratios are measured side by side in this run (never compared with
 * numbers from another machine or run); CPU time is used where the work is synchronous, so a busy machine
 * distorts them less. Run one benchmark: `npm run bench -- ingest` (any id prefix).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './benchKit';
import { fmt, printRow } from './benchKit';
import { benchBundles } from './bundles';
import { benchCatchUp } from './catchUp';
import { benchChangeSet } from './changeSet';
import { benchIngestAgencyProxy } from './ingestAgencyProxy';
import { benchIngestScv } from './ingestScv';
import { benchStreamingCost } from './streamingCost';
import { benchWebview } from './webview';

const BENCHMARKS: readonly { readonly id: string; readonly title: string; readonly run: () => BenchRow[] | Promise<BenchRow[]> }[] = [
  { id: 'ingest.agencyProxy', title: '1a. Ingest — AgencyProxy length-prefixed frames', run: () => benchIngestAgencyProxy() },
  { id: 'ingest.scv', title: '1b. Ingest — SCV NDJSON', run: () => benchIngestScv() },
  { id: 'streaming', title: '2. Streaming cost per delta (10 vs 100k items)', run: () => benchStreamingCost() },
  { id: 'webview', title: '3. Webview with 100k items (headless Chromium)', run: () => benchWebview() },
  { id: 'changeSet', title: '4. Change sets (4 MiB patch)', run: () => benchChangeSet() },
  { id: 'catchUp', title: '5. Catch-up after reconnect (10k events)', run: () => benchCatchUp() },
  { id: 'bundle', title: '6. Bundles and activation', run: () => benchBundles() },
];

function table(rows: readonly BenchRow[]): string {
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.id,
    Number.isNaN(r.value) ? 'n/a' : `${fmt(r.value)} ${r.unit}`,
    r.baseline ? `${fmt(r.baseline.value)} ${r.baseline.unit}` : '',
    r.ratio !== undefined ? fmt(r.ratio, 3) : '',
    r.target ?? '',
    r.met === null ? '–' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const selected = BENCHMARKS.filter((b) => only.length === 0 || only.some((prefix) => b.id.startsWith(prefix)));
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  const started = Date.now();
  for (const benchmark of selected) {
    console.log(`\n${benchmark.title}`);
    const t0 = Date.now();
    try {
      const result = await benchmark.run();
      result.forEach(printRow);
      rows.push(...result);
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`${benchmark.id}: ${text}`);
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

/**
 * Golden streams: recorded wire frames (test/golden/<daemon>/<name>.frames.jsonl, see recordGolden.ts) and the
 * transcript they must produce, rendered as readable text (<name>.transcript.txt), so a mapping regression shows
 * as a line diff of the transcript. `UPDATE_GOLDEN=1` rewrites the expected text instead of comparing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunStore } from '../../../extension/model/runStore';
import type { FrameDirection, HttpTraceInfo } from '../../../extension/transport/frameTap';

export const GOLDEN_DIR = join(__dirname, '..', '..', 'golden');

export interface GoldenFrame {
  readonly dir: FrameDirection;
  readonly frame: unknown;
  readonly http?: HttpTraceInfo;
}

export function readFrames(daemon: string, name: string): GoldenFrame[] {
  const text = readFileSync(join(GOLDEN_DIR, daemon, `${name}.frames.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as GoldenFrame);
}

/** A value on one line: strings as they are when short and single-line, everything else as JSON. */
function inline(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\n') || value.length > 100 ? undefined : JSON.stringify(value);
  }
  const json = JSON.stringify(value);
  return json.length > 100 ? undefined : json;
}

/** A long value as an indented block: text line by line, structures as pretty JSON. */
function block(value: unknown): string[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.split('\n').map((l) => `    | ${l}`);
}

/** One line per run (its model fields), then one header line per transcript item plus blocks for long fields. */
export function renderStore(store: RunStore): string {
  const out: string[] = [];
  for (const run of [...store.state.runs.values()].sort((a, b) => a.key.localeCompare(b.key))) {
    const fields = { state: run.state, stateDetail: run.stateDetail, title: run.title, model: run.model, lastSequence: run.lastSequence, pendingApprovals: run.pendingApprovals };
    out.push(`run ${run.runId} ${Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}`);
    for (const item of store.transcript(run.key)?.snapshot() ?? []) {
      const record = item as unknown as Record<string, unknown>;
      const short: string[] = [];
      const long: string[] = [];
      for (const [key, value] of Object.entries(record)) {
        if (key === 'id' || key === 'kind') {
          continue;
        }
        const one = inline(value);
        if (one !== undefined) {
          short.push(`${key}=${one}`);
        } else {
          long.push(`  ${key}:`, ...block(value));
        }
      }
      out.push(`  ${item.id} ${item.kind} ${short.join(' ')}`.trimEnd(), ...long);
    }
  }
  return `${out.join('\n')}\n`;
}

/** Compares with (or, with UPDATE_GOLDEN=1, rewrites) test/golden/<daemon>/<name>.transcript.txt. */
export function assertGolden(daemon: string, name: string, actual: string): void {
  const file = join(GOLDEN_DIR, daemon, `${name}.transcript.txt`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1') {
      assert.fail(`no expected transcript yet: wrote ${file}; review it and run again`);
    }
    return;
  }
  // Line arrays: node:assert prints a readable per-line diff of the transcript.
  assert.deepEqual(actual.split('\n'), readFileSync(file, 'utf8').split('\n'), `the transcript of ${daemon}/${name} (UPDATE_GOLDEN=1 rewrites it)`);
}

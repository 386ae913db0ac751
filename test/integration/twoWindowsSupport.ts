/**
 * What the two-window suites (twoWindows.test.ts) share: which window this is and which life of it (each reload
 * starts the suite again), marks the two windows leave for each other in a shared directory (they wait for states,
 * never for time), how each window makes itself known to the daemon, and the evidence read from disk — the daemon's
 * record of who acknowledged what, and the run's journal file as the extension wrote it.
 * The runner (test/harness/runIntegration.mjs, "Two windows") opens both windows and sets the environment.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readClientActivity } from '../fixtures/agencyProxy/clientRecord';
import type { ClientActivity } from '../fixtures/agencyProxy/clientRecord';
import { safeFileName } from '../../extension/storage/runJournal';
import { requestReloadAfterRun } from './reloadAfterRun';
import { testHooks, waitFor, workspaceDir } from './support';

export type Role = 'A' | 'B';

export const DAEMON_NAME = 'Two windows daemon';
export const CONNECTION = `agency-proxy:${DAEMON_NAME}`;

export interface TwoWindows {
  readonly socket: string;
  /** The daemon's record directory (test/fixtures/agencyProxy/clientRecord.ts reads it). */
  readonly record: string;
  /** Where the windows leave marks for each other. */
  readonly dir: string;
  readonly role: Role;
  /** 1 for the window's first test run, one more after each reload. */
  readonly life: number;
}

/** This window's part, or undefined outside the two-window launch (its suites then register nothing). */
export function twoWindows(): TwoWindows | undefined {
  const env = (name: string): string | undefined => process.env[`SWITCHBOARD_TWO_WINDOWS_${name}`] || undefined;
  const [socket, record, dir, a, b] = [env('SOCKET'), env('RECORD'), env('DIR'), env('A'), env('B')];
  if (!socket || !record || !dir || !a || !b) {
    return undefined;
  }
  const folder = fs.realpathSync(workspaceDir());
  const role: Role | undefined = folder === fs.realpathSync(a) ? 'A' : folder === fs.realpathSync(b) ? 'B' : undefined;
  if (!role) {
    throw new Error(`this window's folder ${folder} is neither window A's nor window B's`);
  }
  const reloads = fs.readdirSync(dir).filter((f) => f.startsWith(`${role}-reload-`)).length;
  return { socket, record, dir, role, life: reloads + 1 };
}

/** The file of a mark (the daemon's scripted run reads one too: `until:`). */
export const markPath = (w: TwoWindows, name: string): string => path.join(w.dir, `${name}.json`);
const markFile = markPath;

/** Leaves a mark (atomically: the other window never reads half of it). */
export function mark(w: TwoWindows, name: string, value: unknown = {}): void {
  fs.writeFileSync(`${markFile(w, name)}.tmp`, JSON.stringify(value));
  fs.renameSync(`${markFile(w, name)}.tmp`, markFile(w, name));
}

export function hasMark(w: TwoWindows, name: string): boolean {
  return fs.existsSync(markFile(w, name));
}

export function readMark<T>(w: TwoWindows, name: string): T {
  return JSON.parse(fs.readFileSync(markFile(w, name), 'utf8')) as T;
}

/** The other window gave up (a step this window waits on failed there): what it said. */
export class OtherWindowGaveUp extends Error {}

function checkNobodyGaveUp(w: TwoWindows): void {
  for (const role of ['A', 'B'] as const) {
    if (hasMark(w, `${role}-gave-up`)) {
      const why = readMark<{ why: string }>(w, `${role}-gave-up`).why;
      throw new OtherWindowGaveUp(role === w.role ? `this window gave up earlier: ${why}` : `window ${role} gave up: ${why}`);
    }
  }
}

/** Waits for the other window's mark; fails at once when either window gave up (a `<role>-gave-up` mark). */
export async function waitForMark<T>(w: TwoWindows, name: string, timeoutMs = 240000): Promise<T> {
  const other: Role = w.role === 'A' ? 'B' : 'A';
  return waitFor(`window ${other}'s mark "${name}"`, () => {
    checkNobodyGaveUp(w);
    return hasMark(w, name) && readMark<T>(w, name);
  }, timeoutMs);
}

/**
 * A step the other window depends on failed here: say so (once), so it stops waiting for marks that will never
 * come. A step that failed because the other window gave up says nothing more.
 */
export function giveUp(w: TwoWindows, error: unknown, step: string): void {
  if (!(error instanceof OtherWindowGaveUp) && !hasMark(w, `${w.role}-gave-up`)) {
    mark(w, `${w.role}-gave-up`, { why: `${step}: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/**
 * This life ends with a reload once its tests have reported (reloadAfterRun.ts); the next life is one more. After
 * either window gave up there is nothing to go on with: the window ends instead, with this step failed.
 */
export function reloadAfterThisLife(w: TwoWindows): void {
  checkNobodyGaveUp(w);
  mark(w, `${w.role}-reload-${w.life}`);
  requestReloadAfterRun();
}

/** The run id a window's probe names: `inject_message` to it is refused (not_found), which the record keeps. */
const PROBE = 'two-windows-probe:';

/**
 * Makes this window's current connection known to the daemon's record as `<role><life>`: a message to a run that
 * does not exist, which the daemon refuses (`not_found`) and records with the connection that sent it. The record
 * cannot tell two windows apart otherwise: both say the same hello.
 */
export async function introduceToDaemon(w: TwoWindows): Promise<void> {
  const driver = (await testHooks()).connections.driver(CONNECTION);
  assert.ok(driver?.sendMessage, 'the connection has a driver that sends messages');
  await assert.rejects(driver.sendMessage(`${PROBE}${w.role}${w.life}`, 'which window is this?'), 'the daemon refuses a message to a run it does not know');
  await waitFor('the daemon recorded the probe', () => clientsByWindow(w).some((c) => c.window === `${w.role}${w.life}`));
}

export interface WindowClient extends ClientActivity {
  /** `<role><life>` of the window that introduced this connection, or undefined (it never did). */
  readonly window: string | undefined;
}

/** Every connection to the daemon, with the window each introduced itself as (introduceToDaemon). */
export function clientsByWindow(w: TwoWindows): WindowClient[] {
  return readClientActivity(w.record).map((c) => {
    const probe = c.refused.find((r) => r.request === 'inject_message' && r.runId?.startsWith(PROBE));
    return { ...c, window: probe?.runId?.slice(PROBE.length) };
  });
}

/** A run's journal file, as the extension keeps it in the global storage both windows share. */
export async function journalFile(runId: string): Promise<string> {
  const dir = path.join((await testHooks()).storageDir, 'transcripts', safeFileName(CONNECTION));
  return path.join(dir, `${safeFileName(runId)}.jsonl`);
}

/** The daemon sequences of a journal's event records, in file order: each record's `s`..`q` (journalRecords.ts). */
export function journalSequences(file: string): { readonly ranges: readonly (readonly [number, number])[]; readonly unreadable: number } {
  const ranges: [number, number][] = [];
  let unreadable = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      unreadable += 1;
      continue;
    }
    const { q, s } = record as { q?: unknown; s?: unknown };
    if (typeof q === 'number') {
      ranges.push([typeof s === 'number' ? s : q, q]);
    }
  }
  return { ranges, unreadable };
}

/** Where a journal's sequences are not "each once, in order": repeats, inversions, holes up to `last`. */
export function sequenceProblems(ranges: readonly (readonly [number, number])[], last: number): { repeated: number; inversions: number; missing: number } {
  const seen = new Set<number>();
  let repeated = 0;
  let inversions = 0;
  let previous = 0;
  for (const [from, to] of ranges) {
    if (from <= previous) {
      inversions += 1;
    }
    for (let q = from; q <= to; q++) {
      if (seen.has(q)) {
        repeated += 1;
      }
      seen.add(q);
    }
    previous = Math.max(previous, to);
  }
  let missing = 0;
  for (let q = 1; q <= last; q++) {
    missing += seen.has(q) ? 0 : 1;
  }
  return { repeated, inversions, missing };
}

/**
 * The reference AgencyProxy daemon as a real child process (test/fixtures/agencyProxy/main.ts), for tests that
 * SIGKILL it. `runner: 'bundle'` starts an esbuild bundle of main.ts (built once per test process; fixtures are
 * bundleable by convention) because `node --import tsx` takes 1–2 s to start on a loaded 2-core machine, which
 * twenty restarts cannot afford; `runner: 'tsx'` runs the TypeScript directly.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';

export const REPO = resolve(__dirname, '..', '..', '..');
const MAIN = join(REPO, 'test', 'fixtures', 'agencyProxy', 'main.ts');

let bundled: Promise<string> | undefined;

/** Builds main.ts into a temp .cjs once per process; removed at exit. */
export function agencyProxyBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ap-bundle-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true, maxRetries: 20 }));
    const outfile = join(dir, 'agencyProxy.cjs');
    await build({ entryPoints: [MAIN], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'warning' });
    return outfile;
  })();
  return bundled;
}

export interface DaemonProcess {
  readonly child: ChildProcess;
  /** Resolves with `performance.now()` when the daemon logged that it listens (rejects if it exits first). */
  readonly listening: Promise<number>;
  /** Resolves with the signal or exit code. */
  readonly exited: Promise<NodeJS.Signals | number | null>;
  /** Everything it wrote to stderr. */
  stderr(): string;
}

export async function spawnAgencyProxy(args: readonly string[], runner: 'bundle' | 'tsx' = 'bundle'): Promise<DaemonProcess> {
  const argv = runner === 'bundle' ? [await agencyProxyBundle(), ...args] : ['--import', 'tsx', MAIN, ...args];
  const child = spawn(process.execPath, argv, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(signal ?? code));
  });
  const listening = new Promise<number>((resolveListening, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (/listening on/.test(log)) {
        resolveListening(performance.now());
      }
    });
    void exited.then((how) => reject(new Error(`the daemon exited (${String(how)}) before listening: ${log}`)));
  });
  listening.catch(() => undefined); // observed by callers that care
  return { child, listening, exited, stderr: () => log };
}

/** SIGKILL and wait until it is gone. */
export async function killHard(daemon: DaemonProcess): Promise<void> {
  if (daemon.child.exitCode === null && daemon.child.signalCode === null) {
    daemon.child.kill('SIGKILL');
  }
  await daemon.exited;
}

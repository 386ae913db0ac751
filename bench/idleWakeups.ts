/**
 * Idle: timer wake-ups of the extension host with connections open and nothing to do — AgencyProxy, SCV and A3S
 * reference daemons connected (each in a process of its own, so their timers are not counted), no live run, no hive
 * profile, every view hidden. The extension (its TypeScript sources through tsx, with `vscode` answered by
 * bench/vscodeStub.ts) runs in this process with its timers in a census (bench/timerCensus.ts): every callback of
 * ours that fires is counted and attributed to the first frames of our code that armed it. Two figures:
 * - a real sample (60 s of wall-clock time);
 * - virtual time: the same setup, then our timers (the pending ones with the time they had left) move onto a fake
 *   clock that is advanced by 10 minutes — what a real sample that long would see, including every backoff that
 *   stretches past a minute. Connecting happens before, on real timers, so the handshakes are untouched.
 * Target: 0 per minute for both. `benchIdleHive` runs the virtual figure with a hive profile as well, views hidden:
 * the hive's status poll runs only while a view shows it (ui/surfaceVisibility.ts), so that is 0 too; and
 * `benchIdleReconnecting` with a connection that keeps reconnecting: its backoff may wake, and the run board's
 * refresh after each attempt (the activity-bar badge shows while the view is hidden); nothing else (no countdown).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchRow } from './benchKit';
import { TimerCensus } from './timerCensus';
import { createVscodeStub } from './vscodeStub';

const ROOT = resolve(__dirname, '..');

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

interface ActivatedStore {
  readonly store: { readonly state: { readonly connections: ReadonlyMap<string, { readonly state: { readonly kind: string } }> } };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a reference daemon; resolves once it printed its first line (the hive says where it listens). */
function startDaemon(name: string, args: readonly string[], children: ChildProcess[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'fixtures', name, 'main.ts'), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return new Promise((done) => {
    child.stdout.once('data', () => done());
    child.once('exit', () => done());
    // Daemons that print nothing are waited for by the connection check instead.
    setTimeout(done, 5_000);
  });
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface IdleOptions {
  /** Wall-clock sample; 0 skips the real figure. */
  readonly sampleMs?: number;
  /** Virtual time to advance; 0 skips the virtual figure. */
  readonly virtualMs?: number;
  /** Adds a hive profile (the fake hive-c0re of test/fixtures/hive). */
  readonly hive?: boolean;
  /** Adds an AgencyProxy profile whose socket does not exist: that connection keeps reconnecting. */
  readonly unreachable?: boolean;
}

function row(id: string, name: string, census: TimerCensus, ms: number): BenchRow {
  const perMinute = (census.total * 60_000) / ms;
  const sites = census.sites();
  return {
    id,
    name,
    value: perMinute,
    unit: '/min',
    target: '0',
    met: perMinute === 0,
    note: sites.length > 0 ? `armed at: ${sites.join(', ')}` : 'no timer of ours fired',
  };
}

export async function benchIdleWakeups(options: IdleOptions = {}): Promise<BenchRow[]> {
  const sampleMs = options.sampleMs ?? 60_000;
  const virtualMs = options.virtualMs ?? 600_000;
  const temp = mkdtempSync(join(tmpdir(), 'sb-idle-'));
  const children: ChildProcess[] = [];
  const census = new TimerCensus();
  const loader = Module as unknown as ModuleLoader;
  const originalLoad = loader._load;
  const subscriptions: { dispose(): unknown }[] = [];
  const rows: BenchRow[] = [];
  try {
    const workspace = join(temp, 'ws');
    mkdirSync(workspace);
    mkdirSync(join(temp, 'ap'));
    mkdirSync(join(temp, 'scv'));
    const port = await freePort();
    const release = `sha256:${'1'.repeat(64)}`;
    const started = [
      startDaemon('agencyProxy', ['--socket', join(temp, 'ap', 'runtime.sock'), '--workspace', workspace], children),
      startDaemon('scv', ['--socket', join(temp, 'scv', 'server.sock')], children),
      startDaemon('a3s', ['--port', String(port), '--workspace', workspace, '--release', release], children),
    ];
    const profiles: Record<string, unknown>[] = [
      { name: 'AgencyProxy', protocol: 'agency-proxy', socketPath: join(temp, 'ap', 'runtime.sock') },
      { name: 'SCV', protocol: 'scv', socketPath: join(temp, 'scv', 'server.sock') },
      { name: 'A3S', protocol: 'a3s', url: `http://127.0.0.1:${port}`, releaseIdentity: release },
    ];
    if (options.hive === true) {
      started.push(startDaemon('hive', ['--dir', join(temp, 'hive')], children));
      profiles.push({ name: 'Hive', protocol: 'hive', hiveDir: join(temp, 'hive') });
    }
    if (options.unreachable === true) {
      profiles.push({ name: 'Gone', protocol: 'agency-proxy', socketPath: join(temp, 'gone', 'runtime.sock') });
    }
    await Promise.all(started);
    const { api } = createVscodeStub({ configuration: { connections: profiles, autoConnect: true } });
    loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
      return request === 'vscode' ? api : originalLoad.call(this, request, parent, isMain);
    };
    census.install();
    const extension = (await import(join(ROOT, 'extension', 'extension.ts'))) as { activate(context: unknown): Promise<ActivatedStore | undefined> };
    const Uri = api.Uri as { file(p: string): unknown };
    const memento = { get: () => undefined, update: () => Promise.resolve(), keys: () => [] };
    const result = await extension.activate({
      subscriptions,
      extensionUri: Uri.file(ROOT),
      extensionPath: ROOT,
      globalStorageUri: Uri.file(join(temp, 'storage')),
      storageUri: undefined,
      secrets: { get: () => Promise.resolve(undefined), store: () => Promise.resolve(), delete: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) },
      extension: { packageJSON: { version: 'bench' } },
      globalState: memento,
      workspaceState: memento,
    });
    if (!result) {
      throw new Error('activate() failed under the stub');
    }
    const connections = (): { state: { kind: string } }[] => [...result.store.state.connections.values()];
    const settled = (c: { state: { kind: string } }, i: number): boolean => c.state.kind === (options.unreachable === true && i === profiles.length - 1 ? 'reconnecting' : 'connected');
    await waitFor(`${profiles.length} connections`, () => connections().length === profiles.length && connections().every(settled), 60_000);
    // Let the connect-time work (first reads, journals) settle before the sample.
    await new Promise((r) => setTimeout(r, 2_000));
    const what = `${profiles.length} connections${options.hive === true ? ' (one a hive)' : ''}${options.unreachable === true ? ' (one reconnecting)' : ''}, no live run, views hidden`;
    if (sampleMs > 0) {
      census.counting = true;
      await new Promise((r) => setTimeout(r, sampleMs));
      census.counting = false;
      rows.push(row('idle.wakeups', `Timer wake-ups per minute, ${what} (real ${Math.round(sampleMs / 1000)} s sample)`, census, sampleMs));
    }
    if (virtualMs > 0) {
      census.reset();
      const pendingAtSwitch = census.pendingSites();
      census.useVirtualTime();
      await census.advance(virtualMs);
      const id = options.unreachable === true ? 'idle.wakeupsFakeReconnecting' : options.hive === true ? 'idle.wakeupsFakeHive' : 'idle.wakeupsFake';
      const virtualRow = row(id, `Timer wake-ups per virtual minute, ${what} (fake timers, ${Math.round(virtualMs / 60_000)} min)`, census, virtualMs);
      const stillOpen = connections().filter((c) => c.state.kind === 'connected').length;
      rows.push({
        ...virtualRow,
        // Retrying a lost daemon is a reason to wake: that figure shows the backoff, it has no target.
        ...(options.unreachable === true ? { target: 'none (retrying is a reason)', met: null } : {}),
        note: `${virtualRow.note ?? ''}; ${pendingAtSwitch.length} timer(s) of ours pending at the switch${pendingAtSwitch.length > 0 ? ` (${pendingAtSwitch.join(', ')})` : ''}; ${stillOpen}/${profiles.length} connections connected after`,
      });
    }
    return rows;
  } finally {
    census.counting = false;
    for (const s of subscriptions.reverse()) {
      try {
        s.dispose();
      } catch {
        // Best effort: the process ends after the group anyway.
      }
    }
    census.uninstall();
    loader._load = originalLoad;
    for (const child of children) {
      child.kill('SIGTERM');
    }
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The virtual figure with a hive profile too (its status poll must stop while every view is hidden). */
export function benchIdleHive(virtualMs = 600_000): Promise<BenchRow[]> {
  return benchIdleWakeups({ sampleMs: 0, virtualMs, hive: true });
}

/** The virtual figure with a fourth connection that keeps reconnecting: its backoff may wake, no UI countdown. */
export function benchIdleReconnecting(virtualMs = 600_000): Promise<BenchRow[]> {
  return benchIdleWakeups({ sampleMs: 0, virtualMs, unreachable: true });
}

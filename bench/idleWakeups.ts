/**
 * Idle: timer wake-ups of the extension host with connections open and nothing to do — AgencyProxy, SCV and A3S
 * reference daemons connected (each in a process of its own, so their timers are not counted), no live run, no hive
 * profile, every view hidden. The extension (its TypeScript sources through tsx, with `vscode` answered by
 * bench/vscodeStub.ts) runs in this process with setTimeout / setInterval wrapped: every callback that fires during a
 * real sample is counted and attributed to the first frame of our code that armed it. Target: 0 per minute.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { BenchRow } from './benchKit';
import { createVscodeStub } from './vscodeStub';

const ROOT = resolve(__dirname, '..');

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
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

/** Frames that only pass a timer on (the clock abstraction): the one who armed it is further up. */
const PASS_THROUGH = /extension\/drivers\/kit\/clock\.ts$/;

/** Where a timer was armed: the first two frames in extension/ past the clock (path:line ← path:line), or "elsewhere". */
function armedAt(): string {
  const stack = new Error().stack?.split('\n').slice(2) ?? [];
  const ours: string[] = [];
  for (const line of stack) {
    const match = /\((.*):(\d+):\d+\)$/.exec(line) ?? /at (.*):(\d+):\d+$/.exec(line);
    if (match && match[1]!.includes(`${ROOT}/extension/`) && !PASS_THROUGH.test(match[1]!)) {
      ours.push(`${relative(ROOT, match[1]!)}:${match[2]}`);
      if (ours.length === 2) {
        break;
      }
    }
  }
  return ours.length > 0 ? ours.join(' ← ') : 'elsewhere';
}

class TimerCensus {
  counting = false;
  readonly fired = new Map<string, number>();
  private readonly originals = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval };

  install(): void {
    const wrap = <F extends (...args: never[]) => unknown>(original: F): F =>
      ((callback: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
        const site = armedAt();
        const counted = (...a: unknown[]): void => {
          if (this.counting && site !== 'elsewhere') {
            this.fired.set(site, (this.fired.get(site) ?? 0) + 1);
          }
          callback(...a);
        };
        return (original as unknown as (...a: unknown[]) => unknown)(counted, ms, ...rest);
      }) as unknown as F;
    globalThis.setTimeout = wrap(this.originals.setTimeout);
    globalThis.setInterval = wrap(this.originals.setInterval);
  }

  uninstall(): void {
    globalThis.setTimeout = this.originals.setTimeout;
    globalThis.setInterval = this.originals.setInterval;
  }
}

function startDaemon(name: string, args: readonly string[], children: ChildProcess[]): void {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'fixtures', name, 'main.ts'), ...args], { stdio: 'ignore' });
  children.push(child);
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

export async function benchIdleWakeups(sampleMs = 60_000): Promise<BenchRow[]> {
  const temp = mkdtempSync(join(tmpdir(), 'sb-idle-'));
  const children: ChildProcess[] = [];
  const census = new TimerCensus();
  const loader = Module as unknown as ModuleLoader;
  const originalLoad = loader._load;
  const subscriptions: { dispose(): unknown }[] = [];
  try {
    const workspace = join(temp, 'ws');
    mkdirSync(workspace);
    mkdirSync(join(temp, 'ap'));
    mkdirSync(join(temp, 'scv'));
    const port = await freePort();
    const release = `sha256:${'1'.repeat(64)}`;
    startDaemon('agencyProxy', ['--socket', join(temp, 'ap', 'runtime.sock'), '--workspace', workspace], children);
    startDaemon('scv', ['--socket', join(temp, 'scv', 'server.sock')], children);
    startDaemon('a3s', ['--port', String(port), '--workspace', workspace, '--release', release], children);
    const profiles = [
      { name: 'AgencyProxy', protocol: 'agency-proxy', socketPath: join(temp, 'ap', 'runtime.sock') },
      { name: 'SCV', protocol: 'scv', socketPath: join(temp, 'scv', 'server.sock') },
      { name: 'A3S', protocol: 'a3s', url: `http://127.0.0.1:${port}`, releaseIdentity: release },
    ];
    const { api } = createVscodeStub({ configuration: { connections: profiles, autoConnect: true } });
    loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
      return request === 'vscode' ? api : originalLoad.call(this, request, parent, isMain);
    };
    census.install();
    const extension = (await import(join(ROOT, 'extension', 'extension.ts'))) as { activate(context: unknown): Promise<{ store: { state: { connections: ReadonlyMap<string, { state: { kind: string } }> } } } | undefined> };
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
    await waitFor('three connections', () => connections().length === 3 && connections().every((c) => c.state.kind === 'connected'), 60_000);
    // Let the connect-time work (first reads, journals) settle before the sample.
    await new Promise((r) => setTimeout(r, 2_000));
    census.counting = true;
    await new Promise((r) => setTimeout(r, sampleMs));
    census.counting = false;
    const total = [...census.fired.values()].reduce((a, b) => a + b, 0);
    const perMinute = (total * 60_000) / sampleMs;
    const sites = [...census.fired.entries()].sort((a, b) => b[1] - a[1]).map(([site, n]) => `${site} ×${n}`);
    return [
      {
        id: 'idle.wakeups',
        name: `Timer wake-ups per minute, 3 connections open, no live run, views hidden (real ${Math.round(sampleMs / 1000)} s sample)`,
        value: perMinute,
        unit: '/min',
        target: '0',
        met: perMinute === 0,
        note: sites.length > 0 ? `armed at: ${sites.join(', ')}` : 'no timer of ours fired',
      },
    ];
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

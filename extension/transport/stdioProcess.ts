/**
 * A child process that speaks newline-delimited JSON on its stdio (an ACP agent): spawned in its own process group,
 * so one signal reaches everything it starts (codex-acp's npm wrapper leaves its native binary behind otherwise),
 * with its stdout/stdin as web streams for a JSON-RPC library, every line tapped (`'in'` from stdout, `'out'` to
 * stdin — the exact JSON value, or `{ unparsed }` for a line that is not JSON, so the trace shows what a framing
 * layer dropped), and the tail of its stderr kept for the error a crash shows. `stop` kills the group: SIGTERM,
 * SIGKILL after a grace period, and resolves once the child is gone. Nothing here throws out of a stream handler.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { FrameDirection, FrameTap } from './frameTap';
import { tapSafely } from './frameTap';

export interface StdioProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tap: FrameTap;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Spawning failed (ENOENT: the command is not installed, EACCES …). */
  readonly spawnError?: string;
}

const STDERR_KEEP = 64 * 1024;

/** Splits a byte stream into lines and taps each (a partial last line waits for the rest). */
class LineTap {
  private partial = '';
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly tap: FrameTap,
    private readonly dir: FrameDirection,
  ) {}

  push(chunk: Uint8Array): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed === '') {
        continue;
      }
      let frame: unknown;
      try {
        frame = JSON.parse(trimmed);
      } catch {
        frame = { unparsed: trimmed.slice(0, 2000) };
      }
      tapSafely(this.tap, this.dir, frame);
    }
  }
}

export class StdioProcess {
  readonly exited: Promise<ProcessExit>;
  /** What the agent writes (its stdout), for the JSON-RPC layer. */
  readonly readable: ReadableStream<Uint8Array>;
  /** What the agent reads (its stdin). */
  readonly writable: WritableStream<Uint8Array>;
  private readonly child: ChildProcessWithoutNullStreams;
  private stderrText = '';
  private exit: ProcessExit | undefined;
  private stopping: Promise<void> | undefined;

  constructor(spec: StdioProcessSpec) {
    this.child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: { ...spec.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.exited = new Promise<ProcessExit>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        // A failed spawn emits no 'exit'; one after a successful spawn is followed by it.
        if (this.child.pid === undefined) {
          this.exit = { code: null, signal: null, spawnError: error.code ?? error.message };
          resolve(this.exit);
        }
      });
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    // A dead agent makes writes fail with EPIPE; the JSON-RPC layer sees the closed stream instead.
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.on('error', () => undefined);
    const inTap = new LineTap(spec.tap, 'in');
    const outTap = new LineTap(spec.tap, 'out');
    this.child.stdout.on('data', (chunk: Buffer) => inTap.push(chunk));
    this.readable = Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>;
    const stdin = Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>;
    const tapping = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        outTap.push(chunk);
        controller.enqueue(chunk);
      },
    });
    void tapping.readable.pipeTo(stdin).catch(() => undefined);
    this.writable = tapping.writable;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.exit === undefined && this.child.pid !== undefined;
  }

  /** The last `lines` lines the agent wrote to stderr (what a crash shows). */
  stderrTail(lines = 12): string {
    return this.stderrText.trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** Kills the process group (SIGTERM, then SIGKILL after `graceMs`); resolves once the child has exited. */
  stop(graceMs = 1500): Promise<void> {
    this.stopping ??= (async () => {
      if (this.exit === undefined && this.child.pid !== undefined) {
        signalGroup(this.child.pid, 'SIGTERM');
        const killed = await Promise.race([this.exited.then(() => true), delay(graceMs).then(() => false)]);
        // The group may still hold children that outlived their parent: SIGKILL reaches them either way.
        signalGroup(this.child.pid, 'SIGKILL');
        if (!killed) {
          await Promise.race([this.exited, delay(2000)]);
        }
      }
      this.child.stdout.destroy();
      this.child.stderr.destroy();
      this.child.stdin.destroy();
    })();
    return this.stopping;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already empty
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

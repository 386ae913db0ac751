/**
 * A child process that speaks newline-delimited JSON on its stdio (an ACP agent): started by a supervisor
 * (agentSupervisor.ts) that ends it when the extension host dies, however it dies, in a process group of their own,
 * so one signal reaches everything it starts (codex-acp's npm wrapper leaves its native binary behind otherwise);
 * with its stdout/stdin as web streams for a JSON-RPC library. Stdout is passed on in complete lines only, split in
 * linear time, and a line longer than `MAX_LINE_BYTES` stops the agent (lineSplitter.ts): the exit says why. Every
 * line is tapped (`'in'` from stdout, `'out'` to stdin — the exact JSON value, or `{ unparsed }` for a line that is
 * not JSON, so the trace shows what a framing layer dropped), and the tail of its stderr is kept for the error a crash
 * shows. `stop` kills the group: SIGTERM, SIGKILL after a grace period, and resolves once the child is gone. Nothing
 * here throws out of a stream handler.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { supervisorLaunch } from './agentSupervisor';
import type { FrameDirection, FrameTap } from './frameTap';
import { tapSafely } from './frameTap';
import { LineSplitter } from './lineSplitter';
import { completeLines } from './lineStream';
import { processSecretValues } from './secretValues';
import { delay, signalGroup, spawnErrorIn } from './processGroup';

export interface StdioProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tap: FrameTap;
  /** The longest stdout line accepted (default `MAX_LINE_BYTES`); tests lower it. */
  readonly maxLineBytes?: number;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Spawning failed (ENOENT: the command is not installed, EACCES …). */
  readonly spawnError?: string;
  /** This side stopped the agent, and why (it wrote a line longer than the limit). */
  readonly stoppedBecause?: string;
}

const STDERR_KEEP = 64 * 1024;
/** After the host is gone, how long the supervisor waits between SIGTERM and SIGKILL. */
const SUPERVISOR_GRACE_MS = 1500;

/** Taps each line of one direction as its JSON value (or `{ unparsed }`), a line split by `LineSplitter`. */
class LineTap {
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly tap: FrameTap,
    private readonly dir: FrameDirection,
  ) {}

  line(bytes: Uint8Array): void {
    const trimmed = this.decoder.decode(bytes).trim();
    if (trimmed === '') {
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(trimmed);
    } catch {
      // Cut after redaction by value: a cut through a secret would leave its start in the trace.
      frame = { unparsed: processSecretValues.redactedPrefix(trimmed, 2000) };
    }
    tapSafely(this.tap, this.dir, frame);
  }
}

export class StdioProcess {
  readonly exited: Promise<ProcessExit>;
  /** What the agent writes (its stdout), complete lines only, for the JSON-RPC layer. */
  readonly readable: ReadableStream<Uint8Array>;
  /** What the agent reads (its stdin). */
  readonly writable: WritableStream<Uint8Array>;
  private readonly child: ChildProcess;
  private stderrText = '';
  /** Whether `stderrText` lost its start (a cut line must not be shown: it may hold the end of a secret). */
  private stderrCut = false;
  private exit: ProcessExit | undefined;
  private stopping: Promise<void> | undefined;
  /** Why this side stopped the agent (a line over the limit), for the exit it reports. */
  private stoppedBecause: string | undefined;

  constructor(spec: StdioProcessSpec) {
    const launch = supervisorLaunch(spec.command, spec.args, spec.env, SUPERVISOR_GRACE_MS);
    // Detached: the supervisor leads a process group of its own, which the agent and its children join.
    this.child = spawn(launch.command, [...launch.args], { cwd: spec.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
    const { stdin, stdout, stderr } = this.child as ChildProcessWithoutNullStreams;
    const control = this.child.stdio[3] as Readable;
    let controlText = '';
    control.on('data', (chunk: Buffer) => {
      controlText = (controlText + chunk.toString('utf8')).slice(-4096);
    });
    const controlClosed = new Promise<void>((resolve) => control.once('close', () => resolve()));
    this.exited = new Promise<ProcessExit>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        // A failed spawn emits no 'exit'; one after a successful spawn is followed by it.
        if (this.child.pid === undefined) {
          this.exit = { code: null, signal: null, spawnError: error.code ?? error.message };
          resolve(this.exit);
        }
      });
      this.child.once('exit', (code, signal) => {
        // The supervisor reports a failed spawn on fd 3 before it exits; wait for that pipe to close (briefly: an
        // agent's leftover child may hold it).
        void Promise.race([controlClosed, delay(2000)]).then(() => {
          const spawnError = spawnErrorIn(controlText);
          this.exit = { code, signal, ...(spawnError !== undefined ? { spawnError } : {}), ...(this.stoppedBecause !== undefined ? { stoppedBecause: this.stoppedBecause } : {}) };
          resolve(this.exit);
        });
      });
    });
    stderr.on('data', (chunk: Buffer) => {
      const text = this.stderrText + chunk.toString('utf8');
      this.stderrCut ||= text.length > STDERR_KEEP;
      this.stderrText = text.slice(-STDERR_KEEP);
    });
    // A dead agent makes writes fail with EPIPE; the JSON-RPC layer sees the closed stream instead.
    stdin.on('error', () => undefined);
    stdout.on('error', () => undefined);
    control.on('error', () => undefined);
    const inTap = new LineTap(spec.tap, 'in');
    this.readable = completeLines(stdout, (line) => inTap.line(line), (overflow) => {
      this.stoppedBecause = overflow.message;
      void this.stop();
    }, spec.maxLineBytes);
    const outTap = new LineTap(spec.tap, 'out');
    const outLines = new LineSplitter(Number.MAX_SAFE_INTEGER);
    const tapping = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const line of outLines.push(chunk)) {
          outTap.line(line);
        }
        controller.enqueue(chunk);
      },
    });
    void tapping.readable.pipeTo(Writable.toWeb(stdin) as WritableStream<Uint8Array>).catch(() => undefined);
    this.writable = tapping.writable;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.exit === undefined && this.child.pid !== undefined;
  }

  /** The last `lines` lines the agent wrote to stderr (what a crash shows); never a line cut at its start. */
  stderrTail(lines = 12): string {
    const all = this.stderrText.trimEnd().split('\n');
    // Shown in the UI and the log: redacted, like the trace.
    return processSecretValues.redact((this.stderrCut ? all.slice(1) : all).slice(-lines).join('\n'));
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
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
      this.child.stdin?.destroy();
    })();
    return this.stopping;
  }
}

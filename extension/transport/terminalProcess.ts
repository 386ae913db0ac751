/**
 * A command an agent runs through its client (ACP `terminal/create`): spawned with its arguments, environment and
 * working directory, through the same supervisor as the agents (agentSupervisor.ts) so it dies with the extension
 * host however that ends, in a process group of its own so a kill reaches everything it started. No shell: the
 * command and arguments are passed as they are. Its stdin is empty (nobody types into it); stdout and stderr go,
 * interleaved as they come, into the output the agent reads (terminalOutput.ts, byte-limited) and to whoever shows
 * it live (`onOutput`). `kill` signals the group (SIGTERM, SIGKILL after a grace period) and resolves once it has
 * exited; the exit status says how it ended. A command that cannot be started exits 127 with the reason as its
 * output, as a shell would say it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { Emitter } from '../base/emitter';
import type { Event } from '../base/emitter';
import { supervisorLaunch } from './agentSupervisor';
import { TerminalOutput } from './terminalOutput';
import { delay, signalGroup, spawnErrorIn } from './processGroup';

export interface TerminalCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** An absolute directory. */
  readonly cwd: string;
  /** The whole environment of the command. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The most output bytes kept for `output()`. */
  readonly outputByteLimit: number;
}

/** How the command ended: its exit code, or the signal that ended it (ACP `TerminalExitStatus`). */
export interface TerminalExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface TerminalSnapshot {
  readonly output: string;
  readonly truncated: boolean;
  /** Absent while the command runs. */
  readonly exitStatus?: TerminalExit;
}

/** SIGTERM → SIGKILL, for `kill` and for the supervisor after the host is gone. */
const GRACE_MS = 1500;
/** How long an exit waits for pipes a leftover background child still holds. */
const DRAIN_MS = 1000;
/** Exit code of a command that could not be started (what a shell answers for one it cannot find). */
export const NOT_STARTED_EXIT_CODE = 127;

export class TerminalProcess {
  /** Resolves once the command has exited and its output is complete. */
  readonly exited: Promise<TerminalExit>;
  private readonly output: TerminalOutput;
  private readonly child: ChildProcess;
  private readonly outputs = new Emitter<string>();
  /** Live output as text (characters split across reads are joined first). */
  readonly onOutput: Event<string> = this.outputs.event;
  private exit: TerminalExit | undefined;
  private killing: Promise<void> | undefined;

  constructor(spec: TerminalCommand) {
    this.output = new TerminalOutput(Math.max(0, spec.outputByteLimit));
    const launch = supervisorLaunch(spec.command, spec.args, spec.env, GRACE_MS);
    // Detached: the supervisor leads a group of its own, which the command and its children join.
    this.child = spawn(launch.command, [...launch.args], { cwd: spec.cwd, env: launch.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    const live = new TextDecoder('utf-8');
    const streams = [this.child.stdout!, this.child.stderr!];
    for (const stream of streams) {
      stream.on('data', (chunk: Buffer) => {
        this.output.append(chunk);
        const text = live.decode(chunk, { stream: true });
        if (text !== '') {
          this.outputs.fire(text);
        }
      });
      stream.on('error', () => undefined);
    }
    const control = this.child.stdio[3] as Readable;
    let controlText = '';
    control.on('data', (chunk: Buffer) => {
      controlText = (controlText + chunk.toString('utf8')).slice(-4096);
    });
    control.on('error', () => undefined);
    // The exit status counts once every pipe is drained: output the command wrote before it ended belongs to it. A
    // child it left running in the background may hold the pipes open: the exit does not wait for that one long.
    const closed = [...streams, control].map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
    const drained = (): Promise<unknown> => Promise.race([Promise.all(closed), delay(DRAIN_MS)]);
    this.exited = new Promise<TerminalExit>((resolve) => {
      const settle = (exit: TerminalExit, note?: string): void => {
        if (note !== undefined) {
          const line = `${note}\n`;
          this.output.append(Buffer.from(line));
          this.outputs.fire(line);
        }
        this.exit = exit;
        this.outputs.dispose();
        resolve(exit);
      };
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        // A failed spawn (of the supervisor itself) emits no 'exit'.
        if (this.child.pid === undefined) {
          settle({ exitCode: NOT_STARTED_EXIT_CODE, signal: null }, `${spec.command}: could not be started (${error.code ?? error.message})`);
        }
      });
      this.child.once('exit', (code, signal) => {
        void drained().then(() => {
          const spawnError = spawnErrorIn(controlText);
          if (spawnError !== undefined) {
            settle({ exitCode: NOT_STARTED_EXIT_CODE, signal: null }, `${spec.command}: could not be started (${spawnError})`);
          } else {
            settle({ exitCode: code, signal });
          }
        });
      });
    });
  }

  /** The process group's id (the supervisor leads it), while it was started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.exit === undefined;
  }

  /** The output kept so far, whether it lost its start, and the exit status once there is one. */
  snapshot(): TerminalSnapshot {
    const exit = this.exit;
    return { output: this.output.text(exit !== undefined), truncated: this.output.truncated, ...(exit ? { exitStatus: exit } : {}) };
  }

  /** Ends the command and everything it started (SIGTERM, then SIGKILL); resolves once it has exited. */
  kill(graceMs = GRACE_MS): Promise<void> {
    this.killing ??= (async () => {
      const pid = this.child.pid;
      if (this.exit !== undefined || pid === undefined) {
        return;
      }
      signalGroup(pid, 'SIGTERM');
      const ended = await Promise.race([this.exited.then(() => true), delay(graceMs).then(() => false)]);
      // Children that outlived the command (or ignored SIGTERM) are in the group still: SIGKILL reaches them.
      signalGroup(pid, 'SIGKILL');
      if (!ended) {
        await this.exited;
      }
    })();
    return this.killing;
  }
}

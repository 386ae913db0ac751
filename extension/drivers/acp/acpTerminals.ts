/**
 * The ACP client's terminals (`terminal/create`, `output`, `wait_for_exit`, `kill`, `release`): commands an agent
 * asks the editor to run for a session. Each runs as a process of its own (transport/terminalProcess.ts) and is shown
 * to the person as it runs (kit/terminalViews.ts: an editor terminal per command); nothing runs where it cannot be
 * shown, nor in an untrusted workspace, nor outside the session's workspace folder. Stop on a run kills its
 * commands; the agent going away (disconnect, crash) kills them all. A released terminal is gone for the agent, but
 * its view keeps what it showed. Commands the agent runs itself and only reports are shown in the same views, within
 * the same limits (`shown`: acpShownCommands.ts).
 */
import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReleaseTerminalRequest,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type { TerminalView, TerminalViews } from '../kit/terminalViews';
import type { AcpClientHandlers } from './acpConnection';
import { TerminalProcess } from '../../transport/terminalProcess';
import type { AcpSession } from './acpSessions';
import { AcpShownCommands } from './acpShownCommands';

/** The most output bytes kept per terminal, whatever the agent asks (it may ask for less). */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Terminals an agent may hold at once on one connection (released ones do not count). */
export const MAX_TERMINALS = 32;

/**
 * A request the client refuses, as the JSON-RPC error it becomes (acpConnection.ts): `invalidParams` for a request
 * that may not run as asked, `notFound` for a terminal or session this client does not know.
 */
export class AcpClientRefusal extends Error {
  constructor(
    readonly kind: 'invalidParams' | 'notFound',
    message: string,
  ) {
    super(message);
    this.name = 'AcpClientRefusal';
  }
}

export interface AcpTerminalDeps {
  readonly connectionId: string;
  /** Where commands are shown (absent: none may run). */
  readonly views: TerminalViews | undefined;
  /** A session of this connection, by id. */
  session(sessionId: string): AcpSession | undefined;
  /** The title of the run, for the terminal's name. */
  runTitle(sessionId: string): string;
  /** The environment commands start from (the request's `env` is added to it). */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
}

interface AcpTerminal {
  readonly sessionId: string;
  readonly process: TerminalProcess;
  readonly view: TerminalView;
}

export class AcpTerminals {
  private readonly terminals = new Map<string, AcpTerminal>();
  /** The views of the commands the agent runs itself (nothing runs here for them). */
  readonly shown: AcpShownCommands;

  constructor(private readonly deps: AcpTerminalDeps) {
    const sessionCwd = (id: string): string | undefined => deps.session(id)?.cwd;
    this.shown = new AcpShownCommands({ ...deps, sessionCwd, runTitle: (id) => deps.runTitle(id), maxBytes: MAX_OUTPUT_BYTES, maxRunning: MAX_TERMINALS });
  }

  create(request: CreateTerminalRequest): CreateTerminalResponse {
    const views = this.deps.views;
    if (!views) {
      throw new AcpClientRefusal('invalidParams', 'This editor runs no commands for the agent here.');
    }
    const refusal = views.refusal();
    if (refusal !== undefined) {
      throw new AcpClientRefusal('invalidParams', refusal);
    }
    const session = this.deps.session(request.sessionId);
    if (!session) {
      throw new AcpClientRefusal('notFound', `There is no session ${request.sessionId} on this connection.`);
    }
    if (this.terminals.size >= MAX_TERMINALS) {
      throw new AcpClientRefusal('invalidParams', `The agent holds ${MAX_TERMINALS} terminals already: release one first.`);
    }
    const cwd = cwdInside(session.cwd, request.cwd ?? undefined);
    const env: Record<string, string | undefined> = { ...this.deps.baseEnv };
    for (const variable of request.env ?? []) {
      env[variable.name] = variable.value;
    }
    const args = request.args ?? [];
    const limit = Math.min(Math.max(0, Math.floor(request.outputByteLimit ?? MAX_OUTPUT_BYTES)), MAX_OUTPUT_BYTES);
    const terminalId = `term-${randomUUID()}`;
    const running = new TerminalProcess({ command: request.command, args, cwd, env, outputByteLimit: limit });
    const view = views.open(
      { connectionId: this.deps.connectionId, runId: session.sessionId, terminalId, runTitle: this.deps.runTitle(session.sessionId), command: request.command, args, cwd },
      () => void running.kill(),
    );
    running.onOutput((text) => view.output(text));
    void running.exited.then((status) => view.exited(status));
    this.terminals.set(terminalId, { sessionId: session.sessionId, process: running, view });
    return { terminalId };
  }

  output(request: TerminalOutputRequest): TerminalOutputResponse {
    const { output, truncated, exitStatus } = this.require(request).process.snapshot();
    return { output, truncated, ...(exitStatus ? { exitStatus } : {}) };
  }

  async waitForExit(request: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse> {
    const terminal = this.require(request);
    const status = await terminal.process.exited;
    return { exitCode: status.exitCode, signal: status.signal };
  }

  async kill(request: KillTerminalRequest): Promise<Record<string, never>> {
    const terminal = this.require(request);
    await terminal.process.kill();
    return {};
  }

  /** Kills the command if it still runs; the terminal id is no longer valid, its view keeps what it showed. */
  async release(request: ReleaseTerminalRequest): Promise<Record<string, never>> {
    const terminal = this.require(request);
    this.terminals.delete(request.terminalId);
    await terminal.process.kill();
    terminal.view.released();
    return {};
  }

  /** Stop on a run: its commands are killed (the agent may still read their output and release them). */
  async killSession(sessionId: string): Promise<void> {
    await Promise.all([...this.terminals.values()].filter((t) => t.sessionId === sessionId).map((t) => t.process.kill()));
  }

  /** The agent went away: every command is killed and released. */
  async disposeAll(): Promise<void> {
    this.shown.releaseAll();
    const all = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(all.map((t) => t.process.kill()));
    for (const terminal of all) {
      terminal.view.released();
    }
  }

  private require(request: { readonly sessionId: string; readonly terminalId: string }): AcpTerminal {
    const terminal = this.terminals.get(request.terminalId);
    // A terminal of another session is not this session's to read or stop.
    if (!terminal || terminal.sessionId !== request.sessionId) {
      throw new AcpClientRefusal('notFound', `There is no terminal ${request.terminalId} in this session (released, or never created).`);
    }
    return terminal;
  }
}

/**
 * The directory a command runs in: the request's (absolute), else the session's; links resolved, it must be the
 * session's workspace folder or inside it, and exist.
 */
export function cwdInside(sessionCwd: string, requested: string | undefined): string {
  if (requested !== undefined && !isAbsolute(requested)) {
    throw new AcpClientRefusal('invalidParams', `The terminal's cwd must be an absolute path: ${requested}`);
  }
  const real = (path: string): string => {
    try {
      const resolved = realpathSync(resolve(path));
      if (statSync(resolved).isDirectory()) {
        return resolved;
      }
    } catch {
      // said below
    }
    throw new AcpClientRefusal('invalidParams', `The terminal's cwd is not a directory: ${path}`);
  };
  const root = real(sessionCwd);
  const cwd = real(requested ?? sessionCwd);
  const inside = relative(root, cwd);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new AcpClientRefusal('invalidParams', `The terminal's cwd ${requested ?? cwd} is outside the session's workspace (${sessionCwd}): commands run only inside it.`);
  }
  return cwd;
}

/** The client handlers of the terminal methods, over one connection's terminals. */
export function terminalHandlers(terminals: AcpTerminals): Pick<AcpClientHandlers, 'createTerminal' | 'terminalOutput' | 'waitForTerminalExit' | 'killTerminal' | 'releaseTerminal'> {
  // Refusals are thrown synchronously by some methods: each becomes a rejected promise the connection maps.
  return {
    createTerminal: async (r) => terminals.create(r),
    terminalOutput: async (r) => terminals.output(r),
    waitForTerminalExit: (r) => terminals.waitForExit(r),
    killTerminal: (r) => terminals.kill(r),
    releaseTerminal: (r) => terminals.release(r),
  };
}

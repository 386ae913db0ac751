/**
 * Starting one ACP agent process: spawned from its launch spec (acpLaunch.ts), watched for an exit nobody asked for
 * (its reason: the spawn error, or the exit code or signal, with the tail of its stderr), and `initialize`d. A start
 * that fails is fatal for the connection (a profile mistake or a broken agent does not heal by retrying).
 */
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import type { FrameTap } from '../../transport/frameTap';
import { DriverError } from '../kit/errors';
import type { AcpClientHandlers } from './acpConnection';
import { AcpConnection } from './acpConnection';
import type { AgentLaunchSpec } from './acpLaunch';

const EXTENSION_VERSION = '0.2.0';

export interface StartedAgent {
  readonly agent: AcpConnection;
  /** Stops the process on purpose (no crash is reported for it); resolves once its process group is gone. */
  close(): Promise<void>;
  /** The `initialize` answer; rejects (fatal) when the agent cannot start. */
  readonly init: Promise<InitializeResponse>;
}

/** Starts the agent; `crashed` hears of an exit that `close` did not cause, with the reason to show. */
export function startAgent(spec: AgentLaunchSpec, tap: FrameTap, handlers: AcpClientHandlers, crashed: (reason: string) => void): StartedAgent {
  const agent = new AcpConnection({ ...spec, tap }, handlers);
  let closing = false;
  void agent.exited.then((exit) => {
    if (closing) {
      return;
    }
    const why = exit.spawnError
      ? `${spec.command} could not be started (${exit.spawnError}${exit.spawnError === 'ENOENT' ? ': it is not installed or not on PATH' : ''})`
      : (exit.stoppedBecause ?? `the agent exited (${exit.signal ?? `code ${exit.code}`})`);
    const tail = agent.process.stderrTail();
    crashed(`${why}${tail ? `:\n${tail}` : '.'}`);
  });
  const init = agent.initialize(EXTENSION_VERSION).catch(async (error: unknown) => {
    const exit = await Promise.race([agent.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
    throw new DriverError(exit?.spawnError ? `${spec.command} could not be started (${exit.spawnError}).` : `The agent did not initialize: ${String(error instanceof Error ? error.message : error)}`, 'fatal');
  });
  return {
    agent,
    close: () => {
      closing = true;
      return agent.close();
    },
    init,
  };
}

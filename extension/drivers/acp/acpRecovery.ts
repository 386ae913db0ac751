/**
 * What happens when a connected ACP agent dies. The first crash is restarted by itself: the agent process starts
 * again and every session it had live is taken up again — `session/resume` when the agent advertises it, else
 * `session/load` with the replay dropped (the journal already holds it) — and the person's mode and settings are
 * applied again. The turn that was running when it died stays interrupted (its end and the notice are already in
 * the transcript): nothing is sent again by itself, so nothing is done twice. A second crash within
 * `RESTART_WINDOW_MS` of the restart is not retried (an agent that crashes on every start would loop): the
 * connection fails with the agent's reason and offers *Restart*, as it always did. A session restored after a
 * reload is taken up the same way, when the person first sends to it (`ensureLive`).
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { DriverLog } from '../connectionManager';
import type { Clock } from '../kit/clock';
import { systemClock } from '../kit/clock';
import type { DriverRuns } from '../kit/driverRuns';
import { DriverError, errorText } from '../kit/errors';
import type { AcpConnection } from './acpConnection';
import type { AcpSessionAbilities } from './acpSessionAbilities';
import type { AcpSessionStore } from './acpSessionStore';
import type { AcpSession, AcpSessions } from './acpSessions';

/** A crash this soon after an automatic restart leaves the agent failed (the person restarts it). */
export const RESTART_WINDOW_MS = 5 * 60_000;

export interface AcpRecoveryDeps {
  /** Default: the system clock. */
  readonly clock?: Pick<Clock, 'now'>;
  readonly log: DriverLog;
  readonly sessions: AcpSessions;
  /** The door into the model (journaled). */
  readonly runs: DriverRuns;
  readonly storage: AcpSessionStore;
  /** Ends what waited on the dead agent (its requests expire, its turns end interrupted with `reason`). */
  agentGone(reason: string): Promise<void>;
  /** Closes the connection of the dead agent (and stops reconnecting). */
  disconnect(): Promise<void>;
  /** Starts the agent again; resolves once it is connected or the attempt failed. */
  reconnect(): Promise<void>;
  /** Leaves the connection failed with `reason`, offering *Restart*. */
  fail(reason: string): void;
  /** The running agent, once connected. */
  agent(): AcpConnection | undefined;
  /** How the running agent takes sessions up again (acpSessionAbilities.ts). */
  abilities(): AcpSessionAbilities;
  /** The running agent, or the error that says it is not running. */
  requireAgent(): AcpConnection;
  mcpServers(): readonly McpServer[];
  /** Applies the person's mode and settings again (the agent answers its defaults). */
  reapply(session: AcpSession): Promise<void>;
}

export class AcpRecovery {
  private restartedAt: number | undefined;

  constructor(private readonly deps: AcpRecoveryDeps) {}

  private now(): number {
    return (this.deps.clock ?? systemClock).now();
  }

  /** The agent died on its own; `connected`: after it had answered `initialize` (a crash at start would repeat). */
  async crashed(reason: string, connected: boolean): Promise<void> {
    this.deps.log.error(`ACP agent: ${reason}`);
    const live = this.liveSessions();
    const restart = connected && this.mayRestart();
    await this.deps.agentGone(restart ? 'The agent stopped; it is restarted.' : 'The agent stopped.');
    await this.deps.disconnect();
    if (restart && (await this.restart(live, reason))) {
      return;
    }
    await this.deps.disconnect();
    this.deps.fail(reason);
  }

  /**
   * A session restored from the journal is loaded when the person first sends to it (its replay dropped); Stop
   * meanwhile aborts the load (`$/cancel_request`). The load answers the agent's defaults: the person's mode and
   * model come back before anything is sent.
   */
  async ensureLive(session: AcpSession): Promise<AcpSession> {
    if (!session.live) {
      const agent = this.deps.requireAgent();
      const reopening = (session.reopening = new AbortController());
      try {
        await this.deps.storage.continue(agent, session, this.deps.abilities(), { mcpServers: this.deps.mcpServers(), abandon: reopening.signal });
      } catch (error) {
        throw reopening.signal.aborted ? new DriverError('Stopped: the agent was told it need not finish loading this session; send again to load it.') : error;
      } finally {
        session.reopening = undefined;
      }
      // A load (or resume) may answer the agent's defaults: the person's mode and model go again before anything is sent.
      await this.deps.reapply(session);
    }
    return session;
  }

  /** Whether a crash now is restarted by itself (none restarted within the window). */
  private mayRestart(): boolean {
    return this.restartedAt === undefined || this.now() - this.restartedAt > RESTART_WINDOW_MS;
  }

  /** The ids of the sessions the agent has live now (taken before the crash forgets them). */
  private liveSessions(): string[] {
    return this.deps.sessions.all().filter((s) => s.live).map((s) => s.sessionId);
  }

  /**
   * Restarts the agent and takes up `sessionIds` again. False when the agent did not come back (the caller fails
   * the connection); a session that cannot be taken up says so and is loaded when the person sends a message.
   */
  private async restart(sessionIds: readonly string[], reason: string): Promise<boolean> {
    this.restartedAt = this.now();
    this.deps.log.warn(`ACP agent: restarting it once after: ${reason}`);
    await this.deps.reconnect();
    const running = this.deps.agent();
    if (!running) {
      return false;
    }
    for (const id of sessionIds) {
      const session = this.deps.sessions.get(id);
      if (!session) {
        continue;
      }
      try {
        const how = await this.deps.storage.continue(running, session, this.deps.abilities(), { mcpServers: this.deps.mcpServers(), keepFields: true });
        await this.deps.reapply(session);
        await this.notice(session, `The agent stopped and was restarted; this session was ${how === 'resumed' ? 'resumed' : 'loaded again'}.`, 'info');
      } catch (error) {
        await this.notice(session, `The agent was restarted, but this session could not be taken up again (${errorText(error)}); it is tried again when you send a message.`, 'warning');
      }
    }
    return true;
  }

  private notice(session: AcpSession, text: string, level: 'info' | 'warning'): Promise<void> {
    return this.deps.runs.event(session.sessionId, { kind: 'notice', text, level });
  }
}

/**
 * What outlives the agent process for ACP sessions: the run index and journal (kit/runRecorder.ts), each session's
 * working directory and local change set (git tree snapshots, as for SCV: ACP agents deliver no change sets), the
 * mode and settings the person chose for it (acpSessionChoices.ts), the sign-in the user chose, and how a restored
 * session continues: `session/resume` where the agent offers it (no replay), else `session/load` with its updates
 * dropped while the agent replays them (the journal has them), or, for an agent that can do neither, an honest end.
 */
import { shownModeName } from './autonomousModes';
import type { RunFields } from '../../model/modelActions';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../../changeSets/localChangeSet';
import { TurnCheckpoints } from '../kit/turnCheckpoints';
import type { DriverContext } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import type { DriverSecrets } from '../kit/workspaceAccess';
import { errorText } from '../kit/errors';
import { runsChangeSetSink } from '../kit/localChangeSetSink';
import type { RestorePolicy } from '../kit/runJournaling';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AcpConnection } from './acpConnection';
import type { AcpSideEffects } from './acpEventMapping';
import type { AuthChoice } from './acpLaunch';
import { shownAgentTitle } from './acpRunTitles';
import type { AcpSessionAbilities } from './acpSessionAbilities';
import { AUTH_METHOD_KEY, forgetAuthChoice } from './acpLaunch';
import { chosenFromExtra } from './acpSessionChoices';
import type { AcpSession, AcpSessions } from './acpSessions';

export const RESTORED_DETAIL = 'Restored: it continues when you send a message';
const NOT_LOADABLE = 'This agent cannot continue a session after a reload; start a new one';
/** A closed session's detail: the agent freed it; it can be taken up again from the agent's list. */
export const CLOSED_DETAIL = 'Closed: the agent freed this session. "Open Agent Session…" takes it up again';

export class AcpSessionStore {
  private readonly localChanges: LocalChangeSets;
  /** The session's files at its start and after each turn (issue #26: rewind). */
  readonly checkpoints: TurnCheckpoints;

  constructor(
    private readonly ctx: DriverContext,
    private readonly sessions: AcpSessions,
    private readonly runs: DriverRuns,
    private readonly secrets: DriverSecrets,
  ) {
    this.localChanges = new LocalChangeSets(runsChangeSetSink(runs, ctx.log));
    this.checkpoints = new TurnCheckpoints(ctx, runs);
  }

  /**
   * How a stored session comes back (DriverRuns.replay): with its transcript, not live until it is taken up. Not
   * `lazy` (issue #25 §2): every session but a closed one comes back ready to continue (`idle`, below), so few are
   * finished; and which were closed is in the journal's last state, not in the index (saved less often).
   */
  restorePolicy(): RestorePolicy<never> {
    return {
      open: (stored) => {
        const cwd = typeof stored.extra?.cwd === 'string' ? stored.extra.cwd : this.ctx.workspaceFolder ?? '';
        const session = this.sessions.add(stored.runId, cwd, false);
        session.chosen = chosenFromExtra(stored.extra);
        const record = localChangeSetFromExtra(stored.extra);
        if (record) {
          session.localChanges = record;
        }
        return true;
      },
      // The journal has every state the session went through; the index is saved less often.
      state: 'as replayed',
      restored: (stored, run) => {
        // Shown again once the run is back in the store (the sink drops updates of runs it does not know): from the
        // session's start to the working tree now, as after a turn.
        const session = this.sessions.get(stored.runId);
        if (session?.localChanges) {
          this.localChanges.restore(stored.runId, session.localChanges);
          void this.refreshChangeSet(session);
        }
        // Whatever it was doing when the window went away ended with the agent process, and so did its requests.
        const expire = 'The agent stopped with the window; it no longer waits for this.';
        // A session the person closed stays closed: the agent freed it, and "Open Agent Session…" takes it up.
        if (run.state === 'completed' && run.stateDetail === CLOSED_DETAIL) {
          return { expire };
        }
        const interrupted = run.state === 'running' || run.state === 'waiting_approval';
        return { expire, fields: interrupted ? { state: 'interrupted', stateDetail: 'The window was reloaded during a turn' } : { state: 'idle', stateDetail: RESTORED_DETAIL } };
      },
    };
  }

  /** After `initialize`: restored sessions say whether they can go on. */
  markRestorable(abilities: AcpSessionAbilities): void {
    if (abilities.load || abilities.resume) {
      return;
    }
    for (const session of this.sessions.all()) {
      if (!session.live && this.runs.get(session.sessionId)?.state === 'idle') {
        void this.runs.fields(session.sessionId, { state: 'completed', stateDetail: NOT_LOADABLE });
      }
    }
  }

  /** A session this window created: indexed, and its working tree snapshotted for the change set. */
  async created(session: AcpSession, title: string, provider: string): Promise<void> {
    const fields: RunFields = { title, provider, state: 'starting', createdAt: Date.now(), workspaceRoots: [session.cwd] };
    await this.runs.fields(session.sessionId, fields);
    await this.save(session);
    const record = await this.localChanges.begin(session.sessionId, session.cwd).catch(() => undefined);
    if (record) {
      session.localChanges = record;
      await this.save(session);
    }
    // Before the first prompt goes out, like the change set's baseline: the files before any turn.
    await this.checkpoints.boundary(session.sessionId, [session.cwd]);
  }

  /** At the end of each turn: the change set so far, and a checkpoint of the session's files. */
  turnEnded(session: AcpSession): void {
    void this.refreshChangeSet(session);
    void this.checkpoints.boundary(session.sessionId, [session.cwd]);
  }

  /**
   * Takes up a session this agent process does not have: `session/resume` where offered (nothing replayed), else
   * `session/load`, whose replay is dropped (the journal holds it). `preferLoad`: a session started elsewhere, whose
   * history only a load's replay brings — loaded where the agent can, and the replay kept. While the agent takes it
   * up the run is starting (so Stop is offered: `abandon` aborts the request with `$/cancel_request`); one that
   * fails leaves the run as it was. `keepFields` (a restart after a crash): the run's fields are the caller's.
   */
  async continue(
    agent: AcpConnection,
    session: AcpSession,
    abilities: AcpSessionAbilities,
    options: { readonly mcpServers: readonly McpServer[]; readonly preferLoad?: boolean; readonly abandon?: AbortSignal; readonly keepFields?: boolean },
  ): Promise<'resumed' | 'loaded'> {
    const how = abilities.load && (options.preferLoad === true || !abilities.resume) ? 'loaded' : abilities.resume ? 'resumed' : undefined;
    if (how === undefined) {
      throw new Error(NOT_LOADABLE);
    }
    const before = this.runs.get(session.sessionId);
    const fields = options.keepFields !== true;
    if (fields) {
      await this.runs.fields(session.sessionId, { state: 'starting', stateDetail: how === 'loaded' ? 'The agent loads this session…' : 'The agent resumes this session…' });
    }
    session.loading = how === 'loaded' && options.preferLoad !== true;
    try {
      const { mcpServers, abandon } = options;
      const answer = how === 'resumed' ? await agent.resumeSession(session.sessionId, session.cwd, mcpServers, abandon) : await agent.loadSession(session.sessionId, session.cwd, mcpServers, abandon);
      session.modes = answer.modes ?? undefined;
      session.configOptions = answer.configOptions ?? undefined;
      session.live = true;
      session.loading = false;
    } catch (error) {
      // A load that failed or was abandoned leaves `loading` on: the agent may still be replaying it, and a session
      // that is not live gets no other updates — the replay is dropped whenever it comes.
      if (fields && before) {
        await this.runs.fields(session.sessionId, { state: before.state, stateDetail: before.stateDetail ?? '' });
      }
      throw error;
    }
    if (fields) {
      await this.runs.fields(session.sessionId, { state: 'idle', stateDetail: '' });
    }
    return how;
  }

  /** After each turn: the change set from the session's start to the working tree now. */
  async refreshChangeSet(session: AcpSession): Promise<void> {
    if (session.localChanges) {
      session.localChanges = await this.localChanges.refresh(session.sessionId, session.localChanges).catch((error: unknown) => {
        this.ctx.log.warn(`Change set of ${session.sessionId}: ${errorText(error)}`);
        return session.localChanges!;
      });
      await this.save(session);
    }
  }

  /** Folds what an update changed about the session (mode, config options) into it, then shows it on the run. */
  applySessionEffects(session: AcpSession, effects: AcpSideEffects): void {
    if (effects.modeId !== undefined && session.modes) {
      session.modes = { ...session.modes, currentModeId: effects.modeId };
    }
    if (effects.configOptions) {
      session.configOptions = effects.configOptions;
    }
    this.publishSessionState(session, effects);
  }

  /**
   * Mode and model shown with the run (the model's `model` field reads "<model> · <mode>"); a mode that acts
   * without asking says so there, so the header, the board and the tree all show it (autonomousModes.ts).
   */
  publishSessionState(session: AcpSession, effects: AcpSideEffects): void {
    const fields: { -readonly [K in keyof RunFields]: RunFields[K] } = {};
    const title = shownAgentTitle(effects.title);
    if (title !== undefined) {
      fields.title = title;
    }
    if (effects.commands) {
      // Offered in the composer after a leading "/" (what the agent calls its commands, without the slash).
      fields.slashCommands = effects.commands.map((c) => ({ name: c.name.replace(/^\//, ''), description: c.description, ...(c.hint ? { hint: c.hint } : {}) }));
    }
    const model = session.configOptions?.find((o) => o.category === 'model' || o.id === 'model');
    const modelName = model && model.type === 'select' ? String(model.currentValue) : undefined;
    const current = session.modes?.availableModes.find((m) => m.id === session.modes?.currentModeId);
    const mode = current === undefined ? undefined : shownModeName(current.id, current.name);
    const shown = [modelName, mode].filter(Boolean).join(' · ');
    if (shown !== '') {
      fields.model = shown;
    }
    if (Object.keys(fields).length > 0) {
      void this.runs.fields(session.sessionId, fields);
    }
  }

  /** Signs in with the method the user chose before (kept in the secret store), if the agent still offers it. */
  async authenticateIfChosen(agent: AcpConnection, methods: readonly AuthChoice[]): Promise<void> {
    const chosen = await this.secrets.get(AUTH_METHOD_KEY);
    if (chosen === undefined || !methods.some((m) => m.id === chosen)) {
      return;
    }
    try {
      await agent.authenticate(chosen);
    } catch (error) {
      this.ctx.log.warn(`Sign-in with ${chosen} was refused: ${errorText(error)}`);
      await forgetAuthChoice(this.secrets);
    }
  }

  /** Keeps the session's index entry: its working directory, local change set and the person's choices. */
  save(session: AcpSession): Promise<void> {
    const chosen = session.chosen.modeId !== undefined || session.chosen.config !== undefined ? { chosen: session.chosen } : {};
    return this.runs.saveRun(session.sessionId, { cwd: session.cwd, ...(session.localChanges ? localChangeSetExtra(session.localChanges) : {}), ...chosen });
  }
}

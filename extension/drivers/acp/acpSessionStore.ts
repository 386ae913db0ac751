/**
 * What outlives the agent process for ACP sessions: the run index and journal (kit/runRecorder.ts), each session's
 * working directory and local change set (git tree snapshots, as for SCV: ACP agents deliver no change sets), the
 * mode and settings the person chose for it (acpSessionChoices.ts), the sign-in the user chose, and how a restored session continues — `session/load` with its updates dropped while the
 * agent replays them (the journal has them), or, for an agent that cannot load sessions, an honest end.
 */
import { shownModeName } from './autonomousModes';
import type { RunFields } from '../../model/modelActions';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../../changeSets/localChangeSet';
import type { DriverContext } from '../connectionManager';
import { storedRunOf } from '../kit/connectionJournal';
import type { DriverRuns } from '../kit/driverRuns';
import type { DriverSecrets } from '../kit/workspaceAccess';
import { errorText } from '../kit/errors';
import { storeChangeSetSink } from '../kit/localChangeSetSink';
import type { RunRecorder } from '../kit/runRecorder';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AcpConnection } from './acpConnection';
import type { AcpSideEffects } from './acpEventMapping';
import type { AuthChoice } from './acpLaunch';
import { AUTH_METHOD_KEY, forgetAuthChoice } from './acpLaunch';
import { chosenFromExtra } from './acpSessionChoices';
import type { AcpSession, AcpSessions } from './acpSessions';

const RESTORED_DETAIL = 'Restored: it continues when you send a message';
const NOT_LOADABLE = 'This agent cannot continue a session after a reload; start a new one';

export class AcpSessionStore {
  private readonly localChanges: LocalChangeSets;

  constructor(
    private readonly ctx: DriverContext,
    private readonly recorder: RunRecorder<never>,
    private readonly sessions: AcpSessions,
    private readonly runs: DriverRuns,
    private readonly secrets: DriverSecrets,
  ) {
    this.localChanges = new LocalChangeSets(storeChangeSetSink(ctx.store, ctx.connectionId, ctx.log));
  }

  /** Replays the journal: every stored session comes back with its transcript, not live until it is loaded. */
  async restore(): Promise<void> {
    await this.recorder.replay({
      open: (stored) => {
        const cwd = typeof stored.extra?.cwd === 'string' ? stored.extra.cwd : this.ctx.workspaceFolder ?? '';
        const session = this.sessions.add(stored.runId, cwd, false);
        session.chosen = chosenFromExtra(stored.extra);
        const record = localChangeSetFromExtra(stored.extra);
        if (record) {
          session.localChanges = record;
        }
        return { title: stored.title, ...(stored.provider ? { provider: stored.provider } : {}), ...(stored.model ? { model: stored.model } : {}), createdAt: stored.createdAt, ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}) };
      },
      close: async (stored) => {
        // Whatever it was doing when the window went away ended with the agent process, and so did its requests.
        for (const approvalId of this.runs.get(stored.runId)?.pendingApprovals ?? []) {
          await this.recorder.event(stored.runId, { kind: 'approvalSettled', approvalId, expired: true, reason: 'The agent stopped with the window; it no longer waits for this.' });
        }
        const state = this.runs.get(stored.runId)?.state;
        await this.recorder.fields(stored.runId, state === 'running' || state === 'waiting_approval' ? { state: 'interrupted', stateDetail: 'The window was reloaded during a turn' } : { state: 'idle', stateDetail: RESTORED_DETAIL });
        // Shown again once the run is back in the store (the sink drops updates of runs it does not know): from the
        // session's start to the working tree now, as after a turn.
        const session = this.sessions.get(stored.runId);
        if (session?.localChanges) {
          this.localChanges.restore(stored.runId, session.localChanges);
          void this.refreshChangeSet(session);
        }
      },
    });
  }

  /** After `initialize`: restored sessions say whether they can go on. */
  markRestorable(canLoad: boolean): void {
    if (canLoad) {
      return;
    }
    for (const session of this.sessions.all()) {
      if (!session.live && this.runs.get(session.sessionId)?.state === 'idle') {
        void this.recorder.fields(session.sessionId, { state: 'completed', stateDetail: NOT_LOADABLE });
      }
    }
  }

  /** A session this window created: indexed, and its working tree snapshotted for the change set. */
  async created(session: AcpSession, title: string, provider: string): Promise<void> {
    const fields: RunFields = { title, provider, state: 'starting', createdAt: Date.now(), workspaceRoots: [session.cwd] };
    await this.recorder.fields(session.sessionId, fields);
    await this.save(session);
    const record = await this.localChanges.begin(session.sessionId, session.cwd).catch(() => undefined);
    if (record) {
      session.localChanges = record;
      await this.save(session);
    }
  }

  /**
   * The agent process takes the session again: `session/resume` when it advertises it and `resume` is asked for (no
   * replay), else `session/load` with its replayed updates dropped (the journal holds them). `abandon` aborts the
   * request (`$/cancel_request`): the person stopped waiting. The run's fields are the caller's.
   */
  async reopen(agent: AcpConnection, session: AcpSession, how: { readonly canLoad: boolean; readonly resume: boolean }, mcpServers: readonly McpServer[], abandon?: AbortSignal): Promise<void> {
    if (!how.resume && !how.canLoad) {
      throw new Error(NOT_LOADABLE);
    }
    session.loading = !how.resume;
    // A load that failed or was abandoned leaves `loading` on: the agent may still be replaying it, and a session
    // that is not live gets no other updates — the replay is dropped whenever it comes.
    const reopened = how.resume ? await agent.resumeSession(session.sessionId, session.cwd, mcpServers, abandon) : await agent.loadSession(session.sessionId, session.cwd, mcpServers, abandon);
    session.modes = reopened.modes ?? undefined;
    session.configOptions = reopened.configOptions ?? undefined;
    session.live = true;
    session.loading = false;
  }

  /**
   * `session/load` of a restored session (see `reopen`); it then waits for a message. While the agent loads it the
   * run is starting (so Stop is offered: it abandons the load); a load that fails leaves the run as it was.
   */
  async load(agent: AcpConnection, session: AcpSession, canLoad: boolean, mcpServers: readonly McpServer[], abandon?: AbortSignal): Promise<void> {
    const before = this.runs.get(session.sessionId);
    if (canLoad) {
      await this.recorder.fields(session.sessionId, { state: 'starting', stateDetail: 'The agent loads this session…' });
    }
    try {
      await this.reopen(agent, session, { canLoad, resume: false }, mcpServers, abandon);
    } catch (error) {
      if (canLoad && before) {
        await this.recorder.fields(session.sessionId, { state: before.state, stateDetail: before.stateDetail ?? '' });
      }
      throw error;
    }
    await this.recorder.fields(session.sessionId, { state: 'idle', stateDetail: '' });
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
    if (effects.title) {
      fields.title = effects.title;
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
      void this.recorder.fields(session.sessionId, fields);
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
    const run = this.runs.get(session.sessionId);
    if (!run) {
      return Promise.resolve();
    }
    const chosen = session.chosen.modeId !== undefined || session.chosen.config !== undefined ? { chosen: session.chosen } : {};
    const stored = storedRunOf(run, { cwd: session.cwd, ...(session.localChanges ? localChangeSetExtra(session.localChanges) : {}), ...chosen });
    return this.recorder.saveRun(stored).catch((error: unknown) => this.ctx.log.error(`Could not store session ${session.sessionId}: ${errorText(error)}`));
  }
}

/**
 * The ACP driver: an Agent Client Protocol agent (Claude Code, Codex, Gemini CLI, …) as a child process of the
 * extension host. Unlike a daemon it dies with the window, so "connect" spawns it and `initialize`s it; a run is one
 * of its sessions (run id = session id), created with `session/new` in the workspace folder. Everything folded into a
 * run is journaled (kit/runRecorder.ts); after a reload the transcripts come back from the journal, and a session
 * continues through `session/load` — while the agent replays it, its updates are dropped, since the journal already
 * has them — when the agent can load sessions. A crash is not retried by itself: the connection fails with the tail
 * of the agent's stderr and offers *Restart*. The client's file methods (`fs/read_text_file`, `fs/write_text_file`)
 * go through the editor (WorkspaceAccess): an agent that uses them sees unsaved edits and its writes are undoable;
 * agents that read and write the disk themselves (Claude Code, Codex) are not covered by that.
 */
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';
import type { Capability } from '../../model/modelTypes';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { Driver, NewRunChoices, StartRunOptions } from '../driver';
import { BaseDriver } from '../kit/baseDriver';
import type { ConnectionScope } from '../kit/connectionScope';
import type { ActionAnswers, ActionInput, ActionOffer, ActionResult, ActionTarget } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import { connectionRecorder } from '../kit/connectionJournal';
import type { RunRecorder } from '../kit/runRecorder';
import { Emitter } from '../../base/emitter';
import { acpFacts, nextAcpActionInput, performAcpAction, restartOffer } from './acpActions';
import { AcpConnection } from './acpConnection';
import { readThroughEditor, writeThroughEditor } from './acpEditorAccess';
import { authChoices, launchSpecOf } from './acpLaunch';
import { acpSecrets, registerLaunchSecrets } from './acpSecrets';
import type { DriverSecrets } from '../kit/workspaceAccess';
import type { AuthChoice, ForgottenSignIn } from './acpLaunch';
import { AcpSessionSettings } from './acpSessionChoices';
import { AcpSessionStarts } from './acpSessionStarts';
import { AcpSessionStore } from './acpSessionStore';
import { AcpSignIn } from './acpSignIn';
import type { AcpSession } from './acpSessions';
import { AcpSessions } from './acpSessions';
import { AcpTurns } from './acpTurns';

const EXTENSION_VERSION = '0.2.0';
/** Messages sent during a turn wait in an editable queue (`run.queue`); runs end only when the user stops them. */
const ACP_CAPABILITIES: readonly Capability[] = ['run.start', 'run.queue', 'run.cancel', 'approvals', 'approvals.allowSimilar', 'changeSets.local'];

export class AcpDriver extends BaseDriver implements Driver {
  readonly protocol = 'acp' as const;
  private agent: AcpConnection | undefined;
  private init: InitializeResponse | undefined;
  private readonly recorder: RunRecorder<never>;
  private readonly sessions = new AcpSessions();
  private readonly turns: AcpTurns;
  private readonly storage: AcpSessionStore;
  private readonly offers = this.driverScope.add(new Emitter<ActionOffer>());
  readonly onOffer = this.offers.event;
  private crashOffer: ActionOffer | undefined;
  /** Where sign-ins are kept: the editor's secret store, or (without one, in tests) this driver's memory. */
  private readonly secrets: DriverSecrets;
  private readonly signIns: AcpSignIn;
  private readonly settings: AcpSessionSettings;
  private readonly starts = new AcpSessionStarts({
    agent: () => this.requireAgent(),
    fallbackCwd: () => this.ctx.profile.cwd ?? this.ctx.workspaceFolder,
    name: this.ctx.profile.name,
    canSignIn: () => this.authMethods.length > 0,
  });

  constructor(ctx: DriverContext) {
    super(ctx);
    this.secrets = acpSecrets(ctx.secrets);
    this.signIns = new AcpSignIn({ secrets: this.secrets, isConnected: () => this.ctx.store.state.connections.get(this.connectionId)?.state.kind === 'connected', restart: () => this.restart() });
    this.recorder = connectionRecorder(ctx, z.never());
    this.storage = new AcpSessionStore(ctx, this.recorder, this.sessions, this.runs, this.secrets);
    this.turns = new AcpTurns({
      recorder: this.recorder,
      runs: this.runs,
      sessions: this.sessions,
      log: ctx.log,
      connection: () => this.agent,
      promptCapabilities: () => this.init?.agentCapabilities?.promptCapabilities,
      workspace: ctx.workspace,
      turnEnded: (session) => void this.storage.refreshChangeSet(session),
      publishQueue: (runId, queue, paused) => ctx.store.dispatch({ type: 'runQueue', runKey: this.runs.key(runId), queue, paused }),
      sideEffects: (session, effects) => {
        this.storage.applySessionEffects(session, effects);
        this.settings.followAgent(session, effects);
      },
      connectionId: this.connectionId, save: (session) => this.storage.save(session),
      provider: () => this.init?.agentInfo?.title ?? this.init?.agentInfo?.name ?? this.ctx.profile.name,
    });
    this.settings = new AcpSessionSettings({
      agent: () => this.requireAgent(),
      show: (session, effects) => this.storage.applySessionEffects(session, effects),
      save: (session) => this.storage.save(session),
      notice: (session, text) => this.recorder.event(session.sessionId, { kind: 'notice', text, level: 'warning' }).catch(() => undefined),
      log: ctx.log,
    });
  }

  get authMethods(): readonly AuthChoice[] {
    return authChoices(this.init?.authMethods);
  }

  protected override async loadStorage(): Promise<void> {
    await this.storage.restore();
  }

  protected override async connectOnce(connection: ConnectionScope): Promise<void> {
    this.crashOffer = undefined;
    const spec = await launchSpecOf(this.ctx.profile, this.ctx.workspaceFolder, this.secrets, process.env, this.ctx.profileOrigin);
    registerLaunchSecrets(spec.env);
    const agent = new AcpConnection({ ...spec, tap: this.ctx.tap }, {
      sessionUpdate: (n) => this.turns.onUpdate(n),
      requestPermission: (r) => this.turns.onPermission(r),
      readTextFile: (r) => readThroughEditor(this.ctx.workspace, r),
      writeTextFile: (r) => writeThroughEditor(this.ctx.workspace, r),
      createElicitation: (r) => this.turns.elicitations.create(r), completeElicitation: (n) => this.turns.elicitations.complete(n),
    });
    let closing = false;
    connection.add({ dispose: () => {
      closing = true;
      this.agent = undefined;
      this.starts.forget();
      void agent.close();
    } });
    void agent.exited.then((exit) => {
      if (closing) {
        return;
      }
      const why = exit.spawnError
        ? `${spec.command} could not be started (${exit.spawnError}${exit.spawnError === 'ENOENT' ? ': it is not installed or not on PATH' : ''})`
        : (exit.stoppedBecause ?? `the agent exited (${exit.signal ?? `code ${exit.code}`})`);
      const tail = agent.process.stderrTail();
      void this.agentCrashed(`${why}${tail ? `:\n${tail}` : '.'}`);
    });
    const init = await agent.initialize(EXTENSION_VERSION).catch(async (error: unknown) => {
      const exit = await Promise.race([agent.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
      throw new DriverError(exit?.spawnError ? `${spec.command} could not be started (${exit.spawnError}).` : `The agent did not initialize: ${String(error instanceof Error ? error.message : error)}`, 'fatal');
    });
    this.init = init;
    this.agent = agent;
    await this.storage.authenticateIfChosen(agent, this.authMethods);
    this.ctx.store.dispatch({
      type: 'connectionInfo',
      connectionId: this.connectionId,
      capabilities: ACP_CAPABILITIES,
      serverDescription: [init.agentInfo?.title ?? init.agentInfo?.name, init.agentInfo?.version].filter(Boolean).join(' ') || 'ACP agent',
    });
    this.storage.markRestorable(init.agentCapabilities?.loadSession === true);
  }

  protected override isFatal(error: unknown): boolean {
    // A profile mistake or an agent that cannot start does not heal by retrying.
    return error instanceof DriverError && error.code === 'fatal';
  }

  protected override async afterDisconnect(): Promise<void> {
    await this.turns.agentGone('The agent was stopped.');
  }

  override flushStorage(): Promise<void> {
    return this.recorder.flush();
  }

  protected override closeStorage(): Promise<void> {
    return this.recorder.close();
  }

  /** The models and modes the agent offers a new run (asked before its prompt: see acpSessionStarts.ts). */
  newRunChoices(workspaceRoots: readonly string[]): Promise<NewRunChoices> {
    return this.starts.choices(workspaceRoots);
  }

  async startRun(options: StartRunOptions): Promise<string> {
    const { cwd, created } = await this.starts.take(options.workspaceRoots);
    const session = this.sessions.add(created.sessionId, cwd, true);
    session.modes = created.modes ?? undefined;
    this.storage.applySessionEffects(session, { configOptions: created.configOptions ?? [] });
    // What the agent sent about the session before the driver knew it (its slash commands) comes in now.
    this.turns.takeEarlyUpdates(session);
    const title = options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'New session';
    await this.storage.created(session, title, this.turns.subagents.provider());
    // The model and mode asked for go to the agent before the first prompt (what it cannot do is said).
    await this.settings.applyNew(session, options.model, options.permission);
    this.turns.start(session, options.prompt);
    return created.sessionId;
  }

  async sendMessage(runId: string, text: string): Promise<void> {
    const session = await this.liveSession(runId);
    await this.turns.send(session, text);
  }

  async cancelRun(runId: string): Promise<void> {
    await this.turns.cancel(this.sessions.require(runId));
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette'): Promise<void> {
    await this.turns.decide(runId, approvalId, decision, by);
  }

  editQueueEntry(runId: string, queueId: string, revision: number, prompt: string): Promise<void> {
    return this.queueOp(runId, (s) => this.sessions.edit(s, queueId, revision, prompt));
  }

  moveQueueEntry(runId: string, queueId: string, revision: number, beforeQueueId: string | null): Promise<void> {
    return this.queueOp(runId, (s) => this.sessions.move(s, queueId, revision, beforeQueueId));
  }

  removeQueueEntry(runId: string, queueId: string, revision: number): Promise<void> {
    return this.queueOp(runId, (s) => this.sessions.remove(s, queueId, revision));
  }

  pauseQueue(runId: string, paused: boolean): Promise<void> {
    return this.turns.pause(this.sessions.require(runId), paused);
  }

  refreshChangeSet(runId: string): Promise<void> {
    return this.storage.refreshChangeSet(this.sessions.require(runId));
  }

  performAction(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
    return performAcpAction(this, command, target, answers);
  }

  nextActionInput(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionInput | undefined> {
    return Promise.resolve(nextAcpActionInput(this, command, target, answers));
  }

  actionFacts(runId?: string): readonly string[] {
    return acpFacts(this, runId);
  }

  openOffers(): readonly ActionOffer[] {
    return this.crashOffer ? [this.crashOffer] : [];
  }

  get elicitations(): AcpTurns['elicitations'] { return this.turns.elicitations; }

  /** The session of a run, for actions (modes, config options). */
  session(runId: string): AcpSession | undefined {
    return this.sessions.get(runId);
  }

  async setMode(runId: string, modeId: string): Promise<void> {
    await this.settings.setMode(await this.liveSession(runId), modeId);
  }

  async setConfigOption(runId: string, configId: string, value: string): Promise<void> {
    await this.settings.setConfigOption(await this.liveSession(runId), configId, value);
  }

  /** Keeps the sign-in (method and variables) in the secret store and restarts the agent with it. */
  signIn(method: AuthChoice, values: Readonly<Record<string, string>>): Promise<void> {
    return this.signIns.signIn(method, values);
  }

  /** Deletes the kept sign-in (also values the agent's methods name); a running agent restarts without it. */
  signOut(): Promise<ForgottenSignIn & { readonly restarted: boolean }> {
    return this.signIns.signOut(this.authMethods);
  }

  /** Restarts the agent process (after a crash, or a new sign-in). */
  async restart(): Promise<void> {
    await this.disconnect();
    await this.connect();
  }

  private async agentCrashed(reason: string): Promise<void> {
    this.ctx.log.error(`ACP agent: ${reason}`);
    await this.turns.agentGone('The agent stopped.');
    // Not retried by itself: an agent that crashes at start would crash again; the user restarts it.
    await this.disconnect();
    this.ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state: { kind: 'failed', reason } });
    this.crashOffer = restartOffer(this.connectionId, this.ctx.profile.name, reason);
    this.offers.fire(this.crashOffer);
  }

  private async liveSession(runId: string): Promise<AcpSession> {
    const session = this.sessions.require(runId);
    if (!session.live) {
      await this.storage.load(this.requireAgent(), session, this.init?.agentCapabilities?.loadSession === true);
      // The load answers the agent's defaults: the person's mode and model come back before anything is sent.
      await this.settings.reapply(session);
    }
    return session;
  }

  private queueOp(runId: string, op: (session: AcpSession) => void): Promise<void> {
    const session = this.sessions.require(runId);
    op(session);
    return Promise.resolve(this.turns.publishQueue(session));
  }

  private requireAgent(): AcpConnection {
    if (!this.agent) {
      throw new DriverError(`${this.ctx.profile.name} is not running. Connect it first.`);
    }
    return this.agent;
  }
}


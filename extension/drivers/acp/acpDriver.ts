/**
 * The ACP driver: an Agent Client Protocol agent (Claude Code, Codex, Gemini CLI, …) as a child process of the
 * extension host; "connect" spawns and `initialize`s it (acpAgentStart.ts), and a run is one of its sessions (run id =
 * session id). Runs are journaled (kit/runRecorder.ts); after a reload a session continues through `session/resume`,
 * else `session/load` with its replay dropped. The agent's other sessions, forks and closes: acpAgentSessions.ts; a
 * crash restarted once: acpRecovery.ts; MCP servers: acpMcpServers.ts; commands in the client's terminals:
 * acpTerminals.ts. `fs/*` go through the editor (WorkspaceAccess: unsaved edits seen, writes undoable); agents that
 * write the disk themselves (Claude Code, Codex) are reverted from the run's change set instead.
 */
import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import * as z from 'zod/mini';
import type { Capability } from '../../model/modelTypes';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { Driver, NewRunChoices, StartRunOptions } from '../driver';
import { BaseDriver } from '../kit/baseDriver';
import type { ConnectionScope } from '../kit/connectionScope';
import type { ActionAnswers, ActionInput, ActionOffer, ActionResult, ActionTarget } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { Journaling } from '../kit/runJournaling';
import { Emitter } from '../../base/emitter';
import { acpFacts, nextAcpActionInput, performAcpAction, restartOffer } from './acpActions';
import { AcpAgentSessions } from './acpAgentSessions';
import type { AcpConnection } from './acpConnection';
import { startAgent } from './acpAgentStart';
import { readThroughEditor, writeThroughEditor } from './acpEditorAccess';
import { authChoices, launchSpecOf } from './acpLaunch';
import { defaultRunTitle } from './acpRunTitles';
import { acpSecrets, registerLaunchSecrets } from './acpSecrets';
import type { DriverSecrets } from '../kit/workspaceAccess';
import type { AuthChoice, ForgottenSignIn } from './acpLaunch';
import { sessionAbilitiesOf, type AcpSessionAbilities } from './acpSessionAbilities';
import { AcpSessionSettings } from './acpSessionChoices';
import { AcpSessionStarts } from './acpSessionStarts';
import { AcpSessionStore } from './acpSessionStore';
import { AcpSignIn } from './acpSignIn';
import type { TurnCheckpoints } from '../kit/turnCheckpoints';
import type { AcpSession } from './acpSessions';
import { AcpSessions } from './acpSessions';
import { AcpTerminals, terminalHandlers } from './acpTerminals';
import { AcpTurns } from './acpTurns';
import { mcpServerNotice, planMcpServers, type McpServerPlan } from './acpMcpServers';
import { AcpRecovery } from './acpRecovery';

/** Messages sent during a turn wait in an editable queue (`run.queue`); runs end only when the user stops them. */
const ACP_CAPABILITIES: readonly Capability[] = ['run.start', 'run.queue', 'run.cancel', 'run.workingDirectory', 'approvals', 'approvals.allowSimilar', 'changeSets.local'];

export class AcpDriver extends BaseDriver implements Driver {
  readonly protocol = 'acp' as const;
  /** Journaled without a cursor: a session is taken up again through the agent (session/resume or /load); removed: forgotten. */
  protected readonly journaling: Journaling<never> = { cursor: z.never(), books: 'none', removed: (runId) => this.sessions.forget(runId) };
  private agent: AcpConnection | undefined;
  private terminals: AcpTerminals | undefined;
  /** The last agent process's stop: disconnect waits for it (a restart must not find the old one still writing). */
  private stopped: Promise<void> | undefined;
  private init: InitializeResponse | undefined;
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
  /** The agent's sessions beyond "New Run…": list and open, fork, close (acpAgentSessions.ts). */
  readonly agentSessions: AcpAgentSessions;
  /** The profile's MCP servers as this agent process takes them (acpMcpServers.ts). */
  private mcp: McpServerPlan = { passed: [], withheld: [] };
  private readonly recovery: AcpRecovery;
  private readonly starts = new AcpSessionStarts({ agent: () => this.requireAgent(), mcpServers: () => this.mcp.passed, fallbackCwd: () => this.listCwd, name: this.ctx.profile.name, canSignIn: () => this.authMethods.length > 0, startMode: this.ctx.profile.startMode });

  constructor(ctx: DriverContext) {
    super(ctx);
    this.secrets = acpSecrets(ctx.secrets);
    this.signIns = new AcpSignIn({ secrets: this.secrets, isConnected: () => this.ctx.store.state.connections.get(this.connectionId)?.state.kind === 'connected', restart: () => this.restart() });
    this.storage = new AcpSessionStore(ctx, this.sessions, this.runs, this.secrets);
    this.turns = new AcpTurns({
      runs: this.runs,
      sessions: this.sessions,
      log: ctx.log,
      connection: () => this.agent,
      promptCapabilities: () => this.init?.agentCapabilities?.promptCapabilities,
      workspace: ctx.workspace,
      turnEnded: (session) => this.storage.turnEnded(session),
      publishQueue: (runId, queue, paused) => this.runs.queue(runId, queue, paused),
      sideEffects: (session, effects) => {
        this.storage.applySessionEffects(session, effects);
        this.settings.followAgent(session, effects);
        if (effects.command) { this.terminals?.shown.apply(session.sessionId, effects.command); }
      },
      connectionId: this.connectionId, save: (session) => this.storage.save(session), provider: () => this.providerName,
    });
    const notice = (session: AcpSession, text: string): Promise<void> => this.runs.event(session.sessionId, { kind: 'notice', text, level: 'warning' });
    this.settings = new AcpSessionSettings({ agent: () => this.requireAgent(), show: (session, effects) => this.storage.applySessionEffects(session, effects), save: (session) => this.storage.save(session), notice, log: ctx.log });
    const { sessions, runs, storage, settings, turns } = this;
    const mcpServers = (): McpServerPlan['passed'] => this.mcp.passed;
    this.agentSessions = new AcpAgentSessions({ agent: () => this.requireAgent(), abilities: () => this.abilities, listCwd: () => this.listCwd, provider: () => this.providerName, mcpServers, sessions, runs, storage, settings, turns });
    const agent = (): AcpConnection | undefined => this.agent;
    const abilities = (): AcpSessionAbilities => this.abilities;
    const reconnect = { agentGone: (why: string) => this.turns.agentGone(why), disconnect: () => this.disconnect(), reconnect: () => this.connect() };
    this.recovery = new AcpRecovery({ log: ctx.log, sessions, runs, storage, ...reconnect, agent, abilities, mcpServers, requireAgent: () => this.requireAgent(), reapply: (session) => this.settings.reapply(session), fail: (reason) => this.failed(reason) });
  }

  get authMethods(): readonly AuthChoice[] { return authChoices(this.init?.authMethods); }

  /** What the running agent advertises it can do with sessions (nothing while it does not run). */
  get abilities(): AcpSessionAbilities { return sessionAbilitiesOf(this.agent ? this.init : undefined); }

  /** Replays the journal: every stored session comes back with its transcript, not live until it is taken up. */
  protected override async loadStorage(): Promise<void> {
    await this.runs.replay(this.storage.restorePolicy());
  }

  protected override async connectOnce(connection: ConnectionScope): Promise<void> {
    this.crashOffer = undefined;
    const spec = await launchSpecOf(this.ctx.profile, this.ctx.workspaceFolder, this.secrets, process.env, this.ctx.profileOrigin);
    registerLaunchSecrets(spec.env);
    const terminals = (this.terminals = new AcpTerminals({ connectionId: this.connectionId, views: this.ctx.terminals, session: (id) => this.sessions.get(id), runTitle: (id) => this.runs.get(id)?.title ?? this.ctx.profile.name, baseEnv: process.env }));
    const started = startAgent(spec, this.ctx.tap, {
      sessionUpdate: (n) => this.turns.onUpdate(n),
      requestPermission: (r, withdrawn) => this.turns.onPermission(r, withdrawn),
      readTextFile: (r) => readThroughEditor(this.ctx.workspace, r, this.sessions.get(r.sessionId)?.cwd),
      writeTextFile: (r) => writeThroughEditor(this.ctx.workspace, r, this.sessions.get(r.sessionId)?.cwd),
      ...terminalHandlers(terminals),
      createElicitation: (r) => this.turns.elicitations.create(r), completeElicitation: (n) => this.turns.elicitations.complete(n),
    }, (reason) => void this.recovery.crashed(reason, this.agent === agent));
    const { agent } = started;
    connection.add({ dispose: () => {
      this.agent = undefined;
      void terminals.disposeAll();
      this.starts.forget();
      this.stopped = started.close().catch(() => undefined);
    } });
    const init = await started.init;
    this.init = init;
    this.mcp = planMcpServers(this.ctx.profile.mcpServers, init.agentCapabilities?.mcpCapabilities);
    this.agent = agent;
    await this.storage.authenticateIfChosen(agent, this.authMethods);
    this.runs.connectionInfo({
      capabilities: ACP_CAPABILITIES,
      serverDescription: [init.agentInfo?.title ?? init.agentInfo?.name, init.agentInfo?.version].filter(Boolean).join(' ') || 'ACP agent',
    });
    this.storage.markRestorable(sessionAbilitiesOf(init));
  }

  protected override isFatal(error: unknown): boolean {
    // A profile mistake or an agent that cannot start does not heal by retrying.
    return error instanceof DriverError && error.code === 'fatal';
  }

  protected override async afterDisconnect(): Promise<void> {
    await Promise.all([this.stopped, this.turns.agentGone('The agent was stopped.')]);
  }

  /** The models and modes the agent offers a new run (asked before its prompt: see acpSessionStarts.ts). */
  newRunChoices(workspaceRoots: readonly string[], abandon?: AbortSignal): Promise<NewRunChoices> {
    return this.starts.choices(workspaceRoots, abandon);
  }

  async startRun(options: StartRunOptions): Promise<string> {
    const { cwd, created } = await this.starts.take(options.workspaceRoots);
    const session = this.sessions.add(created.sessionId, cwd, true);
    session.modes = created.modes ?? undefined;
    this.storage.applySessionEffects(session, { configOptions: created.configOptions ?? [] });
    // What the agent sent about the session before the driver knew it (its slash commands) comes in now.
    this.turns.takeEarlyUpdates(session);
    await this.storage.created(session, defaultRunTitle(options.prompt), this.providerName);
    const mcp = mcpServerNotice(this.mcp);
    if (mcp) {
      await this.runs.event(session.sessionId, { kind: 'notice', ...mcp });
    }
    // The model and mode asked for (none picked: the profile's start mode) go to the agent before the first prompt.
    await this.settings.applyNew(session, options.model, options.permission || this.ctx.profile.startMode);
    this.turns.start(session, options.prompt);
    return created.sessionId;
  }

  async sendMessage(runId: string, text: string): Promise<void> {
    const session = await this.liveSession(runId);
    await this.turns.send(session, text);
  }

  async cancelRun(runId: string): Promise<void> {
    const session = this.sessions.require(runId);
    // Stop while the agent still loads the session: the person stopped waiting for it ($/cancel_request).
    session.reopening?.abort();
    await Promise.all([this.turns.cancel(session), this.terminals?.killSession(runId)]);
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette', rule?: string): Promise<void> {
    await this.turns.decide(runId, approvalId, decision, by, rule);
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

  /** The sessions' file checkpoints, at each start and turn end (issue #26: rewind; the UI is to come). */
  get checkpoints(): TurnCheckpoints {
    return this.storage.checkpoints;
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

  /** The agent is gone for good (a crash the recovery does not retry): the connection fails, offering *Restart*. */
  private failed(reason: string): void {
    this.runs.connectionState({ kind: 'failed', reason });
    this.crashOffer = restartOffer(this.connectionId, this.ctx.profile.name, reason);
    this.offers.fire(this.crashOffer);
  }

  private liveSession(runId: string): Promise<AcpSession> {
    return this.recovery.ensureLive(this.sessions.require(runId));
  }

  private get listCwd(): string | undefined { return this.ctx.profile.cwd ?? this.ctx.workspaceFolder; }
  private get providerName(): string { return this.init?.agentInfo?.title ?? this.init?.agentInfo?.name ?? this.ctx.profile.name; }

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

  /** A snapshot still being taken is waited for: its git writes must not outlive the driver (or a test's folder). */
  protected override closeStorage(): Promise<void> {
    return this.checkpoints.settled().then(() => super.closeStorage());
  }
}


/**
 * The agent's sessions as runs, beyond the ones "New Run…" creates (ACP `sessionCapabilities`, each used only when
 * advertised): *Open Agent Session…* lists the agent's sessions for the workspace folder (`session/list`, page by
 * page with its cursor: sessions started outside the editor too) and opens one as a run — one this connection has a
 * run of is that run; another is taken up with its history replayed (`session/load`) where the agent can, else
 * resumed without it (`session/resume`), and the transcript says which. *Fork Run* makes a new run beside the
 * original from `session/fork`, and *Close Session* lets the agent free a session (`session/close`).
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { SessionInfo } from '@agentclientprotocol/sdk/unstable';
import type { DriverRuns } from '../kit/driverRuns';
import type { ActionAnswers, ActionChoice, ActionInput } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { AcpConnection } from './acpConnection';
import { shownAgentText, shownAgentTitle } from './acpRunTitles';
import type { AcpSessionAbilities } from './acpSessionAbilities';
import type { AcpSessionSettings } from './acpSessionChoices';
import type { AcpSessionStore } from './acpSessionStore';
import { CLOSED_DETAIL, RESTORED_DETAIL } from './acpSessionStore';
import type { AcpSession, AcpSessions } from './acpSessions';
import type { AcpTurns } from './acpTurns';

/** The answer of the "more sessions" entry of a page: the cursor of the next page follows it. */
const MORE = 'more:';
/** Pages read to find a session named by automation (its id, not picked from a page shown). */
const MAX_PAGES_SEARCHED = 20;

export interface AcpAgentSessionsDeps {
  agent(): AcpConnection;
  abilities(): AcpSessionAbilities;
  /** The folder whose sessions are listed (the profile's cwd, else the workspace folder). */
  listCwd(): string | undefined;
  /** What the run's provider column says (the agent's name). */
  provider(): string;
  /** The profile's MCP servers the agent takes (every session request carries them). */
  mcpServers(): readonly McpServer[];
  readonly sessions: AcpSessions;
  readonly runs: DriverRuns;
  readonly storage: AcpSessionStore;
  readonly settings: AcpSessionSettings;
  readonly turns: AcpTurns;
}

export class AcpAgentSessions {
  /** What the last pages said about each session (its folder and title), by session id. */
  private readonly listed = new Map<string, SessionInfo>();

  constructor(private readonly deps: AcpAgentSessionsDeps) {}

  /** Whether *Open Agent Session…* applies: the agent lists its sessions and can take one up. */
  canOpen(): boolean {
    const abilities = this.deps.abilities();
    return abilities.list && (abilities.load || abilities.resume);
  }

  /**
   * The next page to pick from: the first page, or the one after the "more" entry picked last. Pages are asked as
   * `session`, `session2`, … so each answer stays; undefined once a session is picked or when there is none.
   */
  async nextPick(answers: ActionAnswers): Promise<ActionInput | undefined> {
    const { name, cursor, picked } = pickState(answers);
    if (picked !== undefined) {
      return undefined;
    }
    const page = await this.page(cursor);
    if (page.sessions.length === 0 && cursor === undefined) {
      return undefined;
    }
    const choices: ActionChoice[] = page.sessions.map((s) => this.choiceOf(s));
    if (page.nextCursor) {
      choices.push({ value: `${MORE}${page.nextCursor}`, label: 'More sessions…', description: 'the next page of the agent\'s list' });
    }
    return { kind: 'pick', name, placeHolder: 'Open which of the agent\'s sessions?', choices };
  }

  /** The session picked (or named by automation) as a run: its run id; undefined when none was picked. */
  async open(answers: ActionAnswers): Promise<{ readonly runId: string } | undefined> {
    const sessionId = pickState(answers).picked;
    if (sessionId === undefined) {
      return undefined;
    }
    const known = this.deps.sessions.get(sessionId);
    if (known) {
      const run = this.deps.runs.get(sessionId);
      // A closed session is taken up again when the person sends a message (liveSession).
      if (!known.live && run?.state === 'completed' && run.stateDetail === CLOSED_DETAIL) {
        await this.deps.runs.fields(sessionId, { state: 'idle', stateDetail: RESTORED_DETAIL });
      }
      return { runId: sessionId };
    }
    const info = this.listed.get(sessionId) ?? (await this.find(sessionId));
    if (!info) {
      throw new DriverError(`The agent does not list a session ${shownAgentText(sessionId, 60)} for this folder.`);
    }
    await this.takeUp(info);
    return { runId: sessionId };
  }

  /** A new run from `session/fork` of `runId`'s session, beside it; resolves with the new run's id. */
  async fork(runId: string): Promise<string> {
    const source = this.deps.sessions.require(runId);
    const forked = await this.deps.agent().forkSession(source.sessionId, source.cwd, this.deps.mcpServers());
    const session = this.deps.sessions.add(forked.sessionId, source.cwd, true);
    session.modes = forked.modes ?? undefined;
    session.configOptions = forked.configOptions ?? undefined;
    // The fork goes on as the original was set up: the person's mode and model.
    session.chosen = source.chosen;
    this.deps.turns.takeEarlyUpdates(session);
    const sourceTitle = this.deps.runs.get(runId)?.title ?? 'the run';
    await this.deps.storage.created(session, shownAgentText(`${sourceTitle} (fork)`, 80), this.deps.provider());
    await this.notice(session, `Forked from "${sourceTitle}": the agent has that conversation so far; this transcript starts here.`);
    await this.deps.settings.reapply(session, 'for the fork');
    await this.deps.runs.fields(session.sessionId, { state: 'idle', stateDetail: '' });
    return session.sessionId;
  }

  /** `session/close` of a run's session (one this process does not have is already free); the run ends. */
  async close(runId: string): Promise<void> {
    const session = this.deps.sessions.require(runId);
    if (session.turn) {
      throw new DriverError('A turn is running in this session: stop it first.');
    }
    if (session.live) {
      await this.deps.agent().closeSession(session.sessionId);
    }
    session.live = false;
    await this.deps.runs.fields(session.sessionId, { state: 'completed', stateDetail: CLOSED_DETAIL });
  }

  private async page(cursor: string | undefined): Promise<{ readonly sessions: readonly SessionInfo[]; readonly nextCursor?: string }> {
    const cwd = this.deps.listCwd();
    if (!cwd) {
      throw new DriverError('Open a folder first: the agent lists the sessions of a workspace folder.');
    }
    const page = await this.deps.agent().listSessions(cwd, cursor);
    for (const info of page.sessions) {
      this.listed.set(info.sessionId, info);
    }
    return { sessions: page.sessions, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** A session named by id (automation), looked for page by page. */
  private async find(sessionId: string): Promise<SessionInfo | undefined> {
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES_SEARCHED; pages++) {
      const page = await this.page(cursor);
      const found = page.sessions.find((s) => s.sessionId === sessionId);
      if (found || !page.nextCursor) {
        return found;
      }
      cursor = page.nextCursor;
    }
    return undefined;
  }

  /** A session this connection has no run of: a run now, its history replayed where the agent can. */
  private async takeUp(info: SessionInfo): Promise<void> {
    // Picked by the person: a session whose run they removed comes back (kit/runRemovals.ts keeps it out otherwise).
    await this.deps.runs.history.removals.reopen(info.sessionId);
    const session = this.deps.sessions.add(info.sessionId, info.cwd, false);
    const title = shownAgentTitle(info.title) ?? `Session ${shownAgentText(info.sessionId, 40)}`;
    await this.deps.storage.created(session, title, this.deps.provider());
    const how = await this.deps.storage.continue(this.deps.agent(), session, this.deps.abilities(), { preferLoad: true, mcpServers: this.deps.mcpServers() });
    await this.notice(
      session,
      how === 'loaded'
        ? 'Opened from the agent\'s sessions: the history above is what the agent replayed.'
        : 'Opened from the agent\'s sessions without its history: this agent resumes a session without replaying it, so earlier messages are not shown here.',
    );
    await this.deps.settings.reapply(session, 'when it was opened');
  }

  private choiceOf(info: SessionInfo): ActionChoice {
    const here = this.deps.sessions.get(info.sessionId) !== undefined;
    const updated = info.updatedAt ? new Date(info.updatedAt) : undefined;
    const when = updated && !Number.isNaN(updated.getTime()) ? `updated ${updated.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}` : undefined;
    return {
      value: info.sessionId,
      label: shownAgentTitle(info.title) ?? '(untitled session)',
      description: [here ? 'a run here' : undefined, when].filter(Boolean).join(' · '),
      detail: shownAgentText(info.sessionId, 100),
    };
  }

  private notice(session: AcpSession, text: string): Promise<void> {
    return this.deps.runs.event(session.sessionId, { kind: 'notice', text, level: 'info' });
  }
}

/** Where the picking stands: the name of the next page's pick, its cursor, and the session picked (if any). */
function pickState(answers: ActionAnswers): { readonly name: string; readonly cursor?: string; readonly picked?: string } {
  let page = 1;
  let cursor: string | undefined;
  for (;;) {
    const name = page === 1 ? 'session' : `session${page}`;
    const answer = answers[name];
    if (typeof answer !== 'string') {
      return { name, ...(cursor !== undefined ? { cursor } : {}) };
    }
    if (!answer.startsWith(MORE)) {
      return { name, picked: answer };
    }
    cursor = answer.slice(MORE.length);
    page++;
  }
}

/**
 * One ACP agent process and its JSON-RPC connection, through the official SDK's client side (`client()` app: SDK 2.x
 * has no ClientSideConnection class; its schemas validate every message in both directions). The agent's stdio is
 * the transport (`transport/stdioProcess.ts`, which taps every line for the protocol trace). What the agent asks of
 * the client — session updates, permission requests, file reads and writes — goes to the driver's handlers; what
 * the driver asks of the agent are the typed methods below. Errors come back classified (kit/errors.ts): a JSON-RPC
 * error is `refused` with its code, a dead agent `outcome_unknown`.
 */
import type {
  AuthenticateResponse,
  ClientConnection,
  CompleteElicitationNotification,
  ContentBlock,
  CreateTerminalRequest,
  CreateTerminalResponse,
  ForkSessionResponse,
  CreateElicitationRequest,
  CreateElicitationResponse,
  InitializeResponse,
  KillTerminalRequest,
  ListSessionsResponse,
  LoadSessionResponse,
  McpServer,
  NewSessionResponse,
  PromptResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ResumeSessionResponse,
  SessionNotification,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk/unstable';
import type { SessionNotification as StableSessionNotification } from '@agentclientprotocol/sdk';
import type * as AcpSdk from './acpSdk';
import type { FrameTap } from '../../transport/frameTap';
import { MAX_LINE_BYTES } from '../../transport/lineSplitter';
import { StdioProcess } from '../../transport/stdioProcess';
import type { ProcessExit } from '../../transport/stdioProcess';
import { OutcomeUnknownError, RefusedError } from '../kit/errors';
import { WorkspaceAccessError } from '../kit/workspaceAccess';
import { AcpClientRefusal } from './acpTerminals';

let loaded: typeof AcpSdk | undefined;

/** The SDK, loaded on first use (in the shipped extension it is a bundle of its own: acpSdk.ts). */
function sdk(): typeof AcpSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
  loaded ??= require('./acpSdk') as typeof AcpSdk;
  return loaded;
}

/** What the agent may ask of the editor. */
export interface AcpClientHandlers {
  /** Typed as the stable kinds: the unstable ones (notices, compaction, …) reach the mapping's default case. */
  sessionUpdate(notification: StableSessionNotification): void;
  /** `withdrawn` aborts when the agent sends `$/cancel_request` for this request (it no longer waits). */
  requestPermission(request: RequestPermissionRequest, withdrawn: AbortSignal): Promise<RequestPermissionResponse>;
  readTextFile(request: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(request: WriteTextFileRequest): Promise<WriteTextFileResponse>;
  /** Commands run for the agent (acpTerminals.ts). */
  createTerminal(request: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  terminalOutput(request: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForTerminalExit(request: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse>;
  killTerminal(request: KillTerminalRequest): Promise<Record<string, never>>;
  releaseTerminal(request: ReleaseTerminalRequest): Promise<Record<string, never>>;
  /** The agent asks the user for structured input (a form) or to open a URL (acpElicitations.ts). */
  createElicitation(request: CreateElicitationRequest): Promise<CreateElicitationResponse>;
  /** A URL elicitation the agent no longer waits for (the user finished it out of band). */
  completeElicitation(notification: CompleteElicitationNotification): void;
}

export interface AcpLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tap: FrameTap;
}

/**
 * What the client implements (advertised in `initialize`): files through the editor; terminals (commands run for
 * the agent, each shown in an editor terminal: acpTerminals.ts); notices and compactions shown in the transcript;
 * subagent sessions as child runs; elicitation as native input — forms of string, number, integer, boolean, single-
 * and multi-select fields, and URLs opened only on the user's click.
 */
export const CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  session: { notices: {}, compaction: {} },
  subagents: {},
  elicitation: { form: {}, url: {} },
  // The commands claude-agent-acp and codex-acp run themselves are reported with their output and exit in a tool
  // call's `_meta` (Zed's extension): shown in a read-only terminal per command (acpCommandReports.ts).
  _meta: { terminal_output: true },
} as const;

/**
 * The SDK aborts an incoming request's signal for `$/cancel_request` (its reason a -32800 "request cancelled" error)
 * and also when the connection closes: only the first is the agent withdrawing its request. A dead agent's requests
 * expire through the driver's agent-gone path, with the exit as their reason.
 */
function withdrawnOnly(signal: AbortSignal): AbortSignal {
  const withdrawn = new AbortController();
  const onAbort = (): void => {
    const reason: unknown = signal.reason;
    if (reason !== null && typeof reason === 'object' && (reason as { code?: unknown }).code === -32800) {
      withdrawn.abort(reason);
    }
  };
  if (signal.aborted) {
    onAbort();
  } else {
    signal.addEventListener('abort', onAbort, { once: true });
  }
  return withdrawn.signal;
}

export class AcpConnection {
  readonly process: StdioProcess;
  private readonly connection: ClientConnection;

  constructor(launch: AcpLaunch, handlers: AcpClientHandlers) {
    this.process = new StdioProcess(launch);
    const { client, methods, ndJsonStream } = sdk();
    const app = client({ name: 'Agent Switchboard' })
      .onNotification(methods.client.session.update, ({ params }) => handlers.sessionUpdate(params as SessionNotification as StableSessionNotification))
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) => handlers.requestPermission(params, withdrawnOnly(signal)))
      .onRequest(methods.client.fs.readTextFile, ({ params }) => handlers.readTextFile(params).catch(asRequestError))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => handlers.writeTextFile(params).catch(asRequestError))
      .onRequest(methods.client.terminal.create, ({ params }) => handlers.createTerminal(params).catch(asRequestError))
      .onRequest(methods.client.terminal.output, ({ params }) => handlers.terminalOutput(params).catch(asRequestError))
      .onRequest(methods.client.terminal.waitForExit, ({ params }) => handlers.waitForTerminalExit(params).catch(asRequestError))
      .onRequest(methods.client.terminal.kill, ({ params }) => handlers.killTerminal(params).catch(asRequestError))
      .onRequest(methods.client.terminal.release, ({ params }) => handlers.releaseTerminal(params).catch(asRequestError))
      .onRequest(methods.client.elicitation.create, ({ params }) => handlers.createElicitation(params))
      .onNotification(methods.client.elicitation.complete, ({ params }) => handlers.completeElicitation(params));
    // The process passes on only complete lines within our limit: the SDK's own (lower) default must not refuse one.
    this.connection = app.connect(ndJsonStream(this.process.writable, this.process.readable, { maxMessageBytes: MAX_LINE_BYTES }));
  }

  /** Resolves when the agent process has exited (crashed, or stopped by `close`). */
  get exited(): Promise<ProcessExit> {
    return this.process.exited;
  }

  initialize(version: string): Promise<InitializeResponse> {
    return this.call(() =>
      this.connection.agent.request(sdk().methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: CLIENT_CAPABILITIES,
        clientInfo: { name: 'agent-switchboard', title: 'Agent Switchboard', version },
      }),
    );
  }

  authenticate(methodId: string): Promise<AuthenticateResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.authenticate, { methodId }));
  }

  /**
   * `abandon`: the person stopped waiting (a New Run cancelled while the agent starts the session): aborting it
   * sends `$/cancel_request` and the call rejects at once (the agent's late answer is dropped by the SDK).
   */
  newSession(cwd: string, mcpServers: readonly McpServer[], abandon?: AbortSignal): Promise<NewSessionResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.new, { cwd, mcpServers: [...mcpServers] }, abandonable(abandon)));
  }

  loadSession(sessionId: string, cwd: string, mcpServers: readonly McpServer[], abandon?: AbortSignal): Promise<LoadSessionResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.load, { sessionId, cwd, mcpServers: [...mcpServers] }, abandonable(abandon)));
  }

  /** `session/resume` (only when the agent advertises `sessionCapabilities.resume`): the session again, no replay. */
  resumeSession(sessionId: string, cwd: string, mcpServers: readonly McpServer[], abandon?: AbortSignal): Promise<ResumeSessionResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.resume, { sessionId, cwd, mcpServers: [...mcpServers] }, abandonable(abandon)));
  }

  /** One page of `session/list` (sessionCapabilities.list); `cursor` is the last page's `nextCursor`. */
  listSessions(cwd: string, cursor: string | undefined): Promise<ListSessionsResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.list, { cwd, ...(cursor !== undefined ? { cursor } : {}) }));
  }

  /** `session/close`: the agent frees the session (sessionCapabilities.close); it stays in its store. */
  closeSession(sessionId: string): Promise<unknown> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.close, { sessionId }));
  }

  /** `session/fork` (unstable, sessionCapabilities.fork): a new session with the history of `sessionId`. */
  forkSession(sessionId: string, cwd: string, mcpServers: readonly McpServer[]): Promise<ForkSessionResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.fork, { sessionId, cwd, mcpServers: [...mcpServers] }));
  }

  prompt(sessionId: string, prompt: readonly ContentBlock[]): Promise<PromptResponse> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.prompt, { sessionId, prompt: [...prompt] }));
  }

  cancel(sessionId: string): Promise<void> {
    return this.call(() => this.connection.agent.notify(sdk().methods.agent.session.cancel, { sessionId }));
  }

  setMode(sessionId: string, modeId: string): Promise<unknown> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.setMode, { sessionId, modeId }));
  }

  setConfigOption(sessionId: string, configId: string, value: string): Promise<unknown> {
    return this.call(() => this.connection.agent.request(sdk().methods.agent.session.setConfigOption, { sessionId, configId, value }));
  }

  /** Closes the connection and stops the agent's process group. */
  async close(): Promise<void> {
    try {
      this.connection.close();
    } catch {
      // already closed
    }
    await this.process.stop();
  }

  private async call<T>(send: () => Promise<T>): Promise<T> {
    if (!this.process.isRunning) {
      throw new OutcomeUnknownError('The agent is not running.', 'agent_exited');
    }
    try {
      return await send();
    } catch (error) {
      if (error instanceof sdk().RequestError) {
        throw new RefusedError(`${error.message}${dataText(error.data)}`, String(error.code));
      }
      throw new OutcomeUnknownError(`The agent did not answer: ${error instanceof Error ? error.message : String(error)}`, 'agent_exited', { cause: error });
    }
  }
}

/** Request options that send `$/cancel_request` and stop waiting when `abandon` aborts. */
function abandonable(abandon: AbortSignal | undefined): { cancellationSignal: AbortSignal; stopWaitingOnCancel: true } | undefined {
  return abandon ? { cancellationSignal: abandon, stopWaitingOnCancel: true } : undefined;
}

function dataText(data: unknown): string {
  if (data === undefined || data === null) {
    return '';
  }
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.length > 0 && text !== '{}' ? ` (${text.slice(0, 300)})` : '';
}

/** A handler's failure as a JSON-RPC error the agent understands (the SDK would send "Internal error" otherwise). */
function asRequestError(error: unknown): never {
  const { RequestError } = sdk();
  if (error instanceof RequestError) {
    throw error;
  }
  if (error instanceof AcpClientRefusal) {
    throw error.kind === 'notFound' ? new RequestError(-32002, `Resource not found: ${error.message}`) : RequestError.invalidParams(undefined, error.message);
  }
  if (error instanceof WorkspaceAccessError && error.reason === 'notFound') {
    throw RequestError.resourceNotFound(error.message);
  }
  // ACP has no "permission denied" code: invalid params, with the reason in `data` for an agent that looks.
  if (error instanceof WorkspaceAccessError && error.reason === 'denied') {
    throw RequestError.invalidParams({ reason: 'denied' }, error.message);
  }
  throw RequestError.invalidParams(undefined, error instanceof Error ? error.message : String(error));
}

/**
 * A tiny ACP client for the infra tests, on the SDK's client side (`client()` app; SDK 2.4 has no
 * ClientSideConnection class any more). It implements what a client must: session/update (recorded),
 * session/request_permission (answered by a policy, or held until the test cancels the turn), fs/read_text_file and
 * fs/write_text_file (inside `root` only). Every JSON-RPC message both ways is recorded as a frame, so tests can see
 * what the SDK's typed handlers drop (unknown update kinds, values its schema rejects).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type {
  AnyMessage,
  ClientConnection,
  ClientContext,
  InitializeResponse,
  PermissionOptionKind,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
  SessionUpdate,
  Stream,
} from '@agentclientprotocol/sdk';
import { RequestError, client, methods } from '@agentclientprotocol/sdk';

export interface Frame {
  readonly dir: 'in' | 'out';
  readonly message: AnyMessage;
}

/** How to answer a permission request: pick the first option of a kind, answer `cancelled`, or hold it. */
export type PermissionChoice = PermissionOptionKind | 'cancelled' | 'hold';

export interface AcpTestClientOptions {
  /** Advertise and serve fs/read_text_file + fs/write_text_file. */
  readonly fs?: boolean;
  /** The only directory fs requests may touch. */
  readonly root?: string;
  /** Default answer to permission requests (default allow_once). */
  readonly permission?: PermissionChoice | ((request: RequestPermissionRequest) => PermissionChoice);
}

export class AcpTestClient {
  readonly frames: Frame[] = [];
  /** session/update notifications as the SDK's handler received them (parsed; unknown ones never arrive here). */
  readonly notifications: SessionNotification[] = [];
  readonly permissionRequests: RequestPermissionRequest[] = [];
  readonly reads: string[] = [];
  readonly writes: { readonly path: string; readonly content: string }[] = [];
  readonly connection: ClientConnection;
  private readonly held = new Set<(answer: RequestPermissionResponse) => void>();

  constructor(stream: Stream, private readonly options: AcpTestClientOptions = {}) {
    const app = client({ name: 'acp-infra-test-client' })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.notifications.push(params);
      })
      .onRequest(methods.client.session.requestPermission, ({ params }) => this.answerPermission(params))
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        const path = this.inside(params.path);
        this.reads.push(path);
        const lines = readFileSync(path, 'utf8').split('\n');
        const start = Math.max(0, (params.line ?? 1) - 1);
        const end = params.limit === undefined || params.limit === null ? lines.length : start + params.limit;
        return { content: lines.slice(start, end).join('\n') };
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        const path = this.inside(params.path);
        this.writes.push({ path, content: params.content });
        writeFileSync(path, params.content);
        return {};
      });
    this.connection = app.connect(tap(stream, this.frames));
  }

  get agent(): ClientContext {
    return this.connection.agent;
  }

  /** `initialize` with protocol version 1 and this client's capabilities. */
  initialize(): Promise<InitializeResponse> {
    const fs = this.options.fs === true;
    return this.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
      clientInfo: { name: 'acp-infra-test-client', version: '1.0.0' },
    });
  }

  /** `session/cancel`, then every held permission request answered `cancelled` (the spec's client duty). */
  async cancel(sessionId: string): Promise<void> {
    await this.agent.notify(methods.agent.session.cancel, { sessionId });
    for (const answer of [...this.held]) {
      answer({ outcome: { outcome: 'cancelled' } });
    }
    this.held.clear();
  }

  /** How many permission requests are waiting for the test. */
  get heldPermissions(): number {
    return this.held.size;
  }

  /** The parsed updates of one session, optionally of one kind. */
  updates(sessionId: string, kind?: SessionUpdate['sessionUpdate']): SessionUpdate[] {
    return this.notifications.filter((n) => n.sessionId === sessionId && (kind === undefined || n.update.sessionUpdate === kind)).map((n) => n.update);
  }

  /** The text of a session's chunks of one kind, joined. */
  text(sessionId: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk' = 'agent_message_chunk'): string {
    return this.updates(sessionId, kind)
      .map((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : ''))
      .join('');
  }

  /** The raw `session/update` params that came in (including what the SDK's schema rejected). */
  rawUpdates(): { readonly sessionId?: unknown; readonly update?: { readonly sessionUpdate?: unknown } & Record<string, unknown> }[] {
    return this.frames.flatMap((f) => (f.dir === 'in' && 'method' in f.message && f.message.method === 'session/update' ? [f.message.params as never] : []));
  }

  close(): void {
    this.connection.close();
  }

  private answerPermission(request: RequestPermissionRequest): RequestPermissionResponse | Promise<RequestPermissionResponse> {
    this.permissionRequests.push(request);
    const policy = this.options.permission ?? 'allow_once';
    const choice = typeof policy === 'function' ? policy(request) : policy;
    if (choice === 'hold') {
      return new Promise((resolve) => this.held.add(resolve));
    }
    if (choice === 'cancelled') {
      return { outcome: { outcome: 'cancelled' } };
    }
    const option = request.options.find((o) => o.kind === choice);
    if (option === undefined) {
      throw RequestError.invalidParams({ wanted: choice }, 'the test client found no option of that kind');
    }
    return { outcome: { outcome: 'selected', optionId: option.optionId } };
  }

  private inside(path: string): string {
    const root = this.options.root;
    const rel = root === undefined ? '' : relative(root, path);
    if (!isAbsolute(path) || (root !== undefined && (rel.startsWith('..') || isAbsolute(rel)))) {
      throw RequestError.invalidParams({ path }, 'path outside the client root');
    }
    return path;
  }
}

/** Records every message both ways, passing it on unchanged. */
function tap(stream: Stream, frames: Frame[]): Stream {
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        frames.push({ dir: 'in', message });
        controller.enqueue(message);
      },
    }),
  );
  const outgoing = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      frames.push({ dir: 'out', message });
      controller.enqueue(message);
    },
  });
  void outgoing.readable.pipeTo(stream.writable).catch(() => undefined);
  return { readable, writable: outgoing.writable };
}

/** Polls `probe` every 10 ms until it returns a value (not undefined/false); throws after `ms`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

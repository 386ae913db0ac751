/**
 * ScvClient — one connection to an SCV daemon (protocol 3) over a Unix socket, NDJSON both ways (WIRE.md §2).
 *
 * - Handshake: `initialize` → `initialized`; a `version_mismatch` becomes an `ScvVersionMismatchError` naming both
 *   versions. Then `session.start` → `session.started` → `queue.snapshot`, or `daemon.control` (see `control`).
 * - The socket, framing, frame tap, reading limits, write deadline and pending requests are `ScvChannel`'s; this
 *   class builds the protocol's requests and says which event answers each.
 */
import * as path from 'node:path';
import type { Event } from '../../base/emitter';
import { SCV_MAX_PROMPT_BYTES, SCV_PROTOCOL_VERSION } from '../../protocol/scv';
import type { ScvEventOf, ScvKnownEvent, ScvServerEvent } from '../../protocol/scv';
import * as msg from '../../protocol/scvClientMessages';
import type { SessionStartOptions } from '../../protocol/scvClientMessages';
import type { DaemonCommand, DaemonStatus } from '../../protocol/scvDaemonControl';
import type { Attachment, PeerInfo } from '../../protocol/scvTypes';
import { ScvChannel } from './scvChannel';
import { ScvNotSentError, ScvVersionMismatchError } from './scvErrors';
import { defaultScvSocketPath } from './socketPath';
import type {
  ScvClientOptions,
  ScvClientState,
  ScvCloseInfo,
  ScvErrorInfo,
  ScvGap,
  ScvTurnStartAnswer,
  ScvTurnTerminalEvent,
} from './scvClientTypes';

export class ScvClient {
  /** Every parsed server event except `error` (see `onError`), including `unknown` ones (to show raw). */
  readonly onEvent: Event<ScvServerEvent>;
  readonly onGap: Event<ScvGap>;
  /** Server `error`s not claimed by a waiting request, every fatal one, and problems found while reading. */
  readonly onError: Event<ScvErrorInfo>;
  /** Fires once when the connection ends, whatever the cause. */
  readonly onClose: Event<ScvCloseInfo>;
  /** Everything one socket read held was delivered (events, gaps, errors). */
  readonly onReadEnd: Event<void>;

  readonly socketPath: string;
  private readonly channel: ScvChannel;
  private serverValue: PeerInfo | undefined;

  constructor(private readonly options: ScvClientOptions) {
    this.socketPath = options.socketPath ?? defaultScvSocketPath();
    this.channel = new ScvChannel({
      socketPath: this.socketPath,
      ...(options.frameTap !== undefined ? { frameTap: options.frameTap } : {}),
      writeTimeoutMs: options.writeTimeoutMs ?? 3_000,
      replyTimeoutMs: options.replyTimeoutMs ?? 20_000,
    });
    this.onEvent = this.channel.onEvent;
    this.onGap = this.channel.onGap;
    this.onError = this.channel.onError;
    this.onClose = this.channel.onClose;
    this.onReadEnd = this.channel.onReadEnd;
  }

  get state(): ScvClientState {
    return this.channel.state;
  }
  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }
  get server(): PeerInfo | undefined {
    return this.serverValue;
  }
  /** The server line limit in force (reader size). */
  get maxServerLineBytes(): number {
    return this.channel.maxServerLineBytes;
  }

  /** Connects and performs the handshake. Rejects with `ScvVersionMismatchError` when protocols differ. */
  async connect(): Promise<ScvEventOf<'initialized'>> {
    const channel = this.channel;
    if (channel.state !== 'new') {
      throw new ScvNotSentError(`connect() called on a ${channel.state} ScvClient; create a new one`);
    }
    const timeoutMs = this.options.connectTimeoutMs ?? 3_000;
    const deadline = setTimeout(() => {
      channel.closeWith({ kind: 'connect_failed', reason: `no handshake with ${this.socketPath} within ${timeoutMs} ms` });
    }, timeoutMs);
    try {
      await channel.open(timeoutMs);
      const id = channel.newRequestId();
      const initialized = await channel.request<ScvEventOf<'initialized'>>(
        msg.buildInitialize(id, SCV_PROTOCOL_VERSION, {
          name: this.options.clientName ?? 'agent-switchboard',
          version: this.options.clientVersion,
        }),
        (ev) => (ev.type === 'initialized' && ev.request_id === id ? { value: ev } : undefined),
      );
      if (initialized.protocol_version !== SCV_PROTOCOL_VERSION) {
        const error = new ScvVersionMismatchError(SCV_PROTOCOL_VERSION, initialized.protocol_version, '');
        channel.closeWith({ kind: 'fatal', reason: error.message });
        throw error;
      }
      this.serverValue = initialized.server;
      return initialized;
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Starts this connection's one session; resolves after `session.started` and its `queue.snapshot`. */
  async startSession(
    options: SessionStartOptions,
  ): Promise<{ started: ScvEventOf<'session.started'>; snapshot: ScvEventOf<'queue.snapshot'> }> {
    if (!path.isAbsolute(options.cwd)) {
      throw new ScvNotSentError(`session.start needs an absolute cwd, got "${options.cwd}"; not sent`);
    }
    const id = this.channel.newRequestId();
    let started: ScvEventOf<'session.started'> | undefined;
    return this.channel.request(msg.buildSessionStart(id, options), (ev) => {
      if (ev.type === 'session.started' && ev.request_id === id) {
        started = ev;
      } else if (started && ev.type === 'queue.snapshot' && ev.session_id === started.session_id) {
        return { value: { started, snapshot: ev } };
      }
      return undefined;
    });
  }

  /** Runs (or queues) a prompt. Never retried: on `ScvUnknownOutcomeError` the prompt may or may not run. */
  async startTurn(prompt: string, attachments: readonly Attachment[] = []): Promise<ScvTurnStartAnswer> {
    const sessionId = this.channel.requireSession('turn.start');
    const bytes = Buffer.byteLength(prompt, 'utf8');
    if (bytes > SCV_MAX_PROMPT_BYTES) {
      throw new ScvNotSentError(`prompt is ${bytes} bytes; SCV accepts prompts up to ${SCV_MAX_PROMPT_BYTES} bytes — not sent`);
    }
    if (prompt === '' && attachments.length === 0) {
      throw new ScvNotSentError('an empty prompt needs at least one attachment; not sent');
    }
    const id = this.channel.newRequestId();
    return this.channel.request<ScvTurnStartAnswer>(msg.buildTurnStart(id, sessionId, prompt, attachments), (ev) => {
      if (ev.type === 'turn.started' && ev.request_id === id) {
        return { value: { kind: 'started', event: ev } };
      }
      if (ev.type === 'queue.enqueued' && ev.request_id === id) {
        return { value: { kind: 'queued', event: ev } };
      }
      return undefined;
    });
  }

  async updateQueue(queueId: string, revision: number, prompt: string): Promise<ScvEventOf<'queue.updated'>> {
    const sessionId = this.channel.requireSession('queue.update');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildQueueUpdate(id, sessionId, queueId, revision, prompt), answer(id, 'queue.updated'));
  }

  /** Moves a queued prompt before `beforeQueueId`, or to the end when `null`. */
  async moveQueue(queueId: string, revision: number, beforeQueueId: string | null): Promise<ScvEventOf<'queue.moved'>> {
    const sessionId = this.channel.requireSession('queue.move');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildQueueMove(id, sessionId, queueId, revision, beforeQueueId), answer(id, 'queue.moved'));
  }

  async removeQueue(queueId: string, revision: number): Promise<ScvEventOf<'queue.removed'>> {
    const sessionId = this.channel.requireSession('queue.remove');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildQueueRemove(id, sessionId, queueId, revision), answer(id, 'queue.removed'));
  }

  async pause(paused: boolean): Promise<ScvEventOf<'session.paused'>> {
    const sessionId = this.channel.requireSession('session.pause');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildSessionPause(id, sessionId, paused), answer(id, 'session.paused'));
  }

  /** Cancels a turn; resolves with its terminal event (normally `turn.cancelled`, which carries the turn's own
   * `request_id`, so it is matched by `turn_id`). */
  async cancelTurn(turnId: string): Promise<ScvTurnTerminalEvent> {
    const sessionId = this.channel.requireSession('turn.cancel');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildTurnCancel(id, sessionId, turnId), (ev) =>
      (ev.type === 'turn.cancelled' || ev.type === 'turn.completed' || ev.type === 'turn.failed') && ev.turn_id === turnId
        ? { value: ev }
        : undefined,
    );
  }

  /**
   * Answers an approval. Protocol 3 has no dedicated reply, so this resolves once the line is written; progress
   * shows as `tool.started`/`tool.completed`, and a refusal (`approval_not_found`) arrives on `onError` with this
   * request's id, which is returned.
   */
  async resolveApproval(approvalId: string, approved: boolean): Promise<string> {
    const sessionId = this.channel.requireSession('approval.resolve');
    const id = this.channel.newRequestId();
    await this.channel.send(msg.buildApprovalResolve(id, sessionId, approvalId, approved));
    return id;
  }

  async clearSession(): Promise<ScvEventOf<'session.cleared'>> {
    const sessionId = this.channel.requireSession('session.clear');
    const id = this.channel.newRequestId();
    return this.channel.request(msg.buildSessionClear(id, sessionId), answer(id, 'session.cleared'));
  }

  /** Management (`daemon.control`; socket only, no session needed). Resolves with the daemon's status. */
  async control(command: DaemonCommand): Promise<DaemonStatus> {
    const id = this.channel.newRequestId();
    const event = await this.channel.request(msg.buildDaemonControl(id, command), answer(id, 'daemon.status'));
    return event.status;
  }

  /** Ends the connection (EOF: the daemon cancels the active turn and the session is gone). */
  close(): void {
    this.channel.closeWith({ kind: 'local', reason: 'closed by the client' });
  }

  dispose(): void {
    this.close();
    this.channel.dispose();
  }
}

/** A waiter for the event of `type` that answers request `id`. */
function answer<T extends ScvKnownEvent['type']>(
  id: string,
  type: T,
): (ev: ScvKnownEvent) => { value: Extract<ScvKnownEvent, { type: T }> } | undefined {
  return (ev) =>
    ev.type === type && 'request_id' in ev && ev.request_id === id
      ? { value: ev as Extract<ScvKnownEvent, { type: T }> }
      : undefined;
}

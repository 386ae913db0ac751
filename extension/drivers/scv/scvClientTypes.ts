/**
 * Public types of `ScvClient` (options, error/gap/close reports, answers), kept apart so consumers (the SCV driver,
 * the UI adapter) can import them without the socket code.
 */
import type { ScvEventOf } from '../../protocol/scv';
import type { FrameTap } from '../../transport/frameTap';

export interface ScvClientOptions {
  /** Default: `$SCV_HOME/state/server.sock`, else `~/.scv/state/server.sock`. */
  readonly socketPath?: string;
  /** Sent as `client.version` in `initialize`. */
  readonly clientVersion: string;
  /** Sent as `client.name`; default `agent-switchboard`. */
  readonly clientName?: string;
  /** Receives every JSON frame sent (`out`) and received (`in`). */
  readonly frameTap?: FrameTap;
  /** Connect + initialize; default 3,000 ms. */
  readonly connectTimeoutMs?: number;
  /** How long a line may take to reach the kernel before its outcome counts as unknown; default 3,000 ms. */
  readonly writeTimeoutMs?: number;
  /** How long to wait for the answer to a request; default 20,000 ms. */
  readonly replyTimeoutMs?: number;
}

/** An error from the daemon (`source: 'server'`) or found by this client (`source: 'client'`). */
export interface ScvErrorInfo {
  readonly source: 'server' | 'client';
  /** A protocol `ErrorCode` for server errors; for client errors one of `frame_too_large`, `malformed_frame`,
   * `malformed_event`, `seq_out_of_order`, `truncated_frame`. */
  readonly code: string;
  readonly message: string;
  readonly fatal: boolean;
  readonly requestId?: string;
  /** The offending JSON, when there was one. */
  readonly raw?: unknown;
}

/** Events `from`..`to` of session `sessionId` were lost (they will never arrive). */
export interface ScvGap {
  readonly sessionId: string;
  readonly from: number;
  readonly to: number;
  /** The `seq` that revealed the gap. */
  readonly seq: number;
}

export interface ScvCloseInfo {
  readonly kind: 'local' | 'eof' | 'fatal' | 'socket_error' | 'write_timeout' | 'connect_failed';
  readonly reason: string;
}

export type ScvTurnStartAnswer =
  | { readonly kind: 'started'; readonly event: ScvEventOf<'turn.started'> }
  | { readonly kind: 'queued'; readonly event: ScvEventOf<'queue.enqueued'> };

export type ScvTurnTerminalEvent = ScvEventOf<'turn.completed'> | ScvEventOf<'turn.cancelled'> | ScvEventOf<'turn.failed'>;

export type ScvClientState = 'new' | 'connecting' | 'open' | 'closed';

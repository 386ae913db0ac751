/** Options and reports of `AgencyProxyClient`, apart from the socket code so consumers can import them alone. */
import type { FrameTap } from '../../transport/frameTap';
import type { AgencyProxyError } from './agencyProxyError';

export interface AgencyProxyClientOptions {
  readonly socketPath: string;
  readonly clientName?: string;
  /** Socket connect timeout (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /** Hello reply timeout (default 5000 ms). */
  readonly helloTimeoutMs?: number;
  /** Default per-request timeout (default 15000 ms). */
  readonly requestTimeoutMs?: number;
  /** Receives every JSON frame sent ('out') and received ('in'). */
  readonly frameTap?: FrameTap;
  /** shutdown() emulation against minor < 3: poll interval (default 100 ms) and overall bound (default 10000 ms). */
  readonly shutdownPollMs?: number;
  readonly shutdownEmulationTimeoutMs?: number;
  /** First request id (default 1); tests use it to exercise the wrap. */
  readonly firstRequestId?: number;
}

export interface AgencyProxyCloseInfo {
  /** Human-readable cause, e.g. "the daemon closed the connection". */
  readonly reason: string;
  /** True when this client called close(). */
  readonly byClient: boolean;
  /** Set for protocol-level failures (bad frame, truncated stream). */
  readonly error?: AgencyProxyError;
}

export interface AgencyProxyWarning {
  readonly message: string;
  readonly frame: unknown;
}

export interface ShutdownResult {
  /** True when the daemon is older than 0.3 and shutdown was emulated (cancel + shutdown_if_idle polling). */
  readonly emulated: boolean;
}

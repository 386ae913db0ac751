/**
 * A validated hive request on the wire and its reply read: one `hiveExchange` (retried only for idempotent reads,
 * only after a transport failure, never for sends — WIRE.md 6.4), the reply parsed leniently, and an `err` reply
 * turned into `HiveDaemonError`, or `HivePrivilegedError{clientSide:false}` for "privileged variant...".
 */
import { PRIVILEGED_ERR_PREFIX, parseHiveResponse } from '../../protocol/hive';
import type { HiveReply, HiveRequest } from '../../protocol/hive';
import type { FrameTap } from '../../transport/frameTap';
import { HiveConnectionError, HiveDaemonError, HivePrivilegedError } from './hiveErrors';
import { hiveExchange } from './hiveExchange';
import { HIVE_IDEMPOTENT_READ_CMDS } from './hiveRequestPolicy';

export interface HiveRoundTripOptions {
  readonly timeoutMs: number;
  readonly maxLineBytes: number;
  readonly frameTap: FrameTap;
  /** Extra attempts for idempotent reads after a transport failure. */
  readonly readRetries: number;
  readonly retryDelayMs: number;
}

/** Sends `request` and returns the parsed reply (`ok:false` = unknown kind or malformed, with raw JSON). */
export async function hiveRoundTrip(socketPath: string, request: HiveRequest, options: HiveRoundTripOptions): Promise<HiveReply> {
  const cmd = request.cmd;
  const reply = parseHiveResponse(await exchangeWithRetry(socketPath, request, options));
  if (!reply.ok && reply.kind === 'err') {
    // A malformed `err` is still a failure, never an "inferred ok".
    throw new HiveDaemonError(socketPath, cmd, `malformed err reply: ${JSON.stringify(reply.raw)}`);
  }
  if (reply.ok && reply.response.kind === 'err') {
    const message = reply.response.message;
    if (message.startsWith(PRIVILEGED_ERR_PREFIX)) {
      throw new HivePrivilegedError(socketPath, cmd, false, message);
    }
    throw new HiveDaemonError(socketPath, cmd, message);
  }
  return reply;
}

async function exchangeWithRetry(socketPath: string, request: HiveRequest, options: HiveRoundTripOptions): Promise<unknown> {
  const retries = HIVE_IDEMPOTENT_READ_CMDS.has(request.cmd) ? options.readRetries : 0;
  const exchange = { timeoutMs: options.timeoutMs, maxLineBytes: options.maxLineBytes, frameTap: options.frameTap };
  for (let attempt = 0; ; attempt++) {
    try {
      return await hiveExchange(socketPath, request, exchange);
    } catch (error) {
      if (attempt >= retries || !(error instanceof HiveConnectionError)) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs));
    }
  }
}

/**
 * One mcp.sock exchange (WIRE.md 4.2): connect, write one NDJSON request line, read one response line, close.
 * Several requests on one connection are unverified, so every request gets its own `StreamConnection`; that also
 * keeps a slow request (logs) from blocking the next one. The connection taps both frames.
 */
import type { FrameTap } from '../../transport/frameTap';
import { ndjsonFraming } from '../../transport/ndjsonFraming';
import { SocketConnectError } from '../../transport/socketConnection';
import { StreamConnection } from '../../transport/streamConnection';
import type { EncodedFrame, StreamCloseInfo } from '../../transport/streamConnection';
import { errorText } from '../kit/errors';
import { HiveConnectionError, HiveInvalidRequestError, HiveProtocolError, HiveTimeoutError } from './hiveErrors';

export interface HiveExchangeOptions {
  /** Covers connect + write + the whole response line. */
  readonly timeoutMs: number;
  readonly maxLineBytes: number;
  readonly frameTap: FrameTap;
}

const NOT_ANSWERED = 'connection closed before a response line';

/** Sends `request` (already validated and free of `undefined`) and resolves with the decoded response JSON. */
export async function hiveExchange(socketPath: string, request: { readonly cmd: string }, options: HiveExchangeOptions): Promise<unknown> {
  const cmd = request.cmd;
  // The daemon owes exactly one line: an oversized one fails at once, blank keep-alive lines are skipped, and a
  // daemon that closes right after an unterminated last line still gave a complete answer.
  const framing = ndjsonFraming({ maxFrameBytes: options.maxLineBytes, oversized: 'fail', skipBlankLines: true, unterminatedLastLine: 'frame' });
  let frame: EncodedFrame;
  try {
    frame = { value: request, bytes: framing.encode(request) };
  } catch (error) {
    throw new HiveInvalidRequestError(socketPath, cmd, errorText(error));
  }
  const started = Date.now();
  let connection: StreamConnection;
  try {
    connection = await StreamConnection.connect(socketPath, { framing, tap: options.frameTap, connectTimeoutMs: options.timeoutMs });
  } catch (error) {
    if (error instanceof SocketConnectError && error.code === 'ETIMEDOUT') {
      throw new HiveTimeoutError(socketPath, cmd, options.timeoutMs, false);
    }
    const cause = error instanceof SocketConnectError && error.cause instanceof Error ? error.cause : error;
    throw new HiveConnectionError(socketPath, cmd, `cannot connect: ${errorText(cause)}`, false, error instanceof SocketConnectError ? error.code : undefined);
  }
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: unknown): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      if (error) {
        reject(error);
      } else {
        resolve(value);
      }
    };
    const timer = setTimeout(
      () => finish(new HiveTimeoutError(socketPath, cmd, options.timeoutMs, true)),
      Math.max(0, options.timeoutMs - (Date.now() - started)),
    );
    connection.onFrame((value) => finish(undefined, value));
    connection.onFramingError((error) => {
      const detail = error.code === 'too_large'
        ? `response line exceeds the ${options.maxLineBytes}-byte limit (${error.bytes ?? 0} bytes read)`
        : error.code === 'invalid_json' ? `response ${error.message}` : `response unreadable: ${error.message}`;
      finish(new HiveProtocolError(socketPath, cmd, detail, error.text));
    });
    connection.onClose((info: StreamCloseInfo) => {
      const detail = info.error !== undefined ? `connection failed: ${info.error.message}` : NOT_ANSWERED;
      finish(new HiveConnectionError(socketPath, cmd, detail, true, errnoOf(info.error)));
    });
    void connection.write(frame);
  });
}

function errnoOf(error: Error | undefined): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

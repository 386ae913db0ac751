/**
 * One mcp.sock exchange (WIRE.md 4.2): connect, write one NDJSON request line, read one response line, close.
 * Several requests on one connection are unverified, so every request gets its own connection; that also keeps a
 * slow request (logs) from blocking the next one.
 */
import * as net from 'node:net';
import type { FrameTap } from '../../transport/frameTap';
import { NdjsonDecoder } from '../../transport/ndjsonDecoder';
import { HiveConnectionError, HiveProtocolError, HiveTimeoutError } from './hiveErrors';

export interface HiveExchangeOptions {
  /** Covers connect + write + the whole response line. */
  readonly timeoutMs: number;
  readonly maxLineBytes: number;
  readonly frameTap: FrameTap;
}

const MAX_RAW_IN_ERROR = 2048;

/** Sends `request` (already validated and free of `undefined`) and resolves with the decoded response JSON. */
export function hiveExchange(socketPath: string, request: { readonly cmd: string }, options: HiveExchangeOptions): Promise<unknown> {
  const cmd = request.cmd;
  const line = `${JSON.stringify(request)}\n`;
  return new Promise<unknown>((resolve, reject) => {
    const decoder = new NdjsonDecoder(options.maxLineBytes);
    let written = false;
    let settled = false;
    const socket = net.createConnection({ path: socketPath });

    const finish = (error: Error | undefined, value?: unknown): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) {
        reject(error);
      } else {
        resolve(value);
      }
    };

    const timer = setTimeout(() => finish(new HiveTimeoutError(socketPath, cmd, options.timeoutMs, written)), options.timeoutMs);

    const handleChunk = (chunk: Buffer): void => {
      for (const result of decoder.push(chunk)) {
        if (settled) {
          return;
        }
        if (result.kind === 'oversized') {
          finish(new HiveProtocolError(socketPath, cmd, `response line of ${result.bytes} bytes exceeds the ${options.maxLineBytes}-byte limit`));
          return;
        }
        if (result.text.trim() === '') {
          continue; // tolerate blank keep-alive lines
        }
        let value: unknown;
        try {
          value = JSON.parse(result.text);
        } catch (error) {
          finish(new HiveProtocolError(socketPath, cmd, `response is not JSON (${String(error)})`, result.text.slice(0, MAX_RAW_IN_ERROR)));
          return;
        }
        options.frameTap('in', value);
        finish(undefined, value);
        return;
      }
      if (!settled && decoder.discardingBytes > 0) {
        // The one response line is already over the limit: fail now rather than wait for a newline (or the timeout).
        finish(new HiveProtocolError(socketPath, cmd, `response line exceeds the ${options.maxLineBytes}-byte limit (${decoder.discardingBytes} bytes read)`));
      }
    };

    socket.on('connect', () => {
      options.frameTap('out', request);
      written = true;
      socket.write(line);
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        handleChunk(chunk);
      } catch (error) {
        // Never throw out of a socket handler (CONVENTIONS).
        finish(new HiveProtocolError(socketPath, cmd, `decoding failed: ${String(error)}`));
      }
    });
    socket.on('end', () => {
      // A daemon that closes right after an unterminated last line still gave a complete answer.
      if (!settled) {
        handleChunk(Buffer.from('\n'));
      }
      finish(new HiveConnectionError(socketPath, cmd, 'connection closed before a response line', written));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const detail = written ? `connection failed: ${error.message}` : `cannot connect: ${error.message}`;
      finish(new HiveConnectionError(socketPath, cmd, detail, written, error.code));
    });
    socket.on('close', () => finish(new HiveConnectionError(socketPath, cmd, 'connection closed before a response line', written)));
  });
}

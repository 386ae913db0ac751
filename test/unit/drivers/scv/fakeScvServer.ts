/**
 * A tiny scripted SCV server for client edge cases the reference daemon never produces: it answers `initialize`
 * and `session.start` (session `s1`, snapshot `seq` 1), then stalls (stops reading), stays mute, or writes
 * scripted lines.
 */
import * as net from 'node:net';
import * as path from 'node:path';

export interface FakeScvServer {
  readonly socketPath: string;
  /** Everything received after the handshake, as text. */
  received(): string;
  /** Start reading again (after `stall`). */
  resume(): void;
  close(): Promise<void>;
}

export interface FakeScvServerOptions {
  /** After the handshake: stop reading (`stall`), read without answering (`mute`), or send `script`. */
  readonly mode: 'stall' | 'mute' | 'script';
  /** Raw lines (no newline) written right after `queue.snapshot` in `script` mode. */
  readonly script?: readonly string[];
  /** Raw text written after the script, without a newline (e.g. half a line). */
  readonly tail?: string;
  /** `initialized.protocol_version`; default 3. */
  readonly protocolVersion?: number;
  /** The `status` to answer `daemon.control` with (any shape, to test what the client does with it). */
  readonly controlStatus?: unknown;
}

export async function fakeScvServer(dir: string, options: FakeScvServerOptions): Promise<FakeScvServer> {
  const socketPath = path.join(dir, 'f.sock');
  let after = '';
  let peer: net.Socket | undefined;
  const server = net.createServer((socket) => {
    peer = socket;
    let buffer = '';
    let handshakeDone = false;
    const send = (frame: unknown): void => {
      socket.write(JSON.stringify(frame) + '\n');
    };
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (handshakeDone) {
        after += chunk.toString('utf8');
        return;
      }
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const frame = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        if (frame['type'] === 'initialize') {
          send({
            type: 'initialized',
            request_id: frame['request_id'],
            protocol_version: options.protocolVersion ?? 3,
            server: { name: 'fake', version: '0' },
          });
        } else if (frame['type'] === 'daemon.control' && options.controlStatus !== undefined) {
          send({ type: 'daemon.status', request_id: frame['request_id'], status: options.controlStatus });
        } else if (frame['type'] === 'session.start') {
          send({
            type: 'session.started',
            request_id: frame['request_id'],
            session_id: 's1',
            cwd: frame['cwd'],
            model: 'm',
            context_max_tokens: 1,
            max_server_frame_bytes: 8_388_608,
            max_transcript_bytes: 1,
            max_transcript_items: 1,
            max_prompt_history_bytes: 1,
            max_prompt_history_items: 1,
          });
          send({ type: 'queue.snapshot', request_id: null, session_id: 's1', seq: 1, entries: [], paused: false });
          handshakeDone = true;
          after += buffer;
          if (options.mode === 'stall') {
            socket.pause(); // stop reading: the kernel buffers fill and the client's writes cannot complete
          } else if (options.mode === 'script') {
            socket.write((options.script ?? []).map((line) => line + '\n').join('') + (options.tail ?? ''));
          }
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    received: () => after,
    resume: () => peer?.resume(),
    close: () =>
      new Promise<void>((resolve) => {
        peer?.destroy();
        server.close(() => resolve());
      }),
  };
}

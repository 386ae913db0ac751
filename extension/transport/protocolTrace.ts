/**
 * The protocol trace: every frame sent or received on any daemon connection, appended to a file as one JSON line
 * `{"t","protocol","connection","dir","frame"[,"http"]}` (secrets redacted by key and by value). Enabled by the environment variable
 * SWITCHBOARD_TRACE_FILE or the setting `agentSwitchboard.trace.file`. Writes are queued and never block or throw
 * into the caller; a failing trace file is reported once through `onError`.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { ProtocolName } from '../protocol/protocolNames';
import type { FrameTap } from './frameTap';
import type { SecretValues } from './secretValues';
import { processSecretValues } from './secretValues';
import { redactSecrets } from './traceRedaction';

export type TraceProtocol = ProtocolName;

export class ProtocolTrace {
  private stream: WriteStream | undefined;
  private failed = false;

  constructor(
    readonly file: string,
    private readonly onError: (error: unknown) => void,
    private readonly clock: () => number = Date.now,
    private readonly secretValues: SecretValues = processSecretValues,
  ) {}

  /** A FrameTap that records frames of one connection. */
  tap(protocol: TraceProtocol, connection: string): FrameTap {
    return (dir, frame, http) => {
      const line: Record<string, unknown> = { t: this.clock(), protocol, connection, dir, frame: redactSecrets(frame, this.secretValues) };
      if (http) {
        const path = this.secretValues.redact(http.path);
        line.http = http.status === undefined ? { method: http.method, path } : { ...http, path };
      }
      this.write(`${JSON.stringify(line)}\n`);
    };
  }

  /** Resolves when everything written so far has been flushed to the file. */
  flush(): Promise<void> {
    const stream = this.stream;
    if (!stream || this.failed) {
      return Promise.resolve();
    }
    return new Promise((resolve) => stream.write('', () => resolve()));
  }

  dispose(): void {
    this.stream?.end();
    this.stream = undefined;
  }

  private write(text: string): void {
    if (this.failed) {
      return;
    }
    try {
      if (!this.stream) {
        mkdirSync(dirname(this.file), { recursive: true });
        this.stream = createWriteStream(this.file, { flags: 'a' });
        this.stream.on('error', (error) => this.fail(error));
      }
      this.stream.write(text);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (!this.failed) {
      this.failed = true;
      this.onError(error);
    }
  }
}

/** A tap that fans out to several taps (trace + log), isolating failures. */
export function combineTaps(...taps: readonly (FrameTap | undefined)[]): FrameTap {
  const active = taps.filter((t): t is FrameTap => t !== undefined);
  return (dir, frame, http) => {
    for (const tap of active) {
      try {
        tap(dir, frame, http);
      } catch {
        // A tracing problem must never break a connection.
      }
    }
  };
}

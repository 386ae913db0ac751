/**
 * The SCV client's read path without a socket, for the fuzz test and the ingest bench: the NDJSON framing's
 * decoder (as `StreamConnection` runs it) feeding `ScvEventReader`, resized when `session.started` says so.
 */
import { ScvEventReader, scvFraming } from '../../../../extension/drivers/scv/eventReader';
import type { ScvEventReaderSink } from '../../../../extension/drivers/scv/eventReader';
import { SCV_MAX_CLIENT_LINE_BYTES } from '../../../../extension/protocol/scv';
import type { FrameResult } from '../../../../extension/transport/framing';

export interface ScvReadPath {
  push(chunk: Buffer): void;
  /** At EOF: the size of a line left unterminated (0 if none). */
  end(): number;
  readonly maxLineBytes: number;
}

export function scvReadPath(sink: ScvEventReaderSink): ScvReadPath {
  const decoder = scvFraming(SCV_MAX_CLIENT_LINE_BYTES).createDecoder();
  const reader = new ScvEventReader({ ...sink, lineLimit: (bytes) => decoder.setMaxFrameBytes(bytes) });
  const feed = (results: readonly FrameResult[]): number => {
    let dangling = 0;
    for (const result of results) {
      if (result.kind === 'frame') {
        reader.frame(result.value);
      } else if (result.kind === 'error') {
        dangling = result.error.code === 'truncated' ? (result.error.bytes ?? 0) : dangling;
        reader.framingError(result.error);
      }
    }
    return dangling;
  };
  return {
    push: (chunk) => void feed(decoder.push(chunk)),
    end: () => feed(decoder.end()),
    get maxLineBytes() {
      return reader.maxLineBytes;
    },
  };
}

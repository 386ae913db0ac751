/**
 * A process's stdout as a web stream of complete lines, for a JSON-RPC layer that splits lines itself (the ACP SDK's
 * `ndJsonStream`): our splitter (lineSplitter.ts) sits in front, so the layer behind it never holds more than one
 * bounded line, each line is scanned once, and a line over the limit ends the stream instead of growing a buffer.
 * Backpressure is kept: the source pauses while the stream's queue is full.
 */
import type { Readable } from 'node:stream';
import type { LineOverflowError } from './lineSplitter';
import { LineSplitter, MAX_LINE_BYTES } from './lineSplitter';

const NEWLINE = new Uint8Array([0x0a]);

/**
 * Lines of `source`, each followed by '\n'; `onLine` sees each (without it) first. On overflow the stream ends, the
 * source is destroyed and `onOverflow` is called once (the owner stops the process).
 */
export function completeLines(
  source: Readable,
  onLine: (line: Uint8Array) => void,
  onOverflow: (error: LineOverflowError) => void,
  maxLineBytes = MAX_LINE_BYTES,
): ReadableStream<Uint8Array> {
  const splitter = new LineSplitter(maxLineBytes);
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (): void => {
        if (done) {
          return;
        }
        done = true;
        const last = splitter.flush();
        if (last) {
          onLine(last);
          controller.enqueue(last);
        }
        controller.close();
      };
      source.on('data', (chunk: Buffer) => {
        if (done) {
          return;
        }
        let lines: Uint8Array[];
        try {
          lines = splitter.push(chunk);
        } catch (error) {
          done = true;
          controller.close();
          source.destroy();
          onOverflow(error as LineOverflowError);
          return;
        }
        for (const line of lines) {
          onLine(line);
          controller.enqueue(line);
          controller.enqueue(NEWLINE);
        }
        if ((controller.desiredSize ?? 1) <= 0) {
          source.pause();
        }
      });
      source.once('end', finish);
      source.once('close', finish);
    },
    pull() {
      source.resume();
    },
    cancel() {
      done = true;
      source.destroy();
    },
  });
}

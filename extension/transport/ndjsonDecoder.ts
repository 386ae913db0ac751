/**
 * Splits a byte stream into NDJSON lines (SCV, hyperhive). Partial lines are kept across chunks as a list of
 * slices, so a line arriving in many chunks costs O(line), not O(line x chunks). A line longer than
 * `maxLineBytes` is refused as soon as it is known to be too long: its bytes are dropped as they arrive (memory
 * stays flat) and an `oversized` result is reported once the line ends, after which decoding resyncs on the next
 * newline. A trailing `\r` is stripped (WIRE.md 2.2).
 */
export type NdjsonResult =
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'oversized'; readonly bytes: number };

export class NdjsonDecoder {
  private parts: Buffer[] = [];
  private partsBytes = 0;
  /** Bytes of the current line that were dropped because it is over the limit; -1 when not skipping. */
  private skipped = -1;

  constructor(private maxLineBytes: number) {}

  /** The limit can grow once the peer advertises it (SCV `session.started.max_server_frame_bytes`). */
  setMaxLineBytes(max: number): void {
    this.maxLineBytes = max;
  }

  /** Bytes held for an unfinished line (for tests and memory checks). */
  get bufferedBytes(): number {
    return this.partsBytes;
  }

  /**
   * Bytes of the current line dropped so far because it is already over the limit (0 when not dropping). A peer
   * that owes exactly one line (hyperhive) can give up here instead of waiting for a newline that may never come.
   */
  get discardingBytes(): number {
    return Math.max(0, this.skipped);
  }

  push(chunk: Buffer): NdjsonResult[] {
    const out: NdjsonResult[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl !== -1 && this.partsBytes === 0 && this.skipped < 0) {
        // The common case, a whole line inside this chunk: read in place (no slice, no copy).
        const end = nl > start && chunk[nl - 1] === 0x0d ? nl - 1 : nl;
        // Sizes as the slow path reports them: a line refused before its end counts its '\r'.
        const oversized = nl - start > this.maxLineBytes + 1 ? nl - start : end - start > this.maxLineBytes ? end - start : -1;
        out.push(oversized >= 0 ? { kind: 'oversized', bytes: oversized } : { kind: 'line', text: chunk.toString('utf8', start, end) });
        start = nl + 1;
        continue;
      }
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (this.skipped >= 0) {
        this.skipped += piece.length;
      } else if (this.partsBytes + piece.length > this.maxLineBytes + 1) {
        // +1 tolerates the optional '\r' before '\n'; the exact check happens once the line is complete.
        this.skipped = this.partsBytes + piece.length;
        this.parts = [];
        this.partsBytes = 0;
      } else if (piece.length > 0) {
        this.parts.push(piece);
        this.partsBytes += piece.length;
      }
      if (nl === -1) {
        break;
      }
      out.push(this.finishLine());
      start = nl + 1;
    }
    return out;
  }

  /** Call at EOF: reports whether an unterminated line was left behind. */
  end(): { readonly danglingBytes: number } {
    const danglingBytes = this.skipped >= 0 ? this.skipped : this.partsBytes;
    this.parts = [];
    this.partsBytes = 0;
    this.skipped = -1;
    return { danglingBytes };
  }

  private finishLine(): NdjsonResult {
    if (this.skipped >= 0) {
      const bytes = this.skipped;
      this.skipped = -1;
      return { kind: 'oversized', bytes };
    }
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsBytes);
    this.parts = [];
    this.partsBytes = 0;
    if (line.length > 0 && line[line.length - 1] === 0x0d) {
      line = line.subarray(0, line.length - 1);
    }
    if (line.length > this.maxLineBytes) {
      return { kind: 'oversized', bytes: line.length };
    }
    return { kind: 'line', text: line.toString('utf8') };
  }
}

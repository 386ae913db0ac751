/**
 * Splits a byte stream into newline-terminated lines in linear time and bounded memory: each chunk is scanned once
 * for '\n' (only the new bytes, never the part of the line already held), the bytes of an unfinished line are kept
 * as a list of chunks and joined once when its newline arrives, and a line that grows past `maxLineBytes` without a
 * newline is an overflow — the splitter stops and keeps nothing. What an ACP agent writes on stdout goes through one
 * (transport/stdioProcess.ts): joining a string per chunk made 32 MiB without a newline cost seconds of CPU.
 */

/**
 * The longest line an ACP agent may write: 64 MiB. An agent's message carries whole files — an edit's old and new
 * text in one `session/update`, `fs/write_text_file`'s content — and JSON escaping grows them; an agent may read files
 * of up to 16 MiB through the editor (ui/workspaceFileRead.ts), so two of those, escaped, fit with room to spare.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;

export class LineOverflowError extends Error {
  constructor(readonly maxLineBytes: number) {
    // Lower case, no full stop: it completes "<agent> stopped: …" and takes the stderr tail after it.
    super(`the agent wrote a line longer than ${maxLineBytes / (1024 * 1024)} MiB without a newline; it was stopped`);
    this.name = 'LineOverflowError';
  }
}

export class LineSplitter {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private overflowed = false;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** Bytes of the unfinished line held now. */
  get pendingBytes(): number {
    return this.heldBytes;
  }

  /**
   * The lines `chunk` completes, each without its '\n' (a '\r' before it is kept: JSON parsing ignores it). Throws
   * `LineOverflowError` once the unfinished line passes the limit; after that it takes nothing more.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.overflowed) {
      return [];
    }
    const lines: Uint8Array[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.check(newline - start);
      lines.push(this.take(chunk.subarray(start, newline)));
      start = newline + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.check(rest.length);
      this.held.push(rest);
      this.heldBytes += rest.length;
    }
    return lines;
  }

  /** The unfinished last line at the end of the stream, if any. */
  flush(): Uint8Array | undefined {
    if (this.heldBytes === 0) {
      return undefined;
    }
    return this.take(new Uint8Array(0));
  }

  private check(more: number): void {
    if (this.heldBytes + more > this.maxLineBytes) {
      this.overflowed = true;
      this.held = [];
      this.heldBytes = 0;
      throw new LineOverflowError(this.maxLineBytes);
    }
  }

  private take(tail: Uint8Array): Uint8Array {
    if (this.held.length === 0) {
      return tail;
    }
    const line = new Uint8Array(this.heldBytes + tail.length);
    let offset = 0;
    for (const part of this.held) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(tail, offset);
    this.held = [];
    this.heldBytes = 0;
    return line;
  }
}

/**
 * The output a terminal keeps for its agent (ACP `terminal/output`): the bytes of stdout and stderr as they came, at
 * most `byteLimit` of them. Over the limit the oldest bytes go, as the spec says ("the Client truncates from the
 * beginning of the output"), and the cut moves forward to the next UTF-8 character start, so the text kept is valid
 * even when that leaves slightly fewer bytes than the limit. Bytes, not JS string length: the limit the agent gives
 * is in bytes. Reading it never splits a character whose last bytes have not arrived yet.
 */

/** Whether `byte` continues a UTF-8 sequence (10xxxxxx) rather than starting a character. */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Where the last complete character of `bytes` ends: a sequence whose bytes have not all come is left out. */
export function completeEnd(bytes: Uint8Array): number {
  const end = bytes.length;
  // A UTF-8 character is at most 4 bytes: look back at most 3 bytes for its lead byte.
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i]!;
    if (isContinuation(byte)) {
      continue;
    }
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return i + length <= end ? end : i;
  }
  return end;
}

export class TerminalOutput {
  private chunks: Buffer[] = [];
  private size = 0;
  private cut = false;
  private readonly decoder = new TextDecoder('utf-8');

  /** `byteLimit`: the most bytes kept (at least 0). */
  constructor(private readonly byteLimit: number) {}

  /** Whether output was dropped from the start to stay within the limit. */
  get truncated(): boolean {
    return this.cut;
  }

  /** How many bytes are kept. */
  get byteLength(): number {
    return this.size;
  }

  append(bytes: Uint8Array): void {
    if (bytes.length === 0) {
      return;
    }
    this.chunks.push(Buffer.from(bytes));
    this.size += bytes.length;
    if (this.size > this.byteLimit) {
      this.trim();
    }
  }

  /**
   * The text kept. `final`: the command has exited, so an incomplete last sequence will never be completed and is
   * decoded as it is (U+FFFD); while it runs such bytes wait for the rest of their character.
   */
  text(final: boolean): string {
    const all = this.joined();
    return this.decoder.decode(final ? all : all.subarray(0, completeEnd(all)));
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) {
      this.chunks = [Buffer.concat(this.chunks, this.size)];
    }
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  /** Drops the oldest bytes over the limit, then the rest of a character the cut went through. */
  private trim(): void {
    const all = this.joined();
    let start = this.size - this.byteLimit;
    while (start < all.length && isContinuation(all[start]!)) {
      start++;
    }
    this.chunks = [all.subarray(start)];
    this.size = all.length - start;
    this.cut = true;
  }
}

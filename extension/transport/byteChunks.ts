/**
 * The unread input of a stream decoder (lengthPrefixed.ts) as a list of the chunks it arrived in: reading copies
 * only the bytes of one frame, and only when they straddle chunks, so a frame split over many chunks costs O(frame)
 * and many frames in one chunk cost O(chunk). Consumed chunks are dropped in batches (no O(n) shift per chunk).
 */
export class ByteChunks {
  private chunks: Buffer[] = [];
  /** Index of the first unread chunk. */
  private headIndex = 0;
  private offset = 0;
  private buffered = 0;

  /** Bytes held. */
  get length(): number {
    return this.buffered;
  }

  /** The first unread chunk (read it from `headOffset`); only while `length` > 0. */
  get head(): Buffer {
    return this.chunks[this.headIndex]!;
  }

  /** The read offset into `head`. */
  get headOffset(): number {
    return this.offset;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  clear(): void {
    this.chunks = [];
    this.headIndex = 0;
    this.offset = 0;
    this.buffered = 0;
  }

  /** The u32 BE at the read position (at least 4 bytes held), not consumed. */
  peekUInt32(): number {
    const head = this.head;
    if (head.length - this.offset >= 4) {
      return head.readUInt32BE(this.offset);
    }
    return this.copyOut(4, false).readUInt32BE(0);
  }

  /** Removes `n` held bytes and returns them; zero-copy when they sit in one chunk. */
  take(n: number): Buffer {
    return this.copyOut(n, true);
  }

  /** Drops `n` held bytes. */
  advance(n: number): void {
    this.buffered -= n;
    let left = n;
    while (left > 0) {
      const head = this.chunks[this.headIndex]!;
      const available = head.length - this.offset;
      if (available > left) {
        this.offset += left;
        break;
      }
      left -= available;
      this.headIndex += 1;
      this.offset = 0;
    }
    if (this.headIndex === this.chunks.length) {
      this.chunks = [];
      this.headIndex = 0;
    } else if (this.headIndex >= 64 && this.headIndex * 2 >= this.chunks.length) {
      // Amortised O(1): drop the consumed prefix only once it is at least half the list.
      this.chunks = this.chunks.slice(this.headIndex);
      this.headIndex = 0;
    }
  }

  private copyOut(n: number, consume: boolean): Buffer {
    const head = this.head;
    if (head.length - this.offset >= n) {
      const slice = head.subarray(this.offset, this.offset + n);
      if (consume) {
        this.advance(n);
      }
      return slice;
    }
    const out = Buffer.allocUnsafe(n);
    let written = 0;
    let index = this.headIndex;
    let offset = this.offset;
    while (written < n) {
      const chunk = this.chunks[index]!;
      const count = Math.min(n - written, chunk.length - offset);
      chunk.copy(out, written, offset, offset + count);
      written += count;
      index += 1;
      offset = 0;
    }
    if (consume) {
      this.advance(n);
    }
    return out;
  }
}

/**
 * The kind of every item of a transcript, a byte each (`kindCode`): what a windowed snapshot
 * carries instead of the items it leaves out, kept by the host's Transcript and the webview's store alike. A
 * growable byte array, not a string grown by concatenation: a string would be a rope with a node per item, flattened
 * again (O(transcript)) each time it is read after an append. No imports beyond transcriptTypes: shared with the
 * webview bundle.
 */
import type { TranscriptItemKind } from './transcriptTypes';

/**
 * Every item kind, in the order of its one-character code (`a` = user, …). A snapshot carries the kinds of the whole
 * transcript as a string of codes — one character per item — so the webview can estimate the height of items it has
 * not loaded (a windowed transcript) for about a byte each instead of the items themselves.
 */
export const TRANSCRIPT_KINDS = [
  'user', 'text', 'reasoning', 'tool', 'approval', 'usage', 'rateLimit', 'compaction', 'error', 'notice', 'gap', 'turn', 'message', 'raw', 'checkpoint',
] as const satisfies readonly TranscriptItemKind[];
// A kind missing from the list above fails to compile here.
const _everyKindCoded: Exclude<TranscriptItemKind, (typeof TRANSCRIPT_KINDS)[number]> extends never ? true : never = true;
void _everyKindCoded;
const KIND_CODE_BASE = 97; // 'a'
const CODE_OF_KIND = new Map<TranscriptItemKind, string>(TRANSCRIPT_KINDS.map((kind, i) => [kind, String.fromCharCode(KIND_CODE_BASE + i)]));

/** The one-character code of `kind` (see TRANSCRIPT_KINDS). */
export function kindCode(kind: TranscriptItemKind): string {
  return CODE_OF_KIND.get(kind) ?? 'b';
}

/** The kind a code stands for; an unknown code reads as `text` (the commonest kind). */
export function kindOfCode(code: number): TranscriptItemKind {
  return TRANSCRIPT_KINDS[code - KIND_CODE_BASE] ?? 'text';
}

/** Codes are ASCII letters: any single-byte decoding reads them as themselves. */
const DECODER = new TextDecoder('latin1');

export class KindCodes {
  private bytes: Uint8Array;
  private count = 0;
  /** `text`, kept until the next push. */
  private cached: string | undefined = '';

  constructor(text = '') {
    this.bytes = new Uint8Array(Math.max(256, text.length * 2));
    for (let i = 0; i < text.length; i++) {
      this.bytes[i] = text.charCodeAt(i);
    }
    this.count = text.length;
    this.cached = text;
  }

  get length(): number {
    return this.count;
  }

  push(kind: TranscriptItemKind): void {
    if (this.count === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.count++] = kindCode(kind).charCodeAt(0);
    this.cached = undefined;
  }

  /** The kind at `index`; past the end (or an unknown code) reads as `text`. */
  at(index: number): TranscriptItemKind {
    return kindOfCode(index < this.count ? this.bytes[index]! : Number.NaN);
  }

  /** All codes as a string (a snapshot's `kinds`). */
  get text(): string {
    this.cached ??= DECODER.decode(this.bytes.subarray(0, this.count));
    return this.cached;
  }
}

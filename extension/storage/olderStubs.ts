/**
 * The older finished runs of a connection as the run index's digest lists them (runIndexDigest.ts): a connect needs
 * only their number (the "N older runs…" rows), so they stay text — one line per run, `activeAt TAB createdAt TAB
 * "runId"` (the id JSON-quoted: a daemon's id may hold tabs or newlines, and JSON.stringify escapes both), the most
 * recently active first — and are decoded when something asks for them: the retention limits (a binary search over
 * the lines, runRetention.ts), a page of them, a lookup by id. Parsing them eagerly as JSON arrays cost 0.5 ms per
 * 1,000 runs at every open (numbers past 2³¹ are heap numbers), and building their list as much again.
 */

/** A finished run the digest keeps only the order of: its id, when it was created and last active. */
export type OlderStub = readonly [runId: string, createdAt: number, activeAt: number];

/** The shortest line `of` writes: `0 TAB 0 TAB "" LF`. */
export const MIN_LINE_CHARS = 7;

export class OlderStubs {
  static readonly none = new OlderStubs('', 0);

  /** Where each line starts (built on the first search), and the decoded runs (on the first full read). */
  private starts: Uint32Array | undefined;
  private decoded: readonly OlderStub[] | undefined;
  private ids: ReadonlySet<string> | undefined;

  /** How many lines there are (at most as many as `text` can hold). */
  readonly count: number;

  /** `text`: `count` lines as `of` writes them. */
  constructor(
    readonly text: string,
    count: number,
  ) {
    // A damaged digest's count is never trusted further than its text: a line index is allocated per line.
    this.count = Math.max(0, Math.min(count, Math.floor(text.length / MIN_LINE_CHARS)));
  }

  /** The stubs in the digest's order (most recently active first, ties by id). */
  static of(stubs: readonly OlderStub[]): OlderStubs {
    const sorted = [...stubs].sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new OlderStubs(sorted.map(([runId, createdAt, activeAt]) => `${activeAt}\t${createdAt}\t${JSON.stringify(runId)}\n`).join(''), sorted.length);
  }

  /** Line `line` decoded; undefined: out of range, or not a line `of` writes (a damaged digest). */
  at(line: number): OlderStub | undefined {
    if (line < 0 || line >= this.count) {
      return undefined;
    }
    const start = this.lineStarts()[line]!;
    const end = this.text.indexOf('\n', start);
    return decodeLine(this.text, start, end < 0 ? this.text.length : end);
  }

  /** The first line for which `past` holds, `past` being false then true along the lines (count: none). */
  firstWhere(past: (stub: OlderStub, line: number) => boolean): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const stub = this.at(middle);
      if (stub === undefined || past(stub, middle)) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return low;
  }

  /** The first `lines` lines. */
  head(lines: number): OlderStubs {
    return lines >= this.count ? this : new OlderStubs(this.text.slice(0, this.startOf(lines)), Math.max(0, lines));
  }

  /** The lines from `line` on. */
  from(line: number): OlderStubs {
    return line <= 0 ? this : new OlderStubs(this.text.slice(this.startOf(line)), Math.max(0, this.count - line));
  }

  /** Every stub, decoded once (a damaged line is left out). */
  all(): readonly OlderStub[] {
    if (this.decoded === undefined) {
      const out: OlderStub[] = [];
      for (let start = 0; start < this.text.length;) {
        const end = this.text.indexOf('\n', start);
        const stub = decodeLine(this.text, start, end < 0 ? this.text.length : end);
        if (stub) {
          out.push(stub);
        }
        start = end < 0 ? this.text.length : end + 1;
      }
      this.decoded = out;
    }
    return this.decoded;
  }

  /** Whether the run is listed here (the first call decodes every line). */
  has(runId: string): boolean {
    this.ids ??= new Set(this.all().map(([id]) => id));
    return this.ids.has(runId);
  }

  /** These less the runs in `runIds` (decodes every line: only a crash leaves a removed run in a digest). */
  without(runIds: ReadonlyMap<string, unknown> | ReadonlySet<string>): OlderStubs {
    return this.count === 0 ? this : OlderStubs.of(this.all().filter(([runId]) => !runIds.has(runId)));
  }

  private startOf(line: number): number {
    return line >= this.count ? this.text.length : this.lineStarts()[line]!;
  }

  private lineStarts(): Uint32Array {
    if (this.starts === undefined) {
      // A damaged text with fewer lines than its count: the missing ones start at its end (they decode to nothing).
      const starts = new Uint32Array(this.count).fill(this.text.length);
      let at = 0;
      for (let line = 0; line < this.count && at < this.text.length; line++) {
        starts[line] = at;
        const end = this.text.indexOf('\n', at);
        at = end < 0 ? this.text.length : end + 1;
      }
      this.starts = starts;
    }
    return this.starts;
  }
}

function decodeLine(text: string, start: number, end: number): OlderStub | undefined {
  const tab1 = text.indexOf('\t', start);
  const tab2 = tab1 < 0 ? -1 : text.indexOf('\t', tab1 + 1);
  if (tab2 < 0 || tab2 >= end) {
    return undefined;
  }
  const activeAt = Number(text.slice(start, tab1));
  const createdAt = Number(text.slice(tab1 + 1, tab2));
  let runId: unknown;
  try {
    runId = JSON.parse(text.slice(tab2 + 1, end));
  } catch {
    return undefined;
  }
  return typeof runId === 'string' && Number.isFinite(activeAt) && Number.isFinite(createdAt) ? [runId, createdAt, activeAt] : undefined;
}

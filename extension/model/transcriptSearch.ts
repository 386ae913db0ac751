/**
 * Find in transcript: the host has every item, so the search runs here over the whole run and the view only scrolls
 * to the hits (it holds a window of the transcript). What is searched is what the item shows: its text, a tool's
 * name, input and output, an approval's title and summary… Structured data (tool input, raw events) is searched as
 * the JSON the view shows, up to DATA_CHARS characters per item. Pure.
 */
import { TimeSlices } from '../base/timeSlices';
import type { TranscriptItem } from '../protocol/transcriptTypes';
import { TRANSCRIPT_WINDOW } from '../protocol/transcriptWindowSizes';
import type { Transcript } from './transcript';

/** Structured data longer than this (as JSON) is searched only this far: the view folds it anyway. */
const DATA_CHARS = 20_000;

function dataText(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value === 'string') {
    return value.slice(0, DATA_CHARS);
  }
  try {
    return (JSON.stringify(value) ?? '').slice(0, DATA_CHARS);
  } catch {
    return ''; // a cycle or a BigInt: nothing the view could show as JSON either
  }
}

/** The searchable text of one item, fields joined by newlines (so a query never matches across two fields). */
export function searchableText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return item.note ? `${item.text}\n${item.note}` : item.text;
    case 'text':
    case 'reasoning':
      return item.text;
    case 'tool':
      return [item.name, dataText(item.input), item.output, item.progress ?? '', item.errorKind ?? ''].join('\n');
    case 'approval':
      return [item.title, item.summary ?? '', item.risk ?? '', item.subject?.command ?? '', ...(item.subject?.paths ?? []), item.reason ?? ''].join('\n');
    case 'usage':
    case 'rateLimit':
    case 'compaction':
      return item.summary;
    case 'error':
      return item.code ? `${item.message}\n${item.code}` : item.message;
    case 'notice':
      return item.text;
    case 'gap':
      return item.reason;
    case 'turn':
      return [item.summary ?? '', item.message ?? '', item.code ?? ''].join('\n');
    case 'message':
      return `${item.from}\n${item.body}`;
    case 'raw':
      return `${item.label}\n${dataText(item.data)}`;
    case 'checkpoint':
      return [item.summary ?? '', item.unavailable ?? ''].join('\n');
    default: {
      const _exhaustive: never = item;
      return _exhaustive;
    }
  }
}

export interface FindResult {
  /** Indices of matching items, in order; at most `maxHits`. */
  readonly hits: number[];
  readonly truncated: boolean;
}

/** Every item of `transcript` whose text contains `query` (case-insensitive unless `matchCase`). An empty query finds nothing. */
export function findInTranscript(transcript: Transcript, query: string, matchCase: boolean, maxHits: number = TRANSCRIPT_WINDOW.findMaxHits): FindResult {
  const search = new TranscriptSearch(transcript, query, matchCase, maxHits);
  search.step(Number.POSITIVE_INFINITY);
  return search.result;
}

/** Items searched between two looks at the clock (a few hundred microseconds of work). */
const ITEMS_PER_STEP = 256;

/**
 * The same, in slices of the event loop (issue #25 §3: a Find over 100k items held the host 130 ms): the loop is
 * given back whenever `slices` says its budget is used. Items are only appended or replaced, never moved, so an
 * index found stays the item's while the run streams on; items added meanwhile are searched too.
 */
export async function findInTranscriptSliced(
  transcript: Transcript,
  query: string,
  matchCase: boolean,
  maxHits: number = TRANSCRIPT_WINDOW.findMaxHits,
  slices: TimeSlices = new TimeSlices(),
): Promise<FindResult> {
  const search = new TranscriptSearch(transcript, query, matchCase, maxHits);
  while (!search.step(ITEMS_PER_STEP)) {
    await slices.pause();
  }
  return search.result;
}

/** One search, advanced a number of items at a time. */
class TranscriptSearch {
  private readonly hits: number[] = [];
  private next = 0;
  private truncated = false;
  private readonly needle: string;

  constructor(
    private readonly transcript: Transcript,
    query: string,
    private readonly matchCase: boolean,
    private readonly maxHits: number,
  ) {
    this.needle = matchCase ? query : query.toLowerCase();
  }

  get result(): FindResult {
    return { hits: this.hits, truncated: this.truncated };
  }

  /** Searches up to `count` more items; true once the search is over. */
  step(count: number): boolean {
    if (this.needle.length === 0) {
      return true;
    }
    const end = Math.min(this.transcript.length, this.next + count);
    for (; this.next < end; this.next++) {
      const item = this.transcript.at(this.next);
      if (!item) {
        continue;
      }
      const text = searchableText(item);
      if ((this.matchCase ? text : text.toLowerCase()).includes(this.needle)) {
        if (this.hits.length === this.maxHits) {
          this.truncated = true;
          return true;
        }
        this.hits.push(this.next);
      }
    }
    return this.next >= this.transcript.length;
  }
}

/**
 * Find in transcript: the host has every item, so the search runs here over the whole run and the view only scrolls
 * to the hits (it holds a window of the transcript). What is searched is what the item shows: its text, a tool's
 * name, input and output, an approval's title and summary… Structured data (tool input, raw events) is searched as
 * the JSON the view shows, up to DATA_CHARS characters per item. Pure.
 */
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
  const hits: number[] = [];
  if (query.length === 0) {
    return { hits, truncated: false };
  }
  const needle = matchCase ? query : query.toLowerCase();
  for (let i = 0; i < transcript.length; i++) {
    const item = transcript.at(i);
    if (!item) {
      continue;
    }
    const text = searchableText(item);
    if ((matchCase ? text : text.toLowerCase()).includes(needle)) {
      if (hits.length === maxHits) {
        return { hits, truncated: true };
      }
      hits.push(i);
    }
  }
  return { hits, truncated: false };
}

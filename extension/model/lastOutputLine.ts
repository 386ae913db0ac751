/**
 * The last line of a run's output, for one-line previews (the run board). Reads from the end of the transcript and
 * looks at a bounded number of items, and at most the tail of one text, so its cost does not grow with the run:
 * the board asks for it on every refresh while runs stream.
 */
import type { TranscriptItem } from '../protocol/transcriptTypes';
import { isAllowing } from '../protocol/transcriptTypes';

/** What the query needs of a transcript (model/transcript.ts has it). */
export interface TranscriptTail {
  readonly length: number;
  at(index: number): TranscriptItem | undefined;
}

/** Items looked at from the end before giving up (usage lines, turn markers… say nothing). */
const MAX_ITEMS = 16;
/** Characters of a text read from its end to find its last line. */
const MAX_TAIL = 4096;
const MAX_LENGTH = 200;

/** The last non-empty line of the newest item that says something, whitespace collapsed and shortened; or none. */
export function lastOutputLine(transcript: TranscriptTail | undefined): string | undefined {
  if (!transcript) {
    return undefined;
  }
  const stop = Math.max(0, transcript.length - MAX_ITEMS);
  for (let i = transcript.length - 1; i >= stop; i--) {
    const item = transcript.at(i);
    const line = item ? lineOf(item) : undefined;
    if (line) {
      return line;
    }
  }
  return undefined;
}

function lineOf(item: TranscriptItem): string | undefined {
  switch (item.kind) {
    case 'text':
      return lastLine(item.text);
    case 'user': {
      const line = lastLine(item.text);
      return line ? `You: ${line}` : undefined;
    }
    case 'tool': {
      const tail = lastLine(item.output) ?? (item.progress ? lastLine(item.progress) : undefined);
      return tail ? `${item.name}: ${tail}` : item.name;
    }
    case 'approval':
      // Only a request that still waits reads "Approval: …": one settled or expired says so (a lost run whose
      // request died with the daemon must not look as if it still asked).
      return `${approvalWord(item)}: ${lastLine(item.summary ?? '') ?? item.title}`;
    case 'error':
      return lastLine(item.message);
    case 'notice':
      // "Run completed" and the like: the row's icon says it already; the line before is the run's last word.
      return item.state !== undefined ? undefined : lastLine(item.text);
    case 'message':
      return lastLine(item.body);
    case 'turn':
      return item.message ? lastLine(item.message) : undefined;
    case 'reasoning':
    case 'usage':
    case 'rateLimit':
    case 'compaction':
    case 'gap':
    case 'raw':
    case 'checkpoint':
      return undefined;
    default: {
      const _exhaustive: never = item;
      return _exhaustive;
    }
  }
}

function approvalWord(item: Extract<TranscriptItem, { kind: 'approval' }>): string {
  switch (item.status) {
    case 'decided':
      return item.decision !== undefined && !isAllowing(item.decision) ? 'Denied' : 'Allowed';
    case 'expired':
      return 'Approval expired';
    default:
      return 'Approval';
  }
}

/** The last non-empty line of `text`, read from its end only. */
export function lastLine(text: string): string | undefined {
  const tail = text.length > MAX_TAIL ? text.slice(-MAX_TAIL) : text;
  const lines = tail.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(/\s+/g, ' ').trim();
    // A closing code fence or a rule says nothing: the line above it does.
    if (line && !/^[`~\-*_=|#>\s]*$/.test(line)) {
      return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line;
    }
  }
  return undefined;
}

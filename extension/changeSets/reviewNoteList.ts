/**
 * A run's pending notes to the agent as a value (issue #26): add, edit, remove, keep only some, and the lenient read
 * of what a file stored. Pure; the one writer of a run's list is ui/reviewNotes/reviewNoteStore.ts. The list is kept
 * in reading order (path, then first line), the order the message lists the notes in.
 */
import type { ReviewNote, ReviewNoteAnchor } from '../protocol/reviewNotes';
import { MAX_NOTE_CHARS, MAX_NOTES_PER_RUN, MAX_QUOTED_LINE_CHARS, MAX_QUOTED_LINES, reviewNoteSchema, storedReviewNotesSchema } from '../protocol/reviewNotes';

export type ReviewNotes = readonly ReviewNote[];

const MAX_PATH_CHARS = 4096;

/** Why a note was not added or changed. */
export class ReviewNoteError extends Error {}

function byPosition(a: ReviewNote, b: ReviewNote): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine || a.endLine - b.endLine;
}

function cleanText(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') {
    throw new ReviewNoteError('A note needs some text.');
  }
  return trimmed.slice(0, MAX_NOTE_CHARS);
}

/** The anchor as kept: lines in order, quote bounded (what was cut is counted, never silently dropped). */
export function boundedAnchor(anchor: ReviewNoteAnchor): ReviewNoteAnchor {
  if (anchor.path === '' || anchor.path.length > MAX_PATH_CHARS || anchor.startLine < 1 || anchor.endLine < 1) {
    throw new ReviewNoteError('A note needs a file and lines from 1 on.');
  }
  const startLine = Math.min(anchor.startLine, anchor.endLine);
  const endLine = Math.max(anchor.startLine, anchor.endLine);
  const kept = anchor.quote.slice(0, MAX_QUOTED_LINES).map((line) => (line.length > MAX_QUOTED_LINE_CHARS ? `${line.slice(0, MAX_QUOTED_LINE_CHARS)} …` : line));
  const omitted = (anchor.omittedLines ?? 0) + Math.max(0, anchor.quote.length - MAX_QUOTED_LINES);
  return { path: anchor.path, startLine, endLine, quote: kept, ...(omitted > 0 ? { omittedLines: omitted } : {}) };
}

export function addNote(notes: ReviewNotes, anchor: ReviewNoteAnchor, text: string, id: string): ReviewNotes {
  if (notes.length >= MAX_NOTES_PER_RUN) {
    throw new ReviewNoteError(`A run holds at most ${MAX_NOTES_PER_RUN} notes: send or discard some first.`);
  }
  if (notes.some((n) => n.id === id)) {
    throw new ReviewNoteError('That note id is taken.');
  }
  const note: ReviewNote = { ...boundedAnchor(anchor), id, text: cleanText(text) };
  return [...notes, note].sort(byPosition);
}

export function editNote(notes: ReviewNotes, id: string, text: string): ReviewNotes {
  if (!notes.some((n) => n.id === id)) {
    throw new ReviewNoteError('That note is gone (sent or discarded meanwhile).');
  }
  const clean = cleanText(text);
  return notes.map((n) => (n.id === id ? { ...n, text: clean } : n));
}

export function removeNote(notes: ReviewNotes, id: string): ReviewNotes {
  return notes.filter((n) => n.id !== id);
}

/** The notes whose ids are not in `sent`: what is left after a send (a note added meanwhile stays). */
export function withoutSent(notes: ReviewNotes, sent: ReviewNotes): ReviewNotes {
  const ids = new Set(sent.map((n) => n.id));
  return notes.filter((n) => !ids.has(n.id));
}

/** What a stored file holds, read leniently: a malformed note is dropped, a damaged file is no notes. */
export function readStoredNotes(raw: unknown): ReviewNotes {
  const stored = storedReviewNotesSchema.safeParse(raw);
  if (!stored.success) {
    return [];
  }
  const notes: ReviewNote[] = [];
  const ids = new Set<string>();
  for (const value of stored.data.notes) {
    const parsed = reviewNoteSchema.safeParse(value);
    if (parsed.success && !ids.has(parsed.data.id) && parsed.data.text.trim() !== '' && notes.length < MAX_NOTES_PER_RUN) {
      try {
        notes.push({ ...boundedAnchor(parsed.data), id: parsed.data.id, text: parsed.data.text.slice(0, MAX_NOTE_CHARS) });
        ids.add(parsed.data.id);
      } catch {
        // out of bounds: dropped like any malformed note
      }
    }
  }
  return notes.sort(byPosition);
}

/** The value a file stores. */
export function storedNotes(notes: ReviewNotes): { v: 1; notes: ReviewNotes } {
  return { v: 1, notes };
}

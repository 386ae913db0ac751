/**
 * Notes to the agent (issue #26): lines of a run's change set the person selected, with what they want the agent to
 * know about them. The host owns a run's notes (ui/reviewNotes/reviewNoteStore.ts, kept beside the run's files until
 * sent or discarded); the change-set view shows them and asks for changes with the messages below. Shared by the
 * host, the webview (re-exported by webviewMessages.ts) and the stored file, so all three read one shape.
 */
import * as z from 'zod/mini';

/** A note's text is the person's; it is cut to this length so one message stays of a size an agent takes. */
export const MAX_NOTE_CHARS = 10_000;
/** Quoted lines kept per note (the message says how many more there were). */
export const MAX_QUOTED_LINES = 40;
/** Characters kept of one quoted line. */
export const MAX_QUOTED_LINE_CHARS = 400;
/** Notes one run may hold. */
export const MAX_NOTES_PER_RUN = 200;

/**
 * What the person chose to comment on: a range of lines of one file of the change set. Bounds (lines from 1, a path)
 * are checked by the host when it keeps a note (changeSets/reviewNoteList.ts): checks here would weigh on the webview.
 */
export const reviewNoteAnchorSchema = z.object({
  /** The file's path after the run (as the change set names it). */
  path: z.string(),
  /**
   * First and last line, as new-side line numbers of the change set's patch (the file after the run). A selection of
   * removed lines only is anchored at the new-side line that follows them.
   */
  startLine: z.int(),
  endLine: z.int(),
  /**
   * The selected lines as the diff shows them: each with its sign (`+` added, `-` removed, ` ` unchanged) and its text,
   * so the agent reads exactly what the person saw. Agent text: shown escaped, never interpreted.
   */
  quote: z.array(z.string()),
  /** How many selected lines were left out of `quote` (beyond MAX_QUOTED_LINES). */
  omittedLines: z.optional(z.int()),
});
export type ReviewNoteAnchor = z.infer<typeof reviewNoteAnchorSchema>;

/** A pending note of a run. */
export const reviewNoteSchema = z.object({
  ...reviewNoteAnchorSchema.shape,
  /** Unique within the run; chosen by the host. */
  id: z.string(),
  text: z.string(),
});
export type ReviewNote = z.infer<typeof reviewNoteSchema>;

/** The stored file of a run's notes (`<run>.notes.json`). */
export const storedReviewNotesSchema = z.object({ v: z.literal(1), notes: z.array(z.unknown()) });

/** Host → webview: the pending notes of `runKey` (whenever they change, and after a `changeSet`). */
export const reviewNotesMessageSchema = z.object({ type: z.literal('reviewNotes'), runKey: z.string(), notes: z.array(reviewNoteSchema) });

/** Webview → host: what the change-set view asks of a run's notes. */
export const reviewNoteRequestSchemas = [
  /** *Save* in the inline editor of a new note. */
  z.object({ type: z.literal('noteAdd'), runKey: z.string(), anchor: reviewNoteAnchorSchema, text: z.string() }),
  /** *Save* in the editor of an existing note. */
  z.object({ type: z.literal('noteEdit'), runKey: z.string(), noteId: z.string(), text: z.string() }),
  /** *Delete* on a note. */
  z.object({ type: z.literal('noteRemove'), runKey: z.string(), noteId: z.string() }),
  /** *Send notes*: every pending note of the run to the agent as one message. */
  z.object({ type: z.literal('notesSend'), runKey: z.string() }),
  /** *Discard* on the notes bar (the host asks first). */
  z.object({ type: z.literal('notesDiscard'), runKey: z.string() }),
] as const;

/**
 * The change-set part of the host <-> webview contract (protocol/webviewMessages.ts re-exports it, so the webview
 * keeps one import): a run's change set as the view shows it — files, hunks one string each — and the person's review
 * marks of it (issue #26).
 */
import * as z from 'zod/mini';

/**
 * One hunk of a change-set file as the webview shows it. `lines` is the hunk body exactly as in a unified diff —
 * each line its one-character prefix (` ` context, `+` added, `-` removed, `\` "no newline" marker) and its text,
 * joined with LF — so a 4 MiB patch crosses as one string per hunk rather than ~100k row objects (see
 * changeSetRows.ts for the measurement); the webview turns it into rows with `buildDiffRows`.
 */
export const changeSetHunkViewSchema = z.object({
  /** The whole `@@ -a,b +c,d @@ section` line. */
  header: z.string(),
  oldStart: z.int(),
  newStart: z.int(),
  lines: z.string(),
  /** The hunk's review key (changeSets/reviewState.ts: a hash of path and lines): what `setReviewed` sends back. */
  key: z.optional(z.string()),
});

/** A file of a change set: path(s), status, +/- counts and (unless binary or too large to show) its hunks. */
export const changeSetFileViewSchema = z.object({
  /** The file's index in the host's parsed patch (what `openChangeSetFile` sends back). */
  index: z.int(),
  /** Path after the run (for a deleted file, the path it had). */
  path: z.string(),
  /** Path before the run, only for renames and copies. */
  oldPath: z.optional(z.string()),
  status: z.enum(['added', 'deleted', 'modified', 'renamed', 'copied']),
  additions: z.int(),
  deletions: z.int(),
  binary: z.boolean(),
  /** Set when the file mode changed (e.g. `100644` → `100755`). */
  oldMode: z.optional(z.string()),
  newMode: z.optional(z.string()),
  hunks: z.array(changeSetHunkViewSchema),
  /** The hunks were left out because the whole diff is too large for the view (the diff editor still has them). */
  omitted: z.optional(z.boolean()),
  /**
   * Who changed it, when runs share the working tree (issue #26; absent: this run): `run` — another run (its title)
   * said it did; `shared` — another run worked in the tree meanwhile and no run said it did, so who is a guess.
   */
  author: z.optional(z.object({ kind: z.enum(['run', 'shared']), title: z.optional(z.string()) })),
  /** The review key of a file without hunks (binary, rename or mode only, empty): it is reviewed as one unit. */
  key: z.optional(z.string()),
  /**
   * What *Undo* the view offers for edits already on disk (a local change set): `hunks` per hunk and for the file,
   * `file` for the whole file only (added, deleted, renamed, binary); absent: none (a daemon's change set, a copy).
   */
  undo: z.optional(z.enum(['file', 'hunks'])),
});
export type ChangeSetFileView = z.infer<typeof changeSetFileViewSchema>;

/**
 * The person's review marks of the shown change set, per file in the order of its `files`: per unit (hunk, or the
 * file when it has none) reviewed or not, and how many marks were dropped because the agent changed those hunks after
 * they were reviewed.
 */
export const changeSetReviewSchema = z.object({
  files: z.array(z.object({ reviewed: z.array(z.boolean()), dropped: z.int() })),
});
export type ChangeSetReview = z.infer<typeof changeSetReviewSchema>;
export type ChangeSetHunkView = z.infer<typeof changeSetHunkViewSchema>;

/**
 * Sent by the host when the user shows a run's change set ("Show Change Set", the header button): the webview shows
 * the file list and the rendered diff in place of the transcript until the user goes back.
 */
export const changeSetMessageSchema = z.object({
  type: z.literal('changeSet'),
  runKey: z.string(),
  /** The run's title. */
  title: z.string(),
  /** `daemon`: delivered by the daemon; `local`: computed by the editor from git trees. */
  source: z.enum(['daemon', 'local']),
  files: z.array(changeSetFileViewSchema),
  /** The review marks as stored (absent: not read yet, or none can be kept). */
  review: z.optional(changeSetReviewSchema),
  /** Only an update of the change set the view shows (after an Undo): a view showing something else ignores it. */
  refresh: z.optional(z.boolean()),
});
export type ChangeSetMessage = z.infer<typeof changeSetMessageSchema>;

/**
 * Side panels: the model stores the daemon-owned ones (RunInfo.panels) and the host sends them, with the derived
 * ones, to the webview. A module of its own so the model can use the type without depending on the host <-> webview
 * contract (webviewMessages re-exports it for the webview).
 */
// zod/mini, like webviewMessages: these schemas end up in the webview bundle.
import * as z from 'zod/mini';

/**
 * An action on a panel entry (e.g. "Mark done" on a todo); `confirm` asks the user first; `hint` explains what the
 * action really does (e.g. whom it acts as), shown as the button's tooltip and in the confirmation.
 */
export const panelActionSchema = z.object({ id: z.string(), label: z.string(), confirm: z.optional(z.boolean()), hint: z.optional(z.string()) });

/**
 * A side panel of the transcript view: a titled list of entries that the daemon, not the transcript, owns (hyperhive
 * loose ends and reminders, SCV background jobs, a change set's files…). Replaced whole when it changes.
 */
export const panelSchema = z.object({
  id: z.string(),
  title: z.string(),
  emptyText: z.optional(z.string()),
  /**
   * The number the panel's badge shows when not every entry is one of what the panel counts (the change set's first
   * entry is the whole set, not a file); default: the number of entries.
   */
  count: z.optional(z.number()),
  /** `error`: the panel reports a failure (a refused change set): its title and empty text show as an error. */
  tone: z.optional(z.enum(['error'])),
  entries: z.array(
    z.object({
      id: z.string(),
      /** Codicon name, e.g. `question`, `checklist`. */
      icon: z.optional(z.string()),
      label: z.string(),
      description: z.optional(z.string()),
      /** Shown collapsed as readable JSON (for shapes the extension does not know). */
      raw: z.optional(z.unknown()),
      actions: z.array(panelActionSchema),
    }),
  ),
});
export type Panel = z.infer<typeof panelSchema>;

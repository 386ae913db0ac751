/**
 * Message rows (messages between principals: a hyperhive inbox, an ACP agent's messages between its sessions). A
 * message with an id is one row however often it comes: a later event with the same id replaces what the row shows
 * (ACP's `session_message` is an upsert whose sender and content can arrive or change after the row is shown; a
 * hyperhive message seen again is the same message). Part of the run reducer.
 */
import type { RunEvent } from './modelActions';
import type { RunEditor } from './runEditor';

/** Message ids remembered per run (→ their rows): a later event for an older one adds a row of its own. */
const REMEMBERED_MESSAGES = 50;

export function applyMessage(ed: RunEditor, event: Extract<RunEvent, { kind: 'message' }>): void {
  const fields = {
    from: event.from,
    body: event.body,
    ...(event.at !== undefined ? { at: event.at } : {}),
    ...(event.messageId !== undefined ? { messageId: event.messageId } : {}),
    ...(event.inReplyTo !== undefined ? { inReplyTo: event.inReplyTo } : {}),
  };
  const known = event.messageId !== undefined ? ed.run.messageItems?.[event.messageId] : undefined;
  if (known !== undefined) {
    ed.update(known, fields);
    return;
  }
  const id = ed.nextId('m');
  ed.add({ id, kind: 'message', ...fields });
  if (event.messageId !== undefined) {
    const kept = Object.entries(ed.run.messageItems ?? {}).slice(-(REMEMBERED_MESSAGES - 1));
    ed.run = { ...ed.run, messageItems: Object.fromEntries([...kept, [event.messageId, id]]) };
  }
}

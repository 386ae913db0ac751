/**
 * Messages between sessions (ACP `session_message` and `session_message_chunk`, unstable): an agent with subagents
 * shows what one of its sessions sent another — a parent's instructions to its subagent, the subagent's report back —
 * in the transcripts of both, each with its own message id. A `session_message` is an upsert by id (an omitted field
 * is unchanged, `null` clears it, content `null` or `[]` clears the content, any other content replaces it); a chunk
 * appends one content block, and may come before the upsert that says who sent it. Each change becomes the row's
 * whole new state (a `message` event: the model replaces the row with the same id), saying who sent it to whom by
 * the other session's run title, its text rendered as markdown like the agent's own.
 */
import type { ContentBlock, SessionMessage, SessionMessageChunk } from '@agentclientprotocol/sdk/unstable';
import type { RunEvent } from '../../model/modelActions';
import { blockText } from './acpToolRows';

/** What a session's transcript knows of one message so far. */
export interface AcpSessionMessage {
  readonly messageId: string;
  sender?: string;
  recipient?: string;
  content: ContentBlock[];
}

/** Messages kept per session (their ids): a later update of an older one starts it afresh (a row of its own). */
const REMEMBERED_MESSAGES = 50;

export type AcpSessionMessages = Map<string, AcpSessionMessage>;

function messageOf(messages: AcpSessionMessages, messageId: string): AcpSessionMessage {
  const known = messages.get(messageId);
  if (known) {
    return known;
  }
  const message: AcpSessionMessage = { messageId, content: [] };
  messages.set(messageId, message);
  if (messages.size > REMEMBERED_MESSAGES) {
    messages.delete(messages.keys().next().value!);
  }
  return message;
}

/** A `session_message`: the message with its fields changed as the upsert says. */
export function upsertSessionMessage(messages: AcpSessionMessages, update: SessionMessage): AcpSessionMessage {
  const message = messageOf(messages, update.messageId);
  if (update.senderSessionId !== undefined) {
    message.sender = update.senderSessionId ?? undefined;
  }
  if (update.recipientSessionId !== undefined) {
    message.recipient = update.recipientSessionId ?? undefined;
  }
  if (update.content !== undefined) {
    message.content = [...(update.content ?? [])];
  }
  return message;
}

/** A `session_message_chunk`: the message with one more content block. */
export function appendSessionMessageChunk(messages: AcpSessionMessages, update: SessionMessageChunk): AcpSessionMessage {
  const message = messageOf(messages, update.messageId);
  message.content.push(update.content);
  return message;
}

/** What the transcript needs to know of another session: its run's title and whose subagent it is. */
export type RunOf = (sessionId: string) => { readonly title?: string; readonly parentRunId?: string } | undefined;

/** A session as the transcript of `self` names it: "subagent <title>" for its child, else its run's title. */
function sessionName(self: string, sessionId: string | undefined, runOf: RunOf): string {
  const run = sessionId === undefined ? undefined : runOf(sessionId);
  if (!run?.title) {
    return 'another session';
  }
  return run.parentRunId === self ? `subagent ${run.title}` : run.title;
}

/**
 * Who sent the message to whom, as the row's header says it in the transcript of session `self`: "To …" for what
 * it sent, "From …" for what it got, "From … to …" for a message between two other sessions.
 */
export function sessionMessageHeader(self: string, message: AcpSessionMessage, runOf: RunOf): string {
  if (message.sender === self) {
    return `To ${sessionName(self, message.recipient, runOf)}`;
  }
  const from = `From ${sessionName(self, message.sender, runOf)}`;
  return message.recipient === undefined || message.recipient === self ? from : `${from} to ${sessionName(self, message.recipient, runOf)}`;
}

/**
 * A block is left out only when the agent marks it as not for the user (`annotations.audience` without `user`).
 * Nothing else is held back, even text that reads as meant for the model: claude-agent-acp 0.101 sends, as the
 * subagent's "reply", the result Claude Code gave the model for a launch that went to the background ("Async agent
 * launched successfully. (This tool result is internal metadata — never quote …)") without marking it. Guessing from
 * the wording would hide what the agent really sent, and the user is the one who must see what their agents say.
 */
function shownToUser(block: ContentBlock): boolean {
  const audience = 'annotations' in block ? block.annotations?.audience : undefined;
  return !audience || audience.length === 0 || audience.includes('user');
}

/** The row of `message` in the transcript of session `self`, as it stands now (it replaces the row shown so far). */
export function sessionMessageEvent(self: string, message: AcpSessionMessage, runOf: RunOf): RunEvent {
  return {
    kind: 'message',
    from: sessionMessageHeader(self, message, runOf),
    body: message.content.filter(shownToUser).map(blockText).join(''),
    messageId: message.messageId,
  };
}

/**
 * `operator_msg` to one agent, and what a hive request error tells the user. The message is never retried (each
 * send creates an inbox row); when no reply was read its outcome is checked in the agent's inbox instead, and the
 * view is re-read either way, so the error text says so (the error itself cannot know).
 */
import { DriverError } from '../driver';
import type { DriverLog } from '../connectionManager';
import { errorText, toDriverError } from '../kit/errors';
import type { HiveClient } from './client';
import type { AgentBook } from './hiveAgentBook';
import { HiveError } from './hiveErrors';

/** Sends `text` to the agent; `resync` re-reads the agent (after an unknown outcome, before the verdict). */
export async function sendOperatorMessage(client: HiveClient, book: AgentBook, runId: string, text: string, resync: () => Promise<unknown>, log: DriverLog): Promise<void> {
  const before = book.inbox.highestId;
  try {
    await client.operatorMsg(text);
  } catch (error) {
    if (error instanceof HiveError && error.outcomeUnknown) {
      const arrived = await client.recent(50).then(
        (rows) => rows.some((r) => r.ok && r.value.from === 'operator' && r.value.body === text && (r.value.id !== undefined ? r.value.id > before : !book.inbox.has(r))),
        () => false,
      );
      await resync().catch(() => false);
      if (arrived) {
        log.warn(`operator_msg to ${runId}: no reply was read (${error.message}), but the message is in the inbox.`);
        return;
      }
      throw new DriverError(
        `The message to ${runId} may or may not have been delivered (${error.message}). It is never resent automatically, and its inbox (just re-read) does not show it yet: check again before sending it a second time.`,
        'outcome_unknown',
      );
    }
    throw hiveUserError(error);
  }
}

/** The `DriverError` for a failed hive request; an unanswered one says the view was re-read. */
export function hiveUserError(error: unknown): DriverError {
  if (error instanceof HiveError && error.outcomeUnknown) {
    return new DriverError(`${errorText(error)} No reply was read, so it may or may not have happened; the view was re-read.`, error.code);
  }
  return toDriverError(error);
}

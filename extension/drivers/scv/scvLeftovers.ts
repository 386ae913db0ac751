/**
 * Queued prompts a session left behind. An SCV session ends with its connection (reload, disconnect, daemon
 * restart), and with it the daemon's queue: prompts that were queued and never ran. Losing them silently is wrong,
 * and resending them by itself is wrong too (the user may not want them in a new conversation), so they are kept
 * with the ended run and offered to the next session of the same connection. Only prompts that never left the queue
 * count: a prompt that started a turn may have run (WIRE.md §6.2.4) and is never offered. Pure.
 */
import * as z from 'zod';
import { AttachmentSchema } from '../../protocol/scvTypes';
import type { Attachment, QueueEntry } from '../../protocol/scvTypes';
import type { ScvQueueState } from './scvQueue';

export interface ScvLeftoverPrompt {
  readonly prompt: string;
  readonly attachments: readonly Attachment[];
}

/** What "Queue them" would send into a new session, and where the prompts come from. */
export interface ScvLeftoverOffer {
  /** Unique per offer, so the UI announces each offer once. */
  readonly id: string;
  /** The ended session's run, which keeps the prompts until the user decides. */
  readonly fromRunId: string;
  /** The new session's run. */
  readonly toRunId: string;
  readonly prompts: readonly ScvLeftoverPrompt[];
}

/** A run as far as choosing "the previous session" needs it. */
export interface ScvRunRef {
  readonly connectionId: string;
  readonly runId: string;
  readonly createdAt: number;
}

/** How the prompts are kept in the run's stored data (`StoredRun.extra.queued`). */
const storedPromptsSchema = z.array(z.object({ prompt: z.string(), attachments: z.array(AttachmentSchema).default([]) }));

/** The prompts waiting in a queue, in the order they would have run. */
export function leftoverPromptsOf(queue: ScvQueueState): ScvLeftoverPrompt[] {
  return queue.entries.map((e) => ({ prompt: e.prompt, attachments: e.attachments }));
}

/** Reads what `saveRun` stored. Disk is a trust boundary: anything unreadable counts as no prompts. */
export function parseStoredPrompts(value: unknown): ScvLeftoverPrompt[] {
  if (value === undefined) {
    return [];
  }
  const parsed = storedPromptsSchema.safeParse(value);
  return parsed.success ? parsed.data : [];
}

export function samePrompts(a: readonly ScvLeftoverPrompt[], b: readonly ScvLeftoverPrompt[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The leftovers still worth sending into a session whose queue already holds `queued`: a newer daemon can restore
 * a stopped session's queue itself (`session.started.restored`), and a prompt it restored must not run twice. Each
 * queued entry cancels one leftover with the same text.
 */
export function promptsToResend(leftovers: readonly ScvLeftoverPrompt[], queued: readonly QueueEntry[]): ScvLeftoverPrompt[] {
  const waiting = new Map<string, number>();
  for (const entry of queued) {
    waiting.set(entry.prompt, (waiting.get(entry.prompt) ?? 0) + 1);
  }
  return leftovers.filter((p) => {
    const n = waiting.get(p.prompt) ?? 0;
    if (n > 0) {
      waiting.set(p.prompt, n - 1);
      return false;
    }
    return true;
  });
}

/** The session of `connectionId` that came just before run `newRunId` (the latest one created before it). */
export function previousSessionOf(runs: Iterable<ScvRunRef>, connectionId: string, newRunId: string): string | undefined {
  let best: ScvRunRef | undefined;
  for (const run of runs) {
    if (run.connectionId !== connectionId || run.runId === newRunId) {
      continue;
    }
    if (!best || run.createdAt >= best.createdAt) {
      best = run;
    }
  }
  return best?.runId;
}

/**
 * The offer for a session that just started, if the previous session of its connection ended with prompts that
 * never ran (and the new session's own queue does not already hold them).
 */
export function leftoverOfferFor(
  runs: Iterable<ScvRunRef>,
  connectionId: string,
  newRunId: string,
  leftoversOf: (runId: string) => readonly ScvLeftoverPrompt[],
  newQueue: readonly QueueEntry[],
): ScvLeftoverOffer | undefined {
  const fromRunId = previousSessionOf(runs, connectionId, newRunId);
  if (fromRunId === undefined) {
    return undefined;
  }
  const prompts = promptsToResend(leftoversOf(fromRunId), newQueue);
  return prompts.length > 0 ? { id: `${fromRunId}→${newRunId}`, fromRunId, toRunId: newRunId, prompts } : undefined;
}

/** `"first", "second…"` for notices (each prompt cut to 60 characters). */
export function quotePrompts(prompts: readonly ScvLeftoverPrompt[]): string {
  return prompts.map((p) => `"${p.prompt.length > 60 ? `${p.prompt.slice(0, 59)}…` : p.prompt}"`).join(', ');
}

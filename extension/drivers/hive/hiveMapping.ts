/**
 * Maps hive mcp.sock reads onto the run model: inbox rows (`recent`, newest first) become `message` transcript
 * items in chronological order, each row once; rows of an unknown shape become `raw` items (WIRE.md 4.5: the
 * InboxRow shape is unverified). Also the texts the tree shows for an agent (provider, state detail).
 */
import type { RunEvent } from '../../model/modelActions';
import type { AgentMeta, InboxRow, Lenient } from '../../protocol/hive';
import { pickTime } from '../../protocol/hive';

/** Inbox page sizes: the first read shows the latest `FIRST`; a later poll grows the page until it overlaps. */
export const INBOX_PAGE_FIRST = 100;
export const INBOX_PAGE_POLL = 25;
export const INBOX_PAGE_MAX = 1000;

/** A hive time (Unix seconds on mcp.sock, tolerated as a string) as ISO 8601, or undefined. */
export function hiveTimeIso(value: number | string | null | undefined): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Unverified unit (WIRE.md 4.5): values this large are milliseconds, not seconds.
    const ms = value > 1e12 ? value : value * 1000;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value === 'string' && value.trim() !== '') {
    return value;
  }
  return undefined;
}

/** `2024-05-01 14:03` in local time, for short texts in the tree; the raw value when it is not a time. */
export function shortTime(iso: string | undefined): string | undefined {
  if (iso === undefined) {
    return undefined;
  }
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return iso;
  }
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dedup key of one inbox row: its broker id, else its content (rows without id cannot be told apart better). */
export function inboxRowKey(row: Lenient<InboxRow>): string {
  if (row.ok) {
    if (row.value.id !== undefined) {
      return `id:${row.value.id}`;
    }
    return `row:${row.value.from}\u0000${String(pickTime(row.value) ?? '')}\u0000${row.value.body}`;
  }
  if (isRecord(row.raw) && Number.isSafeInteger(row.raw['id'])) {
    return `id:${String(row.raw['id'])}`;
  }
  return `raw:${JSON.stringify(row.raw)}`;
}

/** One inbox row as a transcript event. */
export function inboxRowEvent(row: Lenient<InboxRow>): RunEvent {
  if (!row.ok) {
    return { kind: 'raw', label: 'Inbox row of an unknown shape', data: row.raw };
  }
  const { id, from, body, in_reply_to: inReplyTo } = row.value;
  const at = hiveTimeIso(pickTime(row.value));
  return {
    kind: 'message',
    from,
    body,
    ...(at !== undefined ? { at } : {}),
    ...(id !== undefined ? { messageId: String(id) } : {}),
    ...(inReplyTo !== undefined && inReplyTo !== null ? { inReplyTo: String(inReplyTo) } : {}),
  };
}

/**
 * What the driver has shown of one agent's inbox. `recent` is a newest-first window; a poll folds in the rows it
 * has not seen, oldest first. When a whole page is new the window may have skipped rows, so the driver asks for a
 * bigger page first (`needsBiggerPage`).
 */
export class InboxTracker {
  private readonly seen = new Set<string>();
  /** Highest numeric broker id shown (to tell a fresh operator message from an old identical one). */
  private maxId = 0;

  get isEmpty(): boolean {
    return this.seen.size === 0;
  }

  get highestId(): number {
    return this.maxId;
  }

  has(row: Lenient<InboxRow>): boolean {
    return this.seen.has(inboxRowKey(row));
  }

  /** The page may have cut off unseen rows: it is full and even its oldest row is new (after the first read). */
  needsBiggerPage(rows: readonly Lenient<InboxRow>[], limit: number): boolean {
    const oldest = rows[rows.length - 1];
    return !this.isEmpty && rows.length >= limit && oldest !== undefined && !this.has(oldest);
  }

  /** Marks the page's unseen rows as shown and returns their events, oldest first. */
  take(rows: readonly Lenient<InboxRow>[]): RunEvent[] {
    const events: RunEvent[] = [];
    for (const row of [...rows].reverse()) {
      const key = inboxRowKey(row);
      if (this.seen.has(key)) {
        continue;
      }
      this.seen.add(key);
      if (row.ok && row.value.id !== undefined) {
        this.maxId = Math.max(this.maxId, row.value.id);
      }
      events.push(inboxRowEvent(row));
    }
    return events;
  }
}

/** The provider column of an agent run: "hyperhive <rev>". */
export function hiveProviderText(meta: Pick<AgentMeta, 'hyperhive_rev'> | undefined): string {
  const rev = meta?.hyperhive_rev;
  return rev ? `hyperhive ${rev}` : 'hyperhive';
}

export interface AgentDetailInput {
  readonly meta?: Pick<AgentMeta, 'status_text' | 'status_set_at'>;
  readonly unread?: number;
  readonly pendingReminders?: number;
  /** Why the agent could not be read, if it could not. */
  readonly problem?: string;
}

/** The free-text state detail of an agent run: status text (+ when set), unread messages, pending reminders. */
export function agentStateDetail(input: AgentDetailInput): string | undefined {
  const parts: string[] = [];
  const status = input.meta?.status_text;
  if (status) {
    const when = shortTime(hiveTimeIso(input.meta?.status_set_at));
    parts.push(when ? `${status} (since ${when})` : status);
  }
  if (input.unread !== undefined && input.unread > 0) {
    parts.push(`${input.unread} unread`);
  }
  if (input.pendingReminders !== undefined && input.pendingReminders > 0) {
    parts.push(`${input.pendingReminders} reminder${input.pendingReminders === 1 ? '' : 's'} pending`);
  }
  if (input.problem) {
    parts.push(input.problem);
  }
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

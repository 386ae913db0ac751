/**
 * What the hive driver knows about one agent (or the manager) between polls, and the one full read of it:
 * identity/status (`get_agent_meta`), inbox (`recent`), loose ends, pending reminders and rollup. Only observer
 * reads are used (WIRE.md 4.9 #2); the client refuses the harness verbs anyway.
 */
import type { RunEvent } from '../../model/modelActions';
import type { Panel } from '../../model/modelTypes';
import type { AgentMeta } from '../../protocol/hive';
import { errorText } from '../kit/errors';
import type { HiveClient } from './client';
import { INBOX_PAGE_FIRST, INBOX_PAGE_MAX, INBOX_PAGE_POLL, InboxTracker } from './hiveMapping';
import { agentPanel, looseEndsPanel, remindersPanel } from './hivePanels';
import type { Read } from './hivePanels';
import type { HiveSocketEntry } from './socketLayout';

export interface AgentBook {
  readonly name: string;
  /** Position in the tree (the manager first, then discovery order). */
  readonly order: number;
  socket: HiveSocketEntry | undefined;
  client: HiveClient | undefined;
  readonly inbox: InboxTracker;
  /** Pending (not yet picked up) messages, from `status`. */
  unread: number | undefined;
  /** The `running` flag of the manager's `list_descendants`; undefined when not listed there. */
  listedRunning: boolean | undefined;
  meta: AgentMeta | undefined;
  pendingReminders: number | undefined;
  /** Why the last read of this agent failed (shown in the tree), if it did. */
  problem: string | undefined;
  /** Neither a socket nor a container any more. */
  gone: boolean;
  /** Needs a full read at the next poll (status or running state changed). */
  dirty: boolean;
  lastReadAt: number;
  /** Reads of one agent run one after another, so an inbox row is never folded in twice. */
  chain: Promise<unknown>;
  lastFields: string;
  lastPanels: string;
}

export function newAgentBook(name: string, order: number): AgentBook {
  return {
    name,
    order,
    socket: undefined,
    client: undefined,
    inbox: new InboxTracker(),
    unread: undefined,
    listedRunning: undefined,
    meta: undefined,
    pendingReminders: undefined,
    problem: undefined,
    gone: false,
    dirty: true,
    lastReadAt: 0,
    chain: Promise.resolve(),
    lastFields: '',
    lastPanels: '',
  };
}

export function settle<T>(promise: Promise<T>): Promise<Read<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: errorText(error) }),
  );
}

export interface AgentRead {
  /** New inbox items, oldest first (plus a notice when the window may have cut rows off). */
  readonly events: readonly RunEvent[];
  readonly panels: readonly Panel[];
  /** The first thing that could not be read, for the tree. */
  readonly problem: string | undefined;
}

/**
 * Reads one agent over its own socket and folds the inbox into its tracker. `running` is the effective state
 * (for the Agent panel); `isManager` decides which loose ends may be withdrawn here.
 */
export async function readAgent(book: AgentBook, client: HiveClient, isManager: boolean, now: () => number, running: (b: AgentBook) => boolean): Promise<AgentRead> {
  const [meta, looseEnds, pending, rollup, unread, inbox] = await Promise.all([
    settle(client.getAgentMeta()),
    settle(client.getLooseEnds()),
    settle(client.countPendingReminders()),
    settle(client.reminderRollup(0)),
    settle(client.status()),
    settle(readInboxPage(book, client)),
  ]);
  if (meta.ok) {
    book.meta = meta.value;
  }
  if (pending.ok) {
    book.pendingReminders = pending.value;
  }
  if (unread.ok) {
    book.unread = unread.value;
  }
  let events: RunEvent[] = [];
  if (inbox.ok) {
    const { rows, limit } = inbox.value;
    const first = book.inbox.isEmpty;
    const cut = book.inbox.needsBiggerPage(rows, limit);
    events = book.inbox.take(rows);
    if (first && rows.length >= limit) {
      events.unshift({ kind: 'notice', level: 'info', text: `Showing the latest ${limit} inbox messages; older ones are not loaded.` });
    } else if (cut) {
      events.unshift({ kind: 'notice', level: 'warning', text: 'More messages arrived than one read returns: some inbox rows between polls may be missing here.' });
    }
  }
  const problem = [meta, inbox].find((r) => !r.ok);
  const panels = [
    looseEndsPanel(book.name, isManager, looseEnds, now()),
    remindersPanel(pending, rollup),
    agentPanel(meta, running(book), book.unread),
  ];
  return { events, panels, problem: problem && !problem.ok ? problem.error : undefined };
}

/** `recent`, growing the page (25 → 100 → 400 → 1000) while a whole page is unseen. */
async function readInboxPage(book: AgentBook, client: HiveClient): Promise<{ rows: Awaited<ReturnType<HiveClient['recent']>>; limit: number }> {
  let limit = book.inbox.isEmpty ? INBOX_PAGE_FIRST : INBOX_PAGE_POLL;
  for (;;) {
    const rows = await client.recent(limit);
    if (limit >= INBOX_PAGE_MAX || !book.inbox.needsBiggerPage(rows, limit)) {
      return { rows, limit };
    }
    limit = Math.min(limit * 4, INBOX_PAGE_MAX);
  }
}

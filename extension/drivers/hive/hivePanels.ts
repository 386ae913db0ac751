/**
 * The side panels of a hive agent's transcript: "Loose ends" (questions, approvals, todos, reminders as the
 * daemon returns them, with the actions mcp.sock allows), "Reminders" (pending count + rollup) and "Agent"
 * (identity, revision, status, matrix accounts). Shapes the extension does not know are shown as raw JSON, never
 * dropped (WIRE.md 4.5).
 */
import type { Panel } from '../../model/modelTypes';
import type { AgentMeta, Lenient, LooseEnd, ReminderStats } from '../../protocol/hive';
import { hiveTimeIso, shortTime } from './hiveMapping';

export const LOOSE_ENDS_PANEL = 'looseEnds';
export const REMINDERS_PANEL = 'reminders';
export const AGENT_PANEL = 'agent';

export const ACTION_MARK_DONE = 'markDone';
export const ACTION_CANCEL = 'cancel';

type Entry = Panel['entries'][number];

/** A read that worked, or why it did not. */
export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function failed(title: string, id: string, error: string): Panel {
  return { id, title, emptyText: `Could not read: ${error}`, entries: [] };
}

/** When a loose end was opened, from its `age_seconds` at read time: absolute, so the text does not go stale. */
function openedAt(seconds: number | undefined, nowMs: number): string | undefined {
  if (seconds === undefined) {
    return undefined;
  }
  const when = shortTime(new Date(nowMs - seconds * 1000).toISOString());
  return when && `since ${when}`;
}

const joined = (parts: readonly (string | undefined | null | false)[]): string | undefined => {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length > 0 ? kept.join(' · ') : undefined;
};

function withDescription(entry: Omit<Entry, 'description'>, description: string | undefined): Entry {
  return description === undefined ? entry : { ...entry, description };
}

/** The entry id of a loose end: `<kind>:<id>`; `panelAction` parses it back (`parseLooseEndEntryId`). */
export function looseEndEntryId(kind: string, id: number): string {
  return `${kind}:${id}`;
}

export function parseLooseEndEntryId(entryId: string): { readonly kind: string; readonly id: number } | undefined {
  const match = /^([a-z][a-z0-9_]*):(-?\d+)$/.exec(entryId);
  if (!match) {
    return undefined;
  }
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { kind: match[1]!, id } : undefined;
}

/**
 * A client on an agent's socket *is* that agent (WIRE.md 4.9): what these buttons do, the hive records as the
 * agent's own doing. The label says so; the hint (tooltip, confirmation) names the agent.
 */
const asAgentHint = (agent: string): string => `Sent on ${agent}'s own socket: the hive records this as done by ${agent}, not by you.`;
const cancel = (agent: string, confirm = true) => ({ id: ACTION_CANCEL, label: 'Cancel (as the agent)', confirm, hint: asAgentHint(agent) });

function looseEndEntry(agent: string, isManager: boolean, item: Lenient<LooseEnd>, index: number, nowMs: number): Entry {
  if (!item.ok) {
    return { id: `raw:${index}`, icon: 'question', label: 'Loose end of an unknown shape', description: item.error.split('\n')[0], raw: item.raw, actions: [] };
  }
  const end = item.value;
  switch (end.kind) {
    case 'question': {
      // Only the asker owns a question (it may cancel it); a question routed to the operator is answered on the
      // dashboard, one routed to this agent by the agent itself.
      const mine = end.asker === undefined || end.asker === agent;
      const route = end.target ? `${end.asker ?? agent} → ${end.target}` : `asked by ${end.asker ?? agent}`;
      const options = end.options && end.options.length > 0 ? `options: ${end.options.join(' / ')}${end.multi ? ' (multi)' : ''}` : undefined;
      return withDescription(
        { id: looseEndEntryId('question', end.id), icon: 'question', label: end.question, actions: mine ? [cancel(agent)] : [] },
        joined([route, options, end.target === 'operator' && 'answer on the dashboard', openedAt(end.age_seconds, nowMs)]),
      );
    }
    case 'approval':
      // Approvals are decided on the host admin side; the manager (which queued them) may withdraw one.
      return withDescription(
        {
          id: looseEndEntryId('approval', end.id),
          icon: 'shield',
          label: end.description ?? `Approval #${end.id}`,
          actions: isManager ? [cancel(agent)] : [],
        },
        joined([
          typeof end['approval_kind'] === 'string' ? end['approval_kind'] : undefined,
          end.agent && `for ${end.agent}`,
          end.commit_ref && `at ${end.commit_ref}`,
          'decided on the dashboard / host.sock',
          openedAt(end.age_seconds, nowMs),
        ]),
      );
    case 'todo':
      return withDescription(
        {
          id: looseEndEntryId('todo', end.id),
          icon: 'checklist',
          label: end.summary,
          actions: [{ id: ACTION_MARK_DONE, label: 'Mark done (as the agent)', hint: asAgentHint(agent) }, cancel(agent)],
        },
        joined([end.subsystem, end.key, end.source && `from ${end.source}`, openedAt(end.age_seconds, nowMs)]),
      );
    case 'reminder': {
      const due = shortTime(hiveTimeIso(end.due_at));
      return withDescription(
        { id: looseEndEntryId('reminder', end.id), icon: 'bell', label: end.message ?? `Reminder #${end.id}`, actions: [cancel(agent)] },
        joined([due && `due ${due}`, openedAt(end.age_seconds, nowMs)]),
      );
    }
    case 'other':
      return {
        id: end.id !== undefined ? looseEndEntryId(end.tag.replace(/[^a-z0-9_]/gi, '_').toLowerCase(), end.id) : `raw:${index}`,
        icon: 'circle-outline',
        label: `${end.tag}${end.id !== undefined ? ` #${end.id}` : ''}`,
        description: 'a kind of loose end this version does not know',
        raw: end.fields,
        actions: [],
      };
    default: {
      const _exhaustive: never = end;
      return _exhaustive;
    }
  }
}

export function looseEndsPanel(agent: string, isManager: boolean, read: Read<readonly Lenient<LooseEnd>[]>, nowMs: number): Panel {
  if (!read.ok) {
    return failed('Loose ends', LOOSE_ENDS_PANEL, read.error);
  }
  const entries = read.value.map((item, i) => looseEndEntry(agent, isManager, item, i, nowMs));
  // Ids must be unique within a panel even if the daemon repeats a row.
  const seen = new Set<string>();
  const unique = entries.map((e, i) => {
    const id = seen.has(e.id) ? `${e.id}#${i}` : e.id;
    seen.add(id);
    return id === e.id ? e : { ...e, id, actions: [] };
  });
  return { id: LOOSE_ENDS_PANEL, title: 'Loose ends', emptyText: 'No open questions, approvals, todos or reminders.', entries: unique };
}

export function remindersPanel(pending: Read<number>, rollup: Read<ReminderStats>): Panel {
  const entries: Entry[] = [];
  if (pending.ok) {
    entries.push({ id: 'pending', icon: 'bell', label: `${pending.value} pending`, actions: [] });
  } else {
    entries.push({ id: 'pending', icon: 'warning', label: 'Pending count unavailable', description: pending.error, actions: [] });
  }
  if (rollup.ok) {
    const other: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rollup.value)) {
      if (typeof value === 'number') {
        entries.push({ id: `stat:${key}`, icon: 'graph', label: `${key.replace(/_/g, ' ')}: ${value}`, description: 'all time', actions: [] });
      } else {
        other[key] = value;
      }
    }
    if (Object.keys(other).length > 0) {
      entries.push({ id: 'stat:other', icon: 'json', label: 'Other rollup fields', raw: other, actions: [] });
    }
  } else {
    entries.push({ id: 'rollup', icon: 'warning', label: 'Rollup unavailable', description: rollup.error, actions: [] });
  }
  return { id: REMINDERS_PANEL, title: 'Reminders', entries };
}

const KNOWN_META_KEYS = new Set(['kind', 'name', 'running', 'hyperhive_rev', 'status_text', 'status_set_at', 'hive_name', 'swarm_name', 'matrix_accounts']);

/** `running` is the effective state (the manager's container list wins over the agent's own meta). */
export function agentPanel(meta: Read<AgentMeta>, running: boolean, unread: number | undefined): Panel {
  if (!meta.ok) {
    return failed('Agent', AGENT_PANEL, meta.error);
  }
  const m = meta.value;
  const entries: Entry[] = [
    { id: 'name', icon: 'account', label: m.name, description: running ? 'running' : 'stopped', actions: [] },
    { id: 'revision', icon: 'git-commit', label: m.hyperhive_rev ? `hyperhive ${m.hyperhive_rev}` : 'hyperhive (revision unknown)', actions: [] },
  ];
  if (m.status_text) {
    entries.push(withDescription({ id: 'status', icon: 'comment', label: m.status_text, actions: [] }, joined(['status', shortTime(hiveTimeIso(m.status_set_at)) && `since ${shortTime(hiveTimeIso(m.status_set_at))}`])));
  } else {
    entries.push({ id: 'status', icon: 'comment', label: '(no status text)', actions: [] });
  }
  if (unread !== undefined) {
    entries.push({ id: 'unread', icon: 'mail', label: `${unread} unread`, description: 'waiting for the agent to pick them up', actions: [] });
  }
  if (m.hive_name) {
    entries.push({ id: 'hive', icon: 'organization', label: `hive ${m.hive_name}`, actions: [] });
  }
  if (m.swarm_name) {
    entries.push({ id: 'swarm', icon: 'organization', label: `swarm ${m.swarm_name}`, actions: [] });
  }
  m.matrix_accounts.forEach((account, i) => {
    if (account.ok) {
      const a = account.value;
      entries.push(withDescription({ id: `matrix:${i}`, icon: 'person', label: a.user_id ?? a.display_name ?? 'matrix account', actions: [] }, joined([a.display_name !== a.user_id && a.display_name, a.homeserver])));
    } else {
      entries.push({ id: `matrix:${i}`, icon: 'person', label: 'matrix account (unknown shape)', raw: account.raw, actions: [] });
    }
  });
  const extra = Object.fromEntries(Object.entries(m).filter(([k]) => !KNOWN_META_KEYS.has(k)));
  if (Object.keys(extra).length > 0) {
    entries.push({ id: 'extra', icon: 'json', label: 'Other fields', raw: extra, actions: [] });
  }
  return { id: AGENT_PANEL, title: 'Agent', entries };
}

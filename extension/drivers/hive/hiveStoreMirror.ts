/**
 * Mirrors the hive driver's roster into the run store: one run per agent (fields, inbox items, panels) and the
 * connection's capabilities, description and counts. Dispatches only what changed, so an idle poll does not make
 * the tree or the webview repaint.
 */
import type { RunFields } from '../../model/modelActions';
import type { Capability } from '../../model/modelTypes';
import type { DriverRuns } from '../kit/driverRuns';
import type { AgentBook, AgentRead } from './hiveAgentBook';
import { agentStateDetail, hiveProviderText } from './hiveMapping';
import type { HiveRoster } from './hiveRoster';

export class HiveStoreMirror {
  private lastConnection = '';

  constructor(
    /** The kit's door (hive runs are not journaled: the hive itself keeps every inbox). */
    private readonly runs: DriverRuns,
    private readonly roster: HiveRoster,
    /** The hive directory or socket, for texts. */
    private readonly target: string,
    /** Runs are created at `baseTime - order` so the tree (newest first) lists the manager, then discovery order. */
    private readonly baseTime: number,
  ) {}

  /** Dispatches the run's fields when they changed; returns whether they did. */
  upsertRun(book: AgentBook): boolean {
    const fields: RunFields = {
      title: book.name,
      provider: hiveProviderText(book.meta),
      state: book.gone ? 'lost' : this.roster.isRunning(book) ? 'running' : 'stopped',
      stateDetail: book.gone
        ? 'No longer in the hive (no socket, not in the manager’s container list). The inbox shown is kept.'
        : (agentStateDetail({
            ...(book.meta ? { meta: book.meta } : {}),
            ...(book.unread !== undefined ? { unread: book.unread } : {}),
            ...(book.pendingReminders !== undefined ? { pendingReminders: book.pendingReminders } : {}),
            problem: book.client ? book.problem : `no socket under ${this.target}`,
          }) ?? ''),
      createdAt: this.baseTime - book.order,
    };
    const json = JSON.stringify(fields);
    if (json === book.lastFields) {
      return false;
    }
    book.lastFields = json;
    void this.runs.fields(book.name, fields);
    return true;
  }

  /** Appends the read's new inbox items and replaces the panels if they changed. Returns whether anything did. */
  applyRead(book: AgentBook, read: AgentRead): boolean {
    for (const event of read.events) {
      void this.runs.event(book.name, event);
    }
    let changed = read.events.length > 0;
    const panels = JSON.stringify(read.panels);
    if (panels !== book.lastPanels) {
      book.lastPanels = panels;
      void this.runs.panels(book.name, read.panels, true);
      changed = true;
    }
    return changed;
  }

  /** Capabilities, description and the counts the tree shows (unread, pending reminders per agent). */
  publishConnection(): void {
    const books = this.roster.all().filter((b) => !b.gone);
    const managerName = this.roster.managerName;
    const unread = Object.fromEntries(books.flatMap((b) => (b.unread !== undefined ? [[b.name, b.unread] as const] : [])));
    const pendingReminders = Object.fromEntries(books.flatMap((b) => (b.pendingReminders !== undefined ? [[b.name, b.pendingReminders] as const] : [])));
    const unreadTotal = Object.values(unread).reduce((a, b) => a + b, 0);
    const running = books.filter((b) => this.roster.isRunning(b)).length;
    const rev = (managerName !== undefined ? this.roster.get(managerName)?.meta?.hyperhive_rev : undefined) ?? books.find((b) => b.meta?.hyperhive_rev)?.meta?.hyperhive_rev;
    const capabilities: Capability[] = managerName !== undefined ? ['hive.operatorMessage', 'hive.manager'] : ['hive.operatorMessage'];
    const info = {
      capabilities,
      serverDescription: [rev ? `hyperhive ${rev}` : 'hyperhive', `${running}/${books.length} running`, unreadTotal > 0 ? `${unreadTotal} unread` : '']
        .filter(Boolean)
        .join(' · '),
      // String values are shown in the tree's tooltip; the structured ones are for code (tests, automation).
      details: {
        hive: this.target,
        agents: `${running} of ${books.length} running${managerName !== undefined ? '' : ' (no manager socket)'}`,
        'unread messages': countsText(unread),
        'pending reminders': countsText(pendingReminders),
        unreadTotal,
        unread,
        pendingReminders,
      },
    };
    const json = JSON.stringify(info);
    if (json !== this.lastConnection) {
      this.lastConnection = json;
      this.runs.connectionInfo(info);
    }
  }
}

/** `iris 2, ruth 1` (non-zero counts only), or `none`. */
function countsText(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

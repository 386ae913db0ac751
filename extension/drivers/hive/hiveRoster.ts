/**
 * The agents of one hive as the driver knows them: one `AgentBook` per principal, kept in line with the sockets
 * found on disk (`applyLayout`) and the manager's container list (`readDescendants`, the running flags). A
 * principal may have a socket, a container entry, or both; one with neither is gone.
 */
import type { HiveClient } from './client';
import type { AgentBook } from './hiveAgentBook';
import { errorText } from '../kit/errors';
import { newAgentBook } from './hiveAgentBook';
import type { HiveSocketRole } from './hiveClientOptions';
import type { HiveSocketLayout } from './socketLayout';

/** The manager's run id: socket discovery names the principal of `<dir>/manager/mcp.sock` "manager". */
export const HIVE_MANAGER_RUN_ID = 'manager';

export interface HiveAgentSummary {
  readonly name: string;
  readonly running: boolean;
  readonly isManager: boolean;
  readonly hasSocket: boolean;
}

export class HiveRoster {
  private readonly books = new Map<string, AgentBook>();
  /** Names of lone sockets (role unknown), learnt once from their `get_agent_meta`. */
  private readonly unknownNames = new Map<string, string>();
  private manager: string | undefined;

  constructor(
    private readonly newClient: (socketPath: string, role: HiveSocketRole) => HiveClient,
    private readonly warn: (key: string, message: string) => void,
  ) {}

  /** The manager's principal name, when its socket was found. */
  get managerName(): string | undefined {
    return this.manager;
  }

  get managerClient(): HiveClient | undefined {
    return this.manager !== undefined ? this.books.get(this.manager)?.client : undefined;
  }

  all(): AgentBook[] {
    return [...this.books.values()];
  }

  get(name: string): AgentBook | undefined {
    return this.books.get(name);
  }

  /** The book of `name`, created on first sight. */
  book(name: string): AgentBook {
    let book = this.books.get(name);
    if (!book) {
      book = newAgentBook(name, this.books.size);
      this.books.set(name, book);
    }
    return book;
  }

  /** Effective running state: the manager is up (it answers); else the container list, else the agent's meta. */
  isRunning(book: AgentBook): boolean {
    if (book.name === this.manager) {
      return true;
    }
    return book.listedRunning ?? book.meta?.running ?? book.client !== undefined;
  }

  summaries(): HiveAgentSummary[] {
    return this.all()
      .filter((b) => !b.gone)
      .sort((a, b) => a.order - b.order)
      .map((b) => ({ name: b.name, running: this.isRunning(b), isManager: b.name === this.manager, hasSocket: b.client !== undefined }));
  }

  /** Brings the books in line with the sockets found; returns whether a socket appeared or went away. */
  async applyLayout(layout: HiveSocketLayout): Promise<boolean> {
    let changed = false;
    const present = new Set<string>();
    let manager: string | undefined;
    for (const entry of layout.sockets) {
      const name = entry.role === 'unknown' ? await this.nameOfUnknown(entry.socketPath, entry.name) : entry.name;
      if (entry.role === 'manager') {
        manager = name;
      }
      present.add(name);
      const book = this.book(name);
      if (book.socket?.socketPath !== entry.socketPath || book.socket.role !== entry.role) {
        book.socket = entry;
        book.client = this.newClient(entry.socketPath, entry.role);
        book.dirty = true;
        changed = true;
      }
    }
    for (const book of this.books.values()) {
      if (!present.has(book.name) && book.socket) {
        book.socket = undefined;
        book.client = undefined;
        book.dirty = true;
        changed = true;
      }
    }
    this.manager = manager;
    return changed;
  }

  /** Reads the manager's container list (running flags). Returns whether a flag changed. */
  async readDescendants(): Promise<boolean> {
    const manager = this.managerClient;
    if (!manager) {
      return false;
    }
    let containers: Awaited<ReturnType<HiveClient['listDescendants']>>;
    try {
      containers = await manager.listDescendants();
    } catch (error) {
      this.warn(`descendants:${errorText(error)}`, `list_descendants: ${errorText(error)} (running states come from each agent's meta)`);
      return false;
    }
    let changed = false;
    const listed = new Set<string>();
    for (const item of containers) {
      if (!item.ok) {
        this.warn(`container:${JSON.stringify(item.raw)}`, `a container of an unknown shape: ${JSON.stringify(item.raw)}`);
        continue;
      }
      listed.add(item.value.name);
      const book = this.book(item.value.name);
      if (book.listedRunning !== item.value.running) {
        book.listedRunning = item.value.running;
        book.dirty = true;
        changed = true;
      }
    }
    for (const book of this.books.values()) {
      if (!listed.has(book.name) && book.listedRunning !== undefined) {
        book.listedRunning = undefined;
        book.dirty = true;
        changed = true;
      }
    }
    return changed;
  }

  markAllDirty(): void {
    for (const book of this.books.values()) {
      book.dirty = true;
    }
  }

  /** A lone socket (e.g. `/run/hive/mcp.sock`) does not say whose it is: ask it once. */
  private async nameOfUnknown(socketPath: string, fallback: string): Promise<string> {
    let name = this.unknownNames.get(socketPath);
    if (name === undefined) {
      name = await this.newClient(socketPath, 'unknown').getAgentMeta().then((m) => m.name, () => fallback);
      this.unknownNames.set(socketPath, name);
    }
    return name;
  }
}

/**
 * The hive manager's privileged verbs, which only its own socket accepts (the guarded agent clients refuse them):
 * a call needs the manager's client and turns the daemon's refusal into user text; a lifecycle verb (start, kill,
 * restart, update) re-reads the containers and the agent afterwards, whatever came of it.
 */
import { DriverError } from '../driver';
import type { HiveClient } from './client';
import type { HiveAgentSync } from './hiveAgentSync';
import { hiveUserError } from './hiveOperatorMessage';
import type { HiveRoster } from './hiveRoster';
import type { HiveStoreMirror } from './hiveStoreMirror';

export type HiveLifecycleVerb = 'start' | 'kill' | 'restart' | 'update';

export class HiveManagerCalls {
  constructor(
    private readonly roster: HiveRoster,
    private readonly mirror: HiveStoreMirror,
    private readonly agentSync: HiveAgentSync,
    /** The directory (or single socket) the profile watches, for the error text. */
    private readonly target: () => string,
  ) {}

  async lifecycle(verb: HiveLifecycleVerb, name: string): Promise<void> {
    if (name === this.roster.managerName) {
      throw new DriverError('The manager cannot start, stop, restart or update itself over its own socket.');
    }
    const book = this.roster.get(name);
    try {
      await this.call((m) => m[verb](name));
    } finally {
      await this.roster.readDescendants().catch(() => false);
      if (book) {
        await this.agentSync.sync(book).catch(() => false);
      }
      this.mirror.publishConnection();
      this.agentSync.poller.reset();
    }
  }

  async call<T>(call: (manager: HiveClient) => Promise<T>): Promise<T> {
    const manager = this.roster.managerClient;
    if (!manager) {
      throw new DriverError(`This needs the hive manager's socket (${this.target()}/manager/mcp.sock), which is not available.`);
    }
    try {
      return await call(manager);
    } catch (error) {
      throw hiveUserError(error);
    }
  }
}

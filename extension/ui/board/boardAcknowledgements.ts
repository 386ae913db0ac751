/**
 * The runs that ended badly which the user has looked at or acted on (model/boardGroups.ts keeps them out of
 * *Needs you*). Kept in the extension's global state, where the runs' journals are too, so a window reload or a
 * second window does not bring a run back that was dealt with. Pure (no `vscode`): the caller passes the Memento.
 */

/** What is needed of a `vscode.Memento`. */
export interface AcknowledgementMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'agentSwitchboard.board.acknowledged';
/**
 * Keys kept, oldest dropped first. Not pruned by the store's runs: at startup the store is still empty while the
 * drivers replay, and a removed run's key only costs its bytes until it falls off the end.
 */
export const MAX_ACKNOWLEDGED = 500;

export class BoardAcknowledgements {
  private readonly keys: Set<string>;

  constructor(private readonly memento: AcknowledgementMemento) {
    const stored = memento.get<unknown>(KEY);
    // Storage is a trust boundary: anything but a list of strings counts as nothing acknowledged.
    this.keys = new Set(Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string').slice(-MAX_ACKNOWLEDGED) : []);
  }

  /** The set the projection reads (read-only by contract; changed only through `add`). */
  get set(): ReadonlySet<string> {
    return this.keys;
  }

  has(runKey: string): boolean {
    return this.keys.has(runKey);
  }

  /** Forgets the run (it was removed: ui/removedRuns.ts). */
  forget(runKey: string): void {
    if (this.keys.delete(runKey)) {
      void Promise.resolve(this.memento.update(KEY, [...this.keys])).catch(() => undefined);
    }
  }

  /** Records the run (stored in the background). False when it was already acknowledged. */
  add(runKey: string): boolean {
    if (this.keys.has(runKey)) {
      return false;
    }
    this.keys.add(runKey);
    while (this.keys.size > MAX_ACKNOWLEDGED) {
      this.keys.delete(this.keys.values().next().value!);
    }
    void Promise.resolve(this.memento.update(KEY, [...this.keys])).catch(() => undefined);
    return true;
  }
}

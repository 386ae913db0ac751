/**
 * Which removed connection profiles have gone for good, so their secrets (an agent's API key) can be deleted: a
 * profile missing from one read of the settings may only be invalid for a moment (a half-typed edit in
 * settings.json), and deleting its sign-in then would lose it. So a removal counts when a read without problems
 * still lacks the profile; one seen during a read with problems waits for the next clean read. No `vscode`.
 */
import type { ConnectionProfile } from '../protocol/connectionProfile';

const idOf = (p: ConnectionProfile): string => `${p.protocol}:${p.name}`;

export class RemovedProfiles {
  private readonly pending = new Map<string, ConnectionProfile>();

  /**
   * After a read of the settings: `removed` are the profiles it dropped, `current` the ones it has, `clean` whether
   * it had no problems. Returns the profiles whose removal is now certain (each once).
   */
  observe(removed: readonly ConnectionProfile[], current: readonly ConnectionProfile[], clean: boolean): ConnectionProfile[] {
    for (const profile of removed) {
      this.pending.set(idOf(profile), profile);
    }
    const present = new Set(current.map(idOf));
    for (const id of [...this.pending.keys()]) {
      if (present.has(id)) {
        this.pending.delete(id);
      }
    }
    if (!clean) {
      return [];
    }
    const gone = [...this.pending.values()];
    this.pending.clear();
    return gone;
  }
}

/**
 * Which AgencyProxy runs this editor may acknowledge, and each run's provider session.
 *
 * `ack_events` deletes a run's journal for every client (WIRE.md 1.9), and another client (the AgencyZero GUI, a
 * second editor window) may need that journal to replay after its own restart. So only runs this editor started,
 * or that the user explicitly adopted, are acknowledged; every other run is observed (attached, shown, stored)
 * without acking. The set is kept in each run's stored extras so a window reload does not forget it; a run stored
 * before this existed has no flag and is treated as observed, the safe side (its journal merely stays in memory).
 *
 * The provider session id (`session_opened` / `RunSnapshot.providerSessionId`) is kept beside it: after a daemon
 * restart the run is lost, and "continue in a new run" resumes that session through `resumeSessionId`.
 */

const OWNED_KEY = 'agencyProxyOwned';
const SESSION_KEY = 'agencyProxySessionId';

export class RunOwnership {
  private readonly owned = new Set<string>();
  private readonly sessions = new Map<string, string>();

  /** This editor started the run, or the user adopted it: its events may be acknowledged. */
  own(runId: string): void {
    this.owned.add(runId);
  }

  owns(runId: string): boolean {
    return this.owned.has(runId);
  }

  /** Records the run's provider session; true when that changed what should be stored. */
  noteSession(runId: string, sessionId: string | null | undefined): boolean {
    if (typeof sessionId !== 'string' || sessionId === '' || this.sessions.get(runId) === sessionId) {
      return false;
    }
    this.sessions.set(runId, sessionId);
    return true;
  }

  sessionOf(runId: string): string | undefined {
    return this.sessions.get(runId);
  }

  /** The run's entries for `StoredRun.extra` (JSON-safe; merged with other drivers' extras). */
  extraOf(runId: string): Record<string, unknown> {
    const session = this.sessions.get(runId);
    return {
      ...(this.owned.has(runId) ? { [OWNED_KEY]: true } : {}),
      ...(session !== undefined ? { [SESSION_KEY]: session } : {}),
    };
  }

  /** Restores what `extraOf` stored (malformed values are ignored: observed, no session). */
  restore(runId: string, extra: Readonly<Record<string, unknown>> | undefined): void {
    if (extra?.[OWNED_KEY] === true) {
      this.owned.add(runId);
    }
    const session = extra?.[SESSION_KEY];
    if (typeof session === 'string') {
      this.noteSession(runId, session);
    }
  }
}

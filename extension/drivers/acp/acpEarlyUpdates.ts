/**
 * Updates of sessions the driver does not know yet, kept until it does. An agent announces a new session's slash
 * commands right after answering `session/new`, which may be read before the answer is handled, or long before the
 * run starts (a session created to ask what the agent offers "New Run…"). Bounded per session and in all, the
 * oldest going first: an agent cannot grow this by sending updates for sessions that never come.
 */

/** Kept per session (the latest), and sessions kept (the oldest dropped first). */
const EARLY_PER_SESSION = 50;
const EARLY_SESSIONS = 8;

export class AcpEarlyUpdates<T extends { readonly sessionId: string }> {
  private readonly kept = new Map<string, T[]>();

  keep(update: T): void {
    const kept = this.kept.get(update.sessionId) ?? [];
    if (kept.length === 0 && this.kept.size >= EARLY_SESSIONS) {
      this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(update.sessionId, [...kept, update].slice(-EARLY_PER_SESSION));
  }

  /** The updates kept for `sessionId`, in order; forgotten here. */
  take(sessionId: string): readonly T[] {
    const kept = this.kept.get(sessionId) ?? [];
    this.kept.delete(sessionId);
    return kept;
  }
}

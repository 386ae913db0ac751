/**
 * Which AgencyProxy runs this editor window may acknowledge, and each run's provider session.
 *
 * `ack_events` deletes a run's journal for every client (WIRE.md 1.9), and another client (the AgencyZero GUI, a
 * second editor window) may need that journal to replay after its own restart. So a run is acknowledged only by the
 * editor window that owns it: the one that started it, or that the user had adopt it — and that writes its journal
 * (the driver checks the writer lease, kit/runWriters.ts), so an ack never covers more than that journal holds. Every
 * other run is observed (attached, shown) without acking.
 *
 * Ownership is the owner window's id (stable across its reloads: the UI keeps it in the workspace state), stored in
 * the run's index entry — not a flag: a window reading the shared index sees that the run is another window's
 * (issue #25: window B replayed A's "owned" flag as its own and acked A's run). When the owner's lease frees (it
 * closed, or its host died) and another window takes the journal over, ownership moves with it (`tookOver`): one
 * writer, one acker. A run stored by 0.x with the old `agencyProxyOwned` flag is an editor's run of unknown window:
 * the window that writes it next owns it.
 *
 * The provider session id (`session_opened` / `RunSnapshot.providerSessionId`) is kept beside it: after a daemon
 * restart the run is lost, and "continue in a new run" resumes that session through `resumeSessionId`.
 */

const OWNER_KEY = 'agencyProxyOwner';
/** Before issue #25: a flag, read as "an editor window owns it, which one is not known". */
const LEGACY_OWNED_KEY = 'agencyProxyOwned';
const SESSION_KEY = 'agencyProxySessionId';
/** The owner of a legacy run: no window's id. */
const UNKNOWN_WINDOW = '';

export class RunOwnership {
  /** Run → the id of the editor window that owns it. */
  private readonly owners = new Map<string, string>();
  private readonly sessions = new Map<string, string>();

  /** `window`: this editor window's id (scratch books, a legacy journal's decoder's, own nothing of their own). */
  constructor(private readonly window = 'scratch') {}

  /** This window started the run, or the user adopted it here: its events may be acknowledged (by its writer). */
  own(runId: string): void {
    this.owners.set(runId, this.window);
  }

  /**
   * Whether this window owns the run. A legacy run (an editor's, window unknown) counts as owned by each window: the
   * driver acks only runs it also writes, and the writer turns it into its own (`tookOver`).
   */
  owns(runId: string): boolean {
    const owner = this.owners.get(runId);
    return owner === this.window || owner === UNKNOWN_WINDOW;
  }

  /**
   * This window took the run's journal over: an editor window's run becomes this window's (true when that changed
   * what should be stored). A run no editor window owns (another client's) stays observed.
   */
  tookOver(runId: string): boolean {
    const owner = this.owners.get(runId);
    if (owner === undefined || owner === this.window) {
      return false;
    }
    this.owners.set(runId, this.window); // from another window, or from a legacy run's unknown one
    return true;
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
    const owner = this.owners.get(runId);
    const session = this.sessions.get(runId);
    return {
      ...(owner !== undefined && owner !== UNKNOWN_WINDOW ? { [OWNER_KEY]: owner } : {}),
      ...(owner === UNKNOWN_WINDOW ? { [LEGACY_OWNED_KEY]: true } : {}),
      ...(session !== undefined ? { [SESSION_KEY]: session } : {}),
    };
  }

  /** The run was removed: whose it was and its session are forgotten. */
  forget(runId: string): void {
    this.owners.delete(runId);
    this.sessions.delete(runId);
  }

  /** Restores what `extraOf` stored (malformed values are ignored: observed, no session). */
  restore(runId: string, extra: Readonly<Record<string, unknown>> | undefined): void {
    const owner = extra?.[OWNER_KEY];
    if (typeof owner === 'string' && owner !== UNKNOWN_WINDOW) {
      this.owners.set(runId, owner);
    } else if (extra?.[LEGACY_OWNED_KEY] === true) {
      this.owners.set(runId, UNKNOWN_WINDOW);
    }
    const session = extra?.[SESSION_KEY];
    if (typeof session === 'string') {
      this.noteSession(runId, session);
    }
  }
}

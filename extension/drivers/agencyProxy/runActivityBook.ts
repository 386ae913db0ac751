/**
 * The activity of every run on one AgencyProxy connection (see runActivity.ts), and the run state it implies. The
 * driver feeds it every folded event and asks it how to present the daemon's snapshot state, which says `running`
 * for an interactive run that finished answering. Pure bookkeeping, no I/O.
 */
import type { RunEvent } from '../../protocol/agencyProxy';
import type { RunState } from '../../protocol/transcriptTypes';
import type { RunActivity } from './runActivity';
import { activityRunState, foldActivity, initialActivity } from './runActivity';

/**
 * The metadata key this editor sends its `interactive` choice under. The daemon may echo metadata in snapshots, but
 * its types do not promise it (WIRE.md 1.5): what this editor started it knows itself, and keeps with the run.
 */
export const INTERACTIVE_METADATA_KEY = 'interactive';
/** The run's `interactive`, as this editor knows it, in the run's stored extras (so a reload keeps it). */
const INTERACTIVE_EXTRA_KEY = 'agencyProxyInteractive';

export interface ActivityChange {
  /** The run state to show, when the event changed it; undefined when nothing changed. */
  readonly state?: RunState;
  /** The run just finished an answer and waits for a message: time to compute its change set. */
  readonly becameIdle: boolean;
}

const NO_CHANGE: ActivityChange = { becameIdle: false };

interface Entry {
  activity: RunActivity;
  interactive: boolean;
  /** `interactive` is known (this editor started the run, stored it, or a snapshot said), not the default guess. */
  known: boolean;
  /** The state last implied, so repeated text chunks do not dispatch the same state again. */
  shown: RunState | undefined;
}

export class RunActivityBook {
  private readonly runs = new Map<string, Entry>();

  /**
   * Records whether a run takes follow-up messages. Unknown (a run started by another client that did not say,
   * or a stored run before the daemon answered) counts as interactive: the daemon's default clients use it, and
   * a one-shot run only shows "waiting" for the instant between its last boundary and `finished`.
   */
  setInteractive(runId: string, interactive: boolean): void {
    const entry = this.entry(runId);
    entry.interactive = interactive;
    entry.known = true;
  }

  /**
   * Reads the `interactive` flag from a snapshot's metadata, where it is only a hint: a run whose flag this editor
   * knows keeps it (a daemon need not echo metadata, so its absence says nothing), and absent or malformed on a run
   * it does not know leaves the default (interactive).
   */
  setInteractiveFromMetadata(runId: string, metadata: Readonly<Record<string, unknown>>): void {
    const value = metadata[INTERACTIVE_METADATA_KEY];
    if (typeof value === 'boolean' && !this.runs.get(runId)?.known) {
      this.setInteractive(runId, value);
    }
  }

  /** The run's entries for `StoredRun.extra`: its `interactive`, when known. */
  extraOf(runId: string): Record<string, unknown> {
    const entry = this.runs.get(runId);
    return entry?.known ? { [INTERACTIVE_EXTRA_KEY]: entry.interactive } : {};
  }

  /** Restores what `extraOf` stored (anything but a boolean is ignored: unknown). */
  restoreExtra(runId: string, extra: Readonly<Record<string, unknown>> | undefined): void {
    const value = extra?.[INTERACTIVE_EXTRA_KEY];
    if (typeof value === 'boolean') {
      this.setInteractive(runId, value);
    }
  }

  observe(runId: string, event: RunEvent): ActivityChange {
    const entry = this.entry(runId);
    entry.activity = foldActivity(entry.activity, event);
    const state = activityRunState(entry.activity, entry.interactive);
    if (state === undefined || state === entry.shown) {
      return NO_CHANGE;
    }
    entry.shown = state;
    return { state, becameIdle: state === 'idle' };
  }

  /**
   * Whether observing one more streamed chunk (text, reasoning) would change nothing: the run is answering, with no
   * approval to clear, and shown running. Then the chunk needs no `observe` (it would be a no-op).
   */
  steadyAnswering(runId: string): boolean {
    const entry = this.runs.get(runId);
    return entry !== undefined && entry.activity.phase === 'answering' && entry.activity.openApprovals.length === 0 && entry.shown === 'running';
  }

  /**
   * The state to show for a snapshot state: the daemon says `running` while an interactive run waits for input,
   * so the events decide between running and idle; every other snapshot state is shown as the daemon says.
   */
  present(runId: string, snapshotState: RunState): RunState {
    const entry = this.runs.get(runId);
    if (snapshotState !== 'running' || !entry) {
      return snapshotState;
    }
    return activityRunState(entry.activity, entry.interactive) === 'idle' ? 'idle' : snapshotState;
  }

  isIdle(runId: string): boolean {
    const entry = this.runs.get(runId);
    return entry !== undefined && activityRunState(entry.activity, entry.interactive) === 'idle';
  }

  /** The run's activity as folded so far (undefined before its first event): what the journal keeps as cursor. */
  activityOf(runId: string): RunActivity | undefined {
    return this.runs.get(runId)?.activity;
  }

  /** Puts back an activity from the journal (a reload): as if its events had been observed again. */
  restore(runId: string, activity: RunActivity): void {
    const entry = this.entry(runId);
    entry.activity = activity;
    entry.shown = activityRunState(activity, entry.interactive) ?? entry.shown;
  }

  forget(runId: string): void {
    this.runs.delete(runId);
  }

  private entry(runId: string): Entry {
    let entry = this.runs.get(runId);
    if (!entry) {
      entry = { activity: initialActivity, interactive: true, known: false, shown: undefined };
      this.runs.set(runId, entry);
    }
    return entry;
  }
}

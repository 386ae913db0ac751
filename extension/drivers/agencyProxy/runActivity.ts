/**
 * Whether an AgencyProxy run is answering, waiting for an approval, or — interactive runs only — waiting for the
 * user's next message. The daemon has no event for "waiting for input", and its snapshot keeps saying `running`
 * between answers (WIRE.md 1.5), so this is the inference WIRE.md documents: `message_boundary` ends each
 * assistant message, and a run whose last event is a boundary (or `usage`) with no open tool call or approval is
 * idle. Pure: one small immutable record per run, folded event by event (live and on journal replay alike).
 */
import type { RunEvent } from '../../protocol/agencyProxy';
import type { RunState } from '../../protocol/transcriptTypes';

export type ActivityPhase = 'answering' | 'idle' | 'waiting_approval' | 'ended';

export interface RunActivity {
  readonly phase: ActivityPhase;
  /** Tool calls without a result yet, by call id. */
  readonly openToolIds: readonly string[];
  /** Tool calls with `id: null` (allowed by the wire) still waiting for a result. */
  readonly openAnonymousTools: number;
  /** Approvals requested and not yet followed by further work. */
  readonly openApprovals: readonly string[];
}

/** A run that has started but said nothing yet is answering its prompt. */
export const initialActivity: RunActivity = { phase: 'answering', openToolIds: [], openAnonymousTools: 0, openApprovals: [] };

/** What the open calls and approvals leave once an assistant message (or a usage report) ended. */
function settle(activity: RunActivity): ActivityPhase {
  if (activity.openApprovals.length > 0) {
    return 'waiting_approval';
  }
  return activity.openToolIds.length === 0 && activity.openAnonymousTools === 0 ? 'idle' : 'answering';
}

/**
 * Work after an approval means it was answered (by this editor or by another client: the daemon continues only
 * after a decision), so the approval no longer keeps the run waiting.
 */
function working(activity: RunActivity, changes?: Partial<RunActivity>): RunActivity {
  if (changes === undefined && activity.phase === 'answering' && activity.openApprovals.length === 0) {
    return activity; // the common case, one more streamed chunk: nothing changes, nothing is allocated
  }
  return { ...activity, openApprovals: [], ...changes, phase: 'answering' };
}

export function foldActivity(activity: RunActivity, event: RunEvent): RunActivity {
  if (activity.phase === 'ended') {
    return activity;
  }
  switch (event.type) {
    case 'session_opened':
    case 'text':
    case 'reasoning':
    case 'compaction':
      return working(activity);
    case 'tool_call':
      return event.payload.id === null
        ? working(activity, { openAnonymousTools: activity.openAnonymousTools + 1 })
        : working(activity, { openToolIds: [...activity.openToolIds.filter((id) => id !== event.payload.id), event.payload.id] });
    case 'tool_result': {
      const id = event.payload.id;
      return id === null
        ? working(activity, { openAnonymousTools: Math.max(0, activity.openAnonymousTools - 1) })
        : working(activity, { openToolIds: activity.openToolIds.filter((open) => open !== id) });
    }
    case 'approval_requested':
      return {
        ...activity,
        openApprovals: [...activity.openApprovals.filter((a) => a !== event.payload.approval_id), event.payload.approval_id],
        phase: 'waiting_approval',
      };
    case 'message_boundary':
    case 'usage':
      return { ...activity, phase: settle(activity) };
    case 'finished':
    case 'failed':
      return { ...activity, phase: 'ended' };
    case 'rate_limit':
    case 'commands':
    case 'state_changed':
    case 'error':
    case 'unknown':
      // Reports about the provider, not work: Claude sends its rate-limit status after the final boundary, and
      // treating that as "answering again" would leave a finished answer spinning forever.
      return activity;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * The run state the events imply, or undefined when they imply none (the run ended: the snapshot has the exact
 * final state). A one-shot run never waits for input, so between its last boundary and `finished` it is running.
 */
export function activityRunState(activity: RunActivity, interactive: boolean): RunState | undefined {
  switch (activity.phase) {
    case 'answering':
      return 'running';
    case 'idle':
      return interactive ? 'idle' : 'running';
    case 'waiting_approval':
      return 'waiting_approval';
    case 'ended':
      return undefined;
    default: {
      const _exhaustive: never = activity.phase;
      return _exhaustive;
    }
  }
}

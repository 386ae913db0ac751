/**
 * Background delegation jobs of an SCV session (WIRE.md §2.7), folded from the events that mention them, and the
 * "Background jobs" side panel that shows them. A job appears in `tool.completed.jobs` (usually `running`); when it
 * finishes the server starts a turn itself to report it (`origin.kind: "background"`); a report turn that fails for
 * good is preceded by `background.reported`; `background.updated` later carries final review/landing outcomes.
 * Pure.
 */
import type { Panel } from '../../model/modelTypes';
import type { ScvServerEvent } from '../../protocol/scv';
import type { JobOutcome, TurnOrigin } from '../../protocol/scvTypes';

export interface ScvJob {
  readonly job: string;
  readonly agent: string;
  readonly task: string;
  /** The daemon's JobStatus (unknown strings kept). */
  readonly status: string;
  /** Where the report of the job stands, in words: "reporting", "reported", "report failed; retry in 30 s"… */
  readonly phase?: string;
  readonly outcome?: JobOutcome;
  /** The delegated agent's reply (untrusted output), when the server reported it itself. */
  readonly reply?: string;
}

export type ScvJobs = ReadonlyMap<string, ScvJob>;

export const BACKGROUND_PANEL_ID = 'scv.background';

function upsert(jobs: Map<string, ScvJob>, job: string, change: Partial<ScvJob>): void {
  const known = jobs.get(job) ?? { job, agent: '', task: '', status: 'running' };
  const merged: ScvJob = { ...known, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined && v !== '')) };
  jobs.set(job, merged);
}

function applyOrigin(jobs: Map<string, ScvJob>, origin: TurnOrigin | undefined, phase: string): boolean {
  if (!origin || origin.kind !== 'background') {
    return false;
  }
  for (const job of origin.jobs) {
    upsert(jobs, job, { phase });
  }
  for (const outcome of origin.outcomes) {
    upsert(jobs, outcome.job, { outcome });
  }
  return origin.jobs.length > 0 || origin.outcomes.length > 0;
}

/** The jobs after `event`, or `undefined` when the event does not concern background jobs. */
export function applyScvJobEvent(jobs: ScvJobs, event: ScvServerEvent): ScvJobs | undefined {
  const next = new Map(jobs);
  let changed = false;
  switch (event.type) {
    case 'tool.completed':
      for (const change of event.jobs) {
        upsert(next, change.job, { agent: change.agent || change.tool, task: change.task, status: change.status, outcome: change.outcome });
        changed = true;
      }
      break;
    case 'turn.started':
      changed = applyOrigin(next, event.origin, 'reporting');
      break;
    case 'turn.completed':
      changed = applyOrigin(next, event.origin, 'reported');
      break;
    case 'turn.cancelled':
      changed = applyOrigin(next, event.origin, 'report cancelled');
      break;
    case 'turn.failed': {
      const retry = event.origin?.retry_seconds;
      changed = applyOrigin(next, event.origin, retry !== undefined ? `report failed; the server retries in ${retry} s` : 'reported by the server');
      break;
    }
    case 'background.reported':
      for (const report of event.reports) {
        upsert(next, report.job, {
          agent: report.agent,
          task: report.task,
          status: report.status,
          reply: report.reply,
          outcome: report.outcome,
          phase: 'reported by the server',
        });
        changed = true;
      }
      break;
    case 'background.updated':
      for (const outcome of event.outcomes) {
        upsert(next, outcome.job, { outcome });
        changed = true;
      }
      break;
    default:
      return undefined;
  }
  return changed ? next : undefined;
}

/** "review approved · landed abc1234" */
export function describeOutcome(outcome: JobOutcome): string {
  const review = `review ${outcome.review.outcome.replace(/_/g, ' ')}`;
  const landing = outcome.landing.status.replace(/_/g, ' ');
  const commits = outcome.landing.commits.length > 0 ? ` ${outcome.landing.commits.map((c) => c.slice(0, 7)).join(', ')}` : '';
  const pending = outcome.review.journal_pending ? ' (journal pending)' : '';
  return `${review}${pending} · ${landing}${commits}`;
}

const STATUS_ICONS: Record<string, string> = {
  running: 'sync',
  completed: 'pass',
  failed: 'error',
  timeout: 'watch',
  declined: 'circle-slash',
  cancelled: 'circle-slash',
};

/** The side panel listing the jobs (the order they were first seen). */
export function backgroundJobsPanel(jobs: ScvJobs): Panel {
  return {
    id: BACKGROUND_PANEL_ID,
    title: 'Background jobs',
    emptyText: 'No background jobs',
    entries: [...jobs.values()].map((j) => ({
      id: j.job,
      icon: STATUS_ICONS[j.status] ?? 'question',
      label: j.agent ? `${j.job} · ${j.agent}` : j.job,
      description: [j.status, j.phase, j.outcome ? describeOutcome(j.outcome) : undefined, j.task || undefined].filter(Boolean).join(' — '),
      raw: { ...j },
      actions: [],
    })),
  };
}

/**
 * Subagent sessions (ACP `subagent_update`, unstable): a parent session announces a child session it created and
 * owns, then changes its title and state. The child is a run of its own on the same connection, linked to its parent
 * (`parentRunId`: the board and the tree show it under the parent), and its updates — sent under its own session id,
 * with no load or subscription needed — fill its own transcript. A child takes no prompt from the user (the agent
 * permits no session mutation on a child unless it says so, and this client offers none but cancelling).
 */
import type { SubagentUpdate } from '@agentclientprotocol/sdk/unstable';
import type { RunFields } from '../../model/modelActions';
import type { RunState } from '../../protocol/transcriptTypes';
import type { DriverLog } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import { errorText } from '../kit/errors';
import type { AcpSession, AcpSessions } from './acpSessions';

/** What a `subagent_update` says, as the driver uses it. Absent: unchanged; `null`: cleared. */
export interface AcpSubagentReport {
  readonly sessionId: string;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly cwd?: string | null;
  /** The child's state as a run state (absent: unchanged or not known). */
  readonly state?: RunState;
  /** The agent lets the client cancel the child's work (`capabilities.cancel`); absent: unchanged. */
  readonly canCancel?: boolean;
}

export function subagentReportOf(update: SubagentUpdate): AcpSubagentReport {
  const state = update.state ? runStateOf(update.state) : undefined;
  return {
    sessionId: update.sessionId,
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.description !== undefined ? { description: update.description } : {}),
    ...(update.cwd !== undefined ? { cwd: update.cwd } : {}),
    ...(state ? { state } : {}),
    ...(update.capabilities !== undefined ? { canCancel: update.capabilities?.cancel !== undefined && update.capabilities.cancel !== null } : {}),
  };
}

/** A child's work state as a run state: `unknown` (and any state this version does not know) changes nothing. */
function runStateOf(state: { readonly state: string; readonly stopReason?: unknown }): RunState | undefined {
  switch (state.state) {
    case 'running':
      return 'running';
    case 'requires_action':
      return 'waiting_approval';
    case 'idle':
      return state.stopReason === 'error' ? 'failed' : 'idle';
    default:
      return undefined;
  }
}

export interface AcpSubagentDeps {
  readonly sessions: AcpSessions;
  readonly runs: DriverRuns;
  readonly log: DriverLog;
  /** The agent's name (the child run's provider, as for its parent). */
  provider(): string;
  /** Keeps a new child's index entry (its working directory). */
  save(session: AcpSession): Promise<void>;
}

export class AcpSubagents {
  constructor(private readonly deps: AcpSubagentDeps) {}

  /** What the agent calls itself (every run's provider). */
  provider(): string {
    return this.deps.provider();
  }

  /** The run a child belongs to, if `runId` is a subagent's. */
  parentOf(runId: string): string | undefined {
    return this.deps.runs.get(runId)?.parentRunId;
  }

  /** A `subagent_update` on `parent`: the first announces the child (its run is created now), later ones change it. */
  apply(parent: AcpSession, report: AcpSubagentReport): void {
    const { sessions, runs } = this.deps;
    const known = sessions.get(report.sessionId);
    if (known && this.parentOf(known.sessionId) !== parent.sessionId) {
      // Ownership never changes, and a session of this window is nobody's child.
      this.deps.log.warn(`Session ${parent.sessionId} reported ${report.sessionId} as its subagent, which it does not own: ignored.`);
      return;
    }
    const child = known ?? sessions.add(report.sessionId, report.cwd ?? parent.cwd, true);
    if (report.canCancel !== undefined) {
      child.canCancel = report.canCancel;
    }
    const fields: { -readonly [K in keyof RunFields]: RunFields[K] } = {};
    const title = report.title ?? report.description;
    if (!known) {
      Object.assign(fields, { title: title ?? 'Subagent', provider: this.deps.provider(), state: 'running', createdAt: Date.now(), workspaceRoots: [child.cwd], parentRunId: parent.sessionId });
    } else if (typeof title === 'string') {
      fields.title = title;
    }
    if (report.state) {
      fields.state = report.state;
    }
    const recorded = runs.fields(child.sessionId, fields);
    void (known ? recorded : recorded.then(() => this.deps.save(child))).catch((error: unknown) => this.deps.log.error(`Could not store subagent ${child.sessionId}: ${errorText(error)}`));
    if (known && report.state !== undefined && report.state !== 'running') {
      // A child has no turn events of its own: its state says it stopped working, so its last text stops streaming
      // (no cursor on an idle subagent's answer).
      void runs.event(child.sessionId, { kind: 'messageBoundary' }).catch((error: unknown) => this.deps.log.error(`Subagent ${child.sessionId}: ${errorText(error)}`));
    }
  }
}

/**
 * Maps one SCV server event onto the common run model: transcript events plus the session's run state (`running`
 * during a turn, `waiting_approval` while an approval is pending, `idle` between turns). Pure; what the mapping
 * needs from earlier events (the prompt behind a turn, a proposed tool's arguments) comes through `lookup`.
 * Queue events are folded by `scvQueue.ts` and background jobs by `scvBackgroundJobs.ts`; connection-level events
 * (`initialized`, `session.started`, `daemon.status`, `error`) are the driver's.
 *
 * The user's prompt is shown when its turn starts (not when it is queued): a queued prompt can still be edited or
 * removed, so the transcript shows what actually ran, while the queue view shows what waits.
 */
import { formatCount } from '../../base/formatCount';
import { subjectOf } from '../../model/approvalSubject';
import type { RunEvent } from '../../model/modelActions';
import type { ScvEventOf, ScvServerEvent } from '../../protocol/scv';
import type { Usage } from '../../protocol/scvTypes';
import type { RunState } from '../../protocol/transcriptTypes';
import { describeOutcome } from './scvBackgroundJobs';

export interface ScvMappingLookup {
  /** The prompt that started this turn (sent by this editor or taken from the queue), when known. */
  turnPrompt(event: ScvEventOf<'turn.started'>): { readonly text: string; readonly note?: string } | undefined;
  /** The arguments of a proposed tool call, when `tool.proposed` was seen. */
  toolArguments(callId: string): unknown;
}

export interface ScvMappedEvent {
  readonly events: readonly RunEvent[];
  /** The session's state after this event, when the event changes it. */
  readonly state?: RunState;
}

const none: ScvMappedEvent = { events: [] };

export function summarizeScvUsage(usage: Usage): string {
  const parts: string[] = [];
  if (usage.input_tokens !== undefined) {
    parts.push(`${formatCount(usage.input_tokens)} in`);
  }
  if (usage.output_tokens !== undefined) {
    parts.push(`${formatCount(usage.output_tokens)} out`);
  }
  return parts.length > 0 ? `Tokens: ${parts.join(' · ')}` : 'No token usage reported';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isBackground(origin: { kind: string } | undefined): boolean {
  return origin?.kind === 'background';
}

export function mapScvEvent(event: ScvServerEvent, lookup: ScvMappingLookup): ScvMappedEvent {
  switch (event.type) {
    case 'turn.started': {
      const events: RunEvent[] = [];
      if (isBackground(event.origin)) {
        const jobs = event.origin?.jobs ?? [];
        events.push({ kind: 'turn', turnId: event.turn_id, phase: 'started', summary: 'background report' });
        events.push({
          kind: 'notice',
          level: 'info',
          text: `SCV started this turn itself to report finished background work${jobs.length > 0 ? ` (${jobs.join(', ')})` : ''}.`,
        });
      } else {
        events.push({ kind: 'turn', turnId: event.turn_id, phase: 'started' });
        const prompt = lookup.turnPrompt(event);
        if (prompt) {
          events.push({ kind: 'userPrompt', text: prompt.text, ...(prompt.note ? { note: prompt.note } : {}) });
        }
      }
      return { events, state: 'running' };
    }
    case 'assistant.delta':
      return { events: [{ kind: 'textDelta', text: event.content }] };
    case 'assistant.completed':
      return { events: [{ kind: 'textCompleted', text: event.content }] };
    case 'tool.proposed':
      return { events: [{ kind: 'toolCall', callId: event.call_id, name: event.name, input: event.arguments, status: 'proposed' }] };
    case 'approval.requested': {
      const args = lookup.toolArguments(event.call_id);
      return {
        events: [
          {
            kind: 'approvalRequested',
            approvalId: event.approval_id,
            title: `Run the tool "${event.name}"`,
            // The proposed arguments, so a file edit can be shown as a diff; else what the request says.
            detail: args !== undefined ? args : { name: event.name, call_id: event.call_id, cwd: event.cwd },
            summary: event.summary,
            risk: event.risk,
            // Protocol 3 has no "always allow".
            options: ['allow_once', 'deny'],
            subject: subjectOf(event.name, args),
          },
        ],
        state: 'waiting_approval',
      };
    }
    case 'tool.started':
      return { events: [{ kind: 'toolStarted', callId: event.call_id, name: event.name }], state: 'running' };
    case 'tool.progress':
      return { events: [{ kind: 'toolProgress', callId: event.call_id, text: event.text }] };
    case 'tool.completed': {
      const events: RunEvent[] = [
        {
          kind: 'toolResult',
          callId: event.call_id,
          name: event.name,
          ok: event.success,
          output: event.output,
          truncated: event.truncated,
          // Failures are classified by `error`, never by the output text (WIRE.md §2.9.6).
          ...(event.error !== undefined ? { errorKind: event.error } : {}),
        },
      ];
      for (const job of event.jobs) {
        events.push({
          kind: 'notice',
          level: 'info',
          text: `Background job ${job.job}${job.agent ? ` (${job.agent})` : ''} ${job.status}${job.task ? `: ${job.task}` : ''}`,
        });
      }
      return { events, state: 'running' };
    }
    case 'context.compacted':
      return {
        events: [
          {
            kind: 'data',
            dataKind: 'compaction',
            data: { before_tokens: event.before_tokens, after_tokens: event.after_tokens, removed_messages: event.removed_messages },
            summary: `Context compacted: ${event.before_tokens.toLocaleString('en-US')} → ${event.after_tokens.toLocaleString('en-US')} tokens (${plural(event.removed_messages, 'message')} summarized)`,
          },
        ],
      };
    case 'session.trimmed':
      return {
        events: [
          {
            kind: 'notice',
            level: 'info',
            text: `SCV trimmed the session history: ${plural(event.removed_messages, 'old message')} removed (${event.history_bytes.toLocaleString('en-US')} bytes kept).`,
          },
        ],
      };
    case 'session.cleared':
      return {
        events: [{ kind: 'notice', level: 'info', text: 'Session cleared: SCV forgot the conversation and emptied the queue. The transcript above is kept here only.' }],
        state: 'idle',
      };
    case 'turn.completed':
      return {
        events: [
          { kind: 'data', dataKind: 'usage', data: event.usage, summary: summarizeScvUsage(event.usage) },
          { kind: 'turn', turnId: event.turn_id, phase: 'completed', summary: plural(event.steps, 'step') },
        ],
        state: 'idle',
      };
    case 'turn.cancelled':
      return { events: [{ kind: 'turn', turnId: event.turn_id, phase: 'cancelled', message: 'its history changes were rolled back' }], state: 'idle' };
    case 'turn.failed': {
      const retry = event.origin?.retry_seconds;
      return {
        events: [
          {
            kind: 'turn',
            turnId: event.turn_id,
            phase: 'failed',
            code: event.code,
            message: event.message,
            ...(retry !== undefined ? { summary: `SCV retries in ${retry} s` } : {}),
          },
        ],
        state: 'idle',
      };
    }
    case 'session.paused':
      return { events: [{ kind: 'notice', level: 'info', text: event.paused ? 'Queue paused: queued prompts wait until it is resumed.' : 'Queue resumed.' }] };
    case 'background.reported': {
      const events: RunEvent[] = [
        {
          kind: 'notice',
          level: 'warning',
          text: `SCV could not report ${plural(event.reports.length, 'background job')} through the model (${event.code}: ${event.message}; ${plural(event.attempts, 'attempt')}); their replies follow.`,
        },
      ];
      for (const report of event.reports) {
        // The reply is the delegated agent's untrusted output: shown as a message, rendered like any agent text.
        events.push({ kind: 'message', from: `${report.job} · ${report.agent} (${report.status})`, body: report.reply });
      }
      return { events };
    }
    case 'background.updated':
      return {
        events: event.outcomes.map((o) => ({ kind: 'notice', level: 'info', text: `Background job ${o.job}: ${describeOutcome(o)}` }) as const),
      };
    case 'unknown': // a newer server's event: skipped (WIRE.md §2.9.2), excused by the seq rule; the driver logs it
    case 'queue.snapshot':
    case 'queue.enqueued':
    case 'queue.updated':
    case 'queue.moved':
    case 'queue.removed':
    case 'queue.dequeued':
    case 'initialized':
    case 'daemon.status':
    case 'session.started':
    case 'error':
      return none;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

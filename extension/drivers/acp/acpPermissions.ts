/**
 * `session/request_permission` as one of our approvals. The agent's options (allow once / allow always / reject
 * once / reject always) become the decisions offered on every surface; the request waits here until a person
 * decides (`decide`), the turn is cancelled (every pending request is answered `cancelled`, as the spec requires) or
 * the agent goes away. A tool call that carries diffs is offered in the native diff editor: the approval's detail is
 * the unified patch of what the call would do to the files as the editor has them now (acpProposal.ts), which
 * model/editProposal.ts applies again for *Show diff*.
 */
import type { AcpToolRow } from './acpToolRows';
import type { PermissionOptionKind, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { RunEvent } from '../../model/modelActions';
import type { AlwaysLasts, ApprovalDecision } from '../../protocol/transcriptTypes';
import { subjectOf } from '../../model/approvalSubject';
import { DriverError } from '../kit/errors';
import type { AcpDiff, CurrentText } from './acpProposal';
import { acpProposal, REGION_MISMATCH } from './acpProposal';
import { optionLasts, THIS_SESSION } from './acpAlwaysLasts';

const DECISION_OF: Readonly<Record<PermissionOptionKind, ApprovalDecision>> = {
  allow_once: 'allow_once',
  allow_always: 'allow_similar',
  reject_once: 'deny',
  reject_always: 'deny_always',
};
const ORDER: readonly ApprovalDecision[] = ['allow_once', 'allow_similar', 'deny', 'deny_always'];

interface Waiting {
  readonly sessionId: string;
  readonly optionFor: ReadonlyMap<ApprovalDecision, string>;
  readonly answer: (response: RequestPermissionResponse) => void;
}

/** Claude's Edit `replace_all`: the region is meant everywhere it occurs. */
function replacesAll(rawInput: unknown): boolean {
  return rawInput !== null && typeof rawInput === 'object' && (rawInput as { replace_all?: unknown }).replace_all === true;
}

/** A request opened: the approval event comes once the proposal is computed against the current files. */
export interface OpenedPermission {
  readonly approvalId: string;
  readonly event: Promise<RunEvent>;
  readonly response: Promise<RequestPermissionResponse>;
}

export class AcpPermissions {
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;
  private readonly epoch = Date.now().toString(36);

  /**
   * Turns a request into the `approvalRequested` event to fold, and the promise the JSON-RPC handler answers with.
   * The request waits (and can be cancelled) from now on, while its proposal is read from `current`.
   */
  open(request: RequestPermissionRequest, current: CurrentText): OpenedPermission {
    // Unique across windows too: a restored run keeps the ids of its old requests.
    const approvalId = `permission-${this.epoch}-${++this.next}`;
    const optionFor = new Map<ApprovalDecision, string>();
    const lasts: { allow_similar?: string; deny_always?: string } = {};
    for (const option of request.options) {
      const decision = DECISION_OF[option.kind];
      if (decision === undefined) {
        continue;
      }
      const always = decision === 'allow_similar' || decision === 'deny_always' ? decision : undefined;
      // Of several "always" options (codex-acp: for this session, and always) the one for the session is offered:
      // the shorter promise is the one a person can take back by ending the session.
      const shorter = always !== undefined && lasts[always] !== THIS_SESSION && optionLasts(option) === THIS_SESSION;
      if (!optionFor.has(decision) || shorter) {
        optionFor.set(decision, option.optionId);
        if (always !== undefined) {
          lasts[always] = optionLasts(option);
        }
      }
    }
    const response = new Promise<RequestPermissionResponse>((answer) => this.waiting.set(approvalId, { sessionId: request.sessionId, optionFor, answer }));
    return { approvalId, event: approvalEvent(approvalId, request, ORDER.filter((d) => optionFor.has(d)), current, lasts), response };
  }

  /** Answers a waiting request with the option of `decision`. */
  decide(approvalId: string, decision: ApprovalDecision): void {
    const waiting = this.waiting.get(approvalId);
    if (!waiting) {
      throw new DriverError('The agent no longer waits for this decision.', 'not_pending');
    }
    const optionId = waiting.optionFor.get(decision);
    if (optionId === undefined) {
      throw new DriverError('The agent did not offer that choice for this request.');
    }
    this.waiting.delete(approvalId);
    waiting.answer({ outcome: { outcome: 'selected', optionId } });
  }

  /** The agent withdrew the request: answered `cancelled`. False when it no longer waited (decided, cancelled). */
  withdraw(approvalId: string): boolean {
    return this.cancelWhere((_w, id) => id === approvalId).length > 0;
  }

  /** Answers every request of a session `cancelled` (its turn is cancelled); returns their approval ids. */
  cancelSession(sessionId: string): string[] {
    return this.cancelWhere((w) => w.sessionId === sessionId);
  }

  /** Answers everything `cancelled` (the agent is going away). */
  cancelAll(): string[] {
    return this.cancelWhere(() => true);
  }

  /** Whether a request of this session still waits for a decision. */
  hasWaiting(sessionId: string): boolean {
    return [...this.waiting.values()].some((w) => w.sessionId === sessionId);
  }

  isWaiting(approvalId: string): boolean {
    return this.waiting.has(approvalId);
  }

  private cancelWhere(match: (w: Waiting, approvalId: string) => boolean): string[] {
    const ids: string[] = [];
    for (const [id, waiting] of this.waiting) {
      if (match(waiting, id)) {
        this.waiting.delete(id);
        waiting.answer({ outcome: { outcome: 'cancelled' } });
        ids.push(id);
      }
    }
    return ids;
  }
}

async function approvalEvent(approvalId: string, request: RequestPermissionRequest, options: readonly ApprovalDecision[], current: CurrentText, lasts: AlwaysLasts): Promise<RunEvent> {
  const { toolCall } = request;
  const diffs = (toolCall.content ?? []).filter((c): c is AcpDiff => c.type === 'diff');
  const locations = (toolCall.locations ?? []).map((l) => l.path);
  // A proposal that cannot be computed still leaves the decision to the person, with the tool's input to look at.
  let failed: string | undefined;
  const proposal =
    diffs.length > 0
      ? await acpProposal(diffs, current, replacesAll(toolCall.rawInput)).catch((error: unknown) => {
          failed = `The proposed edit could not be shown: ${error instanceof Error ? error.message : String(error)}`;
          return undefined;
        })
      : undefined;
  const title = toolCall.title ?? 'The agent asks for permission';
  const summary = [
    ...(locations.length > 0 ? [[toolCall.kind, ...locations].filter(Boolean).join(' · ')] : []),
    ...(proposal?.mismatched ?? []).map((m) => `${m.path}: ${m.why}`),
    ...(failed !== undefined ? [failed] : []),
  ].join('\n');
  return {
    kind: 'approvalRequested',
    approvalId,
    title: proposal && proposal.mismatched.length > 0 ? `${title} — ${REGION_MISMATCH}` : title,
    // Show diff reads the patch; without diffs the tool's input is what there is to see.
    detail: proposal ? proposal.patch : (toolCall.rawInput ?? { title: toolCall.title, kind: toolCall.kind, locations: toolCall.locations ?? [] }),
    ...(summary !== '' ? { summary } : {}),
    options,
    ...(Object.keys(lasts).length > 0 ? { lasts } : {}),
    // The kind (edit, execute, …) names the tool: the title is free text that differs per call.
    subject: subjectOf(toolCall.kind ?? toolCall.title ?? 'tool', toolCall.rawInput, [...diffs.map((d) => d.path), ...locations]),
  };
}

/**
 * A permission request completed from its tool call's row: codex-acp asks about an edit with a bare tool call (no
 * content, no input) after a `tool_call` that carried the diff, and the person must see that diff to decide.
 */
export function withKnownTool(request: RequestPermissionRequest, row: AcpToolRow | undefined): RequestPermissionRequest {
  if (!row) {
    return request;
  }
  const { toolCall } = request;
  const hasDiff = (toolCall.content ?? []).some((c) => c.type === 'diff');
  return {
    ...request,
    toolCall: {
      ...toolCall,
      ...(!hasDiff && row.diffs.length > 0 ? { content: [...(toolCall.content ?? []), ...row.diffs] } : {}),
      ...(toolCall.rawInput === undefined && row.rawInput !== undefined ? { rawInput: row.rawInput } : {}),
      ...(!toolCall.locations?.length && row.locations.length > 0 ? { locations: [...row.locations] } : {}),
      ...(!toolCall.kind && row.kind ? { kind: row.kind } : {}),
    },
  };
}

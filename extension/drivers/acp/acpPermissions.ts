/**
 * `session/request_permission` as one of our approvals. The agent's options (allow once / allow always / reject
 * once / reject always) become the decisions offered on every surface; the request waits here until a person
 * decides (`decide`), the turn is cancelled (every pending request is answered `cancelled`, as the spec requires) or
 * the agent goes away. A tool call that carries diffs is offered in the native diff editor: the approval's detail is
 * the proposed file content (one file) or a unified diff (several), which model/editProposal.ts understands.
 */
import type { PermissionOptionKind, RequestPermissionRequest, RequestPermissionResponse, ToolCallContent } from '@agentclientprotocol/sdk';
import { createTwoFilesPatch } from 'diff';
import type { RunEvent } from '../../model/modelActions';
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import { subjectOf } from '../../model/approvalSubject';
import { DriverError } from '../kit/errors';

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

type Diff = Extract<ToolCallContent, { type: 'diff' }>;

/** The approval's detail: what the diff editor shows. */
function detailOf(request: RequestPermissionRequest, diffs: readonly Diff[]): unknown {
  if (diffs.length === 1) {
    return { path: diffs[0]!.path, content: diffs[0]!.newText };
  }
  if (diffs.length > 1) {
    return { patch: diffs.map((d) => createTwoFilesPatch(d.path, d.path, d.oldText ?? '', d.newText)).join('') };
  }
  return request.toolCall.rawInput ?? { title: request.toolCall.title, kind: request.toolCall.kind, locations: request.toolCall.locations ?? [] };
}

export class AcpPermissions {
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;
  private readonly epoch = Date.now().toString(36);

  /** Turns a request into the `approvalRequested` event to fold, and the promise the JSON-RPC handler answers with. */
  open(request: RequestPermissionRequest): { readonly approvalId: string; readonly event: RunEvent; readonly response: Promise<RequestPermissionResponse> } {
    // Unique across windows too: a restored run keeps the ids of its old requests.
    const approvalId = `permission-${this.epoch}-${++this.next}`;
    const optionFor = new Map<ApprovalDecision, string>();
    for (const option of request.options) {
      const decision = DECISION_OF[option.kind];
      if (decision !== undefined && !optionFor.has(decision)) {
        optionFor.set(decision, option.optionId);
      }
    }
    const diffs = (request.toolCall.content ?? []).filter((c): c is Diff => c.type === 'diff');
    const locations = (request.toolCall.locations ?? []).map((l) => l.path);
    const response = new Promise<RequestPermissionResponse>((answer) => this.waiting.set(approvalId, { sessionId: request.sessionId, optionFor, answer }));
    const event: RunEvent = {
      kind: 'approvalRequested',
      approvalId,
      title: request.toolCall.title ?? 'The agent asks for permission',
      detail: detailOf(request, diffs),
      ...(locations.length > 0 ? { summary: [request.toolCall.kind, ...locations].filter(Boolean).join(' · ') } : {}),
      options: ORDER.filter((d) => optionFor.has(d)),
      hasDiff: diffs.length > 0,
      // The kind (edit, execute, …) names the tool: the title is free text that differs per call.
      subject: subjectOf(request.toolCall.kind ?? request.toolCall.title ?? 'tool', request.toolCall.rawInput, [...diffs.map((d) => d.path), ...locations]),
    };
    return { approvalId, event, response };
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

  private cancelWhere(match: (w: Waiting) => boolean): string[] {
    const ids: string[] = [];
    for (const [id, waiting] of this.waiting) {
      if (match(waiting)) {
        this.waiting.delete(id);
        waiting.answer({ outcome: { outcome: 'cancelled' } });
        ids.push(id);
      }
    }
    return ids;
  }
}

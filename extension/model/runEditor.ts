/**
 * The run editor the event reducers share: collects transcript patches while keeping `itemCount` (which doubles as
 * the item id source) and the run's small streaming bookkeeping in step. Never reads the transcript itself.
 */
import type { TranscriptItem, TranscriptPatch } from '../protocol/transcriptTypes';
import type { ApprovalInfo, RunInfo } from './modelTypes';

export interface RunEventResult {
  readonly run: RunInfo;
  readonly patches: readonly TranscriptPatch[];
  /** Approvals added or changed by this event (keyed by approval key). */
  readonly approvals: readonly ApprovalInfo[];
}

export class RunEditor {
  readonly patches: TranscriptPatch[] = [];
  readonly approvals: ApprovalInfo[] = [];
  constructor(public run: RunInfo) {}

  nextId(prefix: string): string {
    return `${prefix}${this.run.itemCount}`;
  }

  add(item: TranscriptItem): void {
    this.patches.push({ op: 'add', item });
    this.run = { ...this.run, itemCount: this.run.itemCount + 1 };
  }

  update(id: string, changes: Record<string, unknown>): void {
    this.patches.push({ op: 'update', id, changes });
  }

  append(id: string, field: 'text' | 'output', chunk: string): void {
    if (chunk.length > 0) {
      this.patches.push({ op: 'append', id, field, chunk });
    }
  }

  closeText(): void {
    if (this.run.openTextId !== undefined) {
      this.update(this.run.openTextId, { streaming: false });
      this.run = { ...this.run, openTextId: undefined };
    }
  }

  closeReasoning(): void {
    if (this.run.openReasoningId !== undefined) {
      this.update(this.run.openReasoningId, { streaming: false });
      this.run = { ...this.run, openReasoningId: undefined };
    }
  }

  closeStreams(): void {
    this.closeReasoning();
    this.closeText();
  }

  /** The item of an in-flight tool call, or undefined. */
  openTool(callId: string | null): string | undefined {
    return callId === null ? this.run.openAnonymousToolId : this.run.openTools.get(callId);
  }

  setOpenTool(callId: string | null, itemId: string | undefined): void {
    if (callId === null) {
      this.run = { ...this.run, openAnonymousToolId: itemId };
      return;
    }
    const openTools = new Map(this.run.openTools);
    if (itemId === undefined) {
      openTools.delete(callId);
    } else {
      openTools.set(callId, itemId);
    }
    this.run = { ...this.run, openTools };
  }

  /**
   * Ends every tool call still in flight (the run or turn ended without their results): without this they would
   * keep spinning forever, since no result will come for them any more.
   */
  endOpenTools(status: 'cancelled' | 'unknown'): void {
    const open = [...this.run.openTools.values(), ...(this.run.openAnonymousToolId !== undefined ? [this.run.openAnonymousToolId] : [])];
    if (open.length === 0) {
      return;
    }
    for (const id of open) {
      this.update(id, { status, progress: null });
    }
    this.run = { ...this.run, openTools: new Map(), openAnonymousToolId: undefined };
  }

  addTool(callId: string | null, name: string, input: unknown, status: 'proposed' | 'running' | 'unknown'): string {
    const id = this.nextId('t');
    this.add({ id, kind: 'tool', callId, name, input, status, output: '', truncated: false });
    this.setOpenTool(callId, id);
    return id;
  }
}

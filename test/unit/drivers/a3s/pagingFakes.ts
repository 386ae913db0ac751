/** In-memory fakes for A3S paging tests: a page body builder, injectable timers and a run store answering pages. */
import assert from 'node:assert/strict';
import { checkA3sEventPage } from '../../../../extension/drivers/a3s/eventPageCheck';
import type { A3sCheckedPage } from '../../../../extension/drivers/a3s/eventPageCheck';
import type { TimedTimeouts } from '../../../../extension/drivers/kit/clock';
import type { A3sRunIdentity } from '../../../../extension/protocol/a3s';

export interface PageBody {
  after_event_sequence: number | null;
  first_available_sequence: number | null;
  latest_sequence_exclusive: number;
  next_after_event_sequence: number | null;
  retention_gap: boolean;
  has_more: boolean;
  events: { sequence: number }[];
  state?: string;
}

export function pageBody(identity: A3sRunIdentity, p: PageBody): unknown {
  return {
    schema: 'a3s.code.agent-event-page.v1',
    identity,
    ...p,
    state: p.state ?? 'executing',
    observed_at_ms: 1,
    events: p.events.map((e) => ({ sequence: e.sequence, occurred_at_ms: 1, event: { version: 1, type: 'text_delta', payload: { text: 'x' } } })),
  };
}

export class FakeTimers implements TimedTimeouts {
  time = 0;
  readonly delays: number[] = [];
  private pending: { at: number; cb: () => void; handle: number }[] = [];
  private next = 1;
  setTimeout(cb: () => void, ms: number): unknown {
    this.delays.push(ms);
    const handle = this.next++;
    this.pending.push({ at: this.time + ms, cb, handle });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.handle !== handle);
  }
  now(): number {
    return this.time;
  }
  get waiting(): number {
    return this.pending.length;
  }
  fire(): void {
    const p = this.pending.shift();
    assert.ok(p, 'nothing scheduled');
    this.time = p.at;
    p.cb();
  }
}

/** An in-memory run store answering pages like the harness, through the real cursor checks. */
export class FakeStore {
  events: number[] = [];
  state = 'executing';
  firstAvailable = 0;
  calls = 0;
  async eventPage(identity: A3sRunIdentity, after: number | null, limit = 64): Promise<A3sCheckedPage> {
    this.calls++;
    let start = after === null ? 0 : after + 1;
    const gap = start < this.firstAvailable;
    if (gap) {
      start = this.firstAvailable;
    }
    const events = this.events.slice(start, start + limit).map((sequence) => ({ sequence }));
    const last = events.at(-1);
    const body = pageBody(identity, {
      after_event_sequence: after,
      first_available_sequence: this.firstAvailable,
      latest_sequence_exclusive: this.events.length,
      next_after_event_sequence: last ? last.sequence : after,
      retention_gap: gap,
      has_more: last ? last.sequence + 1 < this.events.length : false,
      events,
      state: this.state,
    });
    return checkA3sEventPage(body, identity, after, limit);
  }
  add(n: number): void {
    for (let i = 0; i < n; i++) {
      this.events.push(this.events.length);
    }
  }
}

/** Lets every pending microtask and I/O-free continuation run (the fakes never touch real I/O or time). */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
  }
};

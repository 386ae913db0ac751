/** Answering vs waiting for input, inferred from AgencyProxy events (WIRE.md 1.5) — the pure fold and the per-run book. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunActivity } from '../../../../extension/drivers/agencyProxy/runActivity';
import { activityRunState, foldActivity, initialActivity } from '../../../../extension/drivers/agencyProxy/runActivity';
import { RunActivityBook } from '../../../../extension/drivers/agencyProxy/runActivityBook';
import type { RunEvent } from '../../../../extension/protocol/agencyProxy';

const ev = {
  opened: { type: 'session_opened', payload: { provider_session_id: 's', model: null } },
  text: { type: 'text', payload: 'hi' },
  reasoning: { type: 'reasoning', payload: 'hmm' },
  boundary: { type: 'message_boundary' },
  usage: { type: 'usage', payload: { output_tokens: 3 } },
  rateLimit: { type: 'rate_limit', payload: { status: 'allowed' } },
  commands: { type: 'commands', payload: [] },
  compaction: { type: 'compaction', payload: null },
  call: (id: string | null) => ({ type: 'tool_call', payload: { id, name: 'Read', input: {} } }),
  result: (id: string | null) => ({ type: 'tool_result', payload: { id, ok: true, output: '' } }),
  approval: (id: string) => ({ type: 'approval_requested', payload: { approval_id: id, title: 'Edit', detail: null } }),
  finished: { type: 'finished', payload: { exit_code: 0 } },
  failed: { type: 'failed', payload: 'boom' },
} satisfies Record<string, RunEvent | ((...a: never[]) => RunEvent)>;

function fold(events: readonly RunEvent[], from: RunActivity = initialActivity): RunActivity {
  return events.reduce(foldActivity, from);
}

const state = (events: readonly RunEvent[], interactive = true) => activityRunState(fold(events), interactive);

describe('run activity (pure fold)', () => {
  it('a boundary or usage with no open tool call or approval means idle', () => {
    assert.equal(state([ev.opened, ev.text, ev.boundary]), 'idle');
    assert.equal(state([ev.opened, ev.text, ev.usage]), 'idle');
    assert.equal(state([ev.opened, ev.call('t1'), ev.result('t1'), ev.text, ev.usage, ev.boundary]), 'idle');
  });

  it('is running before any boundary, and while a tool call is open at a boundary', () => {
    assert.equal(state([]), 'running');
    assert.equal(state([ev.opened, ev.text]), 'running');
    assert.equal(state([ev.opened, ev.call('t1'), ev.boundary]), 'running', 'the tool result is still to come');
    assert.equal(state([ev.call(null), ev.call(null), ev.result(null), ev.boundary]), 'running', 'one anonymous call is still open');
    assert.equal(state([ev.call(null), ev.call(null), ev.result(null), ev.result(null), ev.boundary]), 'idle');
    assert.equal(state([ev.call('a'), ev.call('b'), ev.result('b'), ev.usage]), 'running', 'a is still open');
  });

  it('any later work makes an idle run running again', () => {
    const idle = fold([ev.opened, ev.text, ev.boundary]);
    for (const next of [ev.text, ev.reasoning, ev.call('t2'), ev.result('t9'), ev.compaction, ev.opened]) {
      assert.equal(activityRunState(foldActivity(idle, next), true), 'running', next.type);
    }
  });

  it('provider reports after the final boundary do not restart the spinner', () => {
    assert.equal(state([ev.text, ev.boundary, ev.rateLimit]), 'idle');
    assert.equal(state([ev.text, ev.boundary, ev.commands]), 'idle');
  });

  it('an approval means waiting for approval, even at a boundary; work after it means it was answered', () => {
    assert.equal(state([ev.text, ev.approval('ap1')]), 'waiting_approval');
    assert.equal(state([ev.text, ev.approval('ap1'), ev.boundary]), 'waiting_approval');
    assert.equal(state([ev.approval('ap1'), ev.call('t1')]), 'running');
    assert.equal(state([ev.approval('ap1'), ev.call('t1'), ev.result('t1'), ev.text, ev.boundary]), 'idle');
  });

  it('a one-shot run never waits for input: between its last boundary and finished it is running', () => {
    assert.equal(state([ev.text, ev.boundary], false), 'running');
    assert.equal(state([ev.approval('a')], false), 'waiting_approval');
  });

  it('terminal events end the inference (the snapshot has the final state), and nothing revives it', () => {
    assert.equal(state([ev.text, ev.boundary, ev.finished]), undefined);
    assert.equal(state([ev.text, ev.failed, ev.text]), undefined);
  });
});

describe('run activity book', () => {
  it('reports a state only when it changes, and flags the moment an answer ends', () => {
    const book = new RunActivityBook();
    assert.deepEqual(book.observe('r', ev.opened), { state: 'running', becameIdle: false });
    assert.deepEqual(book.observe('r', ev.text), { becameIdle: false }, 'still running: no dispatch per chunk');
    assert.deepEqual(book.observe('r', ev.boundary), { state: 'idle', becameIdle: true });
    assert.deepEqual(book.observe('r', ev.usage), { becameIdle: false });
    assert.deepEqual(book.observe('r', ev.text), { state: 'running', becameIdle: false });
    assert.deepEqual(book.observe('r', ev.approval('a1')), { state: 'waiting_approval', becameIdle: false });
    assert.deepEqual(book.observe('r', ev.call('t')), { state: 'running', becameIdle: false });
    assert.deepEqual(book.observe('r', ev.result('t')), { becameIdle: false });
    assert.deepEqual(book.observe('r', ev.boundary), { state: 'idle', becameIdle: true });
    assert.deepEqual(book.observe('r', ev.finished), { becameIdle: false });
  });

  it('presents the daemon snapshot state "running" as idle when the events say the run waits', () => {
    const book = new RunActivityBook();
    assert.equal(book.present('unknown-run', 'running'), 'running');
    book.observe('r', ev.text);
    book.observe('r', ev.boundary);
    assert.equal(book.present('r', 'running'), 'idle');
    assert.equal(book.present('r', 'waiting_approval'), 'waiting_approval');
    assert.equal(book.present('r', 'canceled'), 'canceled');
    assert.ok(book.isIdle('r'));
  });

  it('reads the interactive flag from snapshot metadata; a one-shot run is never presented idle', () => {
    const book = new RunActivityBook();
    book.setInteractiveFromMetadata('one', { interactive: false });
    book.setInteractiveFromMetadata('other-client', { title: 'no flag' });
    for (const id of ['one', 'other-client']) {
      book.observe(id, ev.text);
      book.observe(id, ev.boundary);
    }
    assert.equal(book.present('one', 'running'), 'running');
    assert.equal(book.isIdle('one'), false);
    assert.equal(book.present('other-client', 'running'), 'idle', 'unknown = interactive (the daemon default clients use)');
  });

  it('keeps what it knows of a run it started: a snapshot without metadata (no echo) does not make it interactive, nor does a reload', () => {
    const book = new RunActivityBook();
    book.setInteractive('mine', false);
    book.setInteractiveFromMetadata('mine', {});
    book.setInteractiveFromMetadata('mine', { interactive: true }); // another client's hint never overrides
    book.observe('mine', ev.text);
    book.observe('mine', ev.boundary);
    assert.equal(book.present('mine', 'running'), 'running');
    const extra = book.extraOf('mine');
    const reloaded = new RunActivityBook();
    reloaded.restoreExtra('mine', extra);
    reloaded.setInteractiveFromMetadata('mine', {});
    reloaded.observe('mine', ev.text);
    reloaded.observe('mine', ev.boundary);
    assert.equal(reloaded.isIdle('mine'), false, 'still one-shot after the reload');
    assert.deepEqual(new RunActivityBook().extraOf('unknown'), {}, 'nothing stored for a guess');
    const hostile = new RunActivityBook();
    hostile.restoreExtra('x', { agencyProxyInteractive: 'no' });
    assert.deepEqual(hostile.extraOf('x'), {}, 'a stored value that is not a boolean is no knowledge');
  });
});

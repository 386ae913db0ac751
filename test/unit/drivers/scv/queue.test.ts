import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ScvRequestError } from '../../../../extension/drivers/scv/scvErrors';
import type { ScvEventOf, ScvServerEvent } from '../../../../extension/protocol/scv';
import { seen, sessionClient, startDaemon, turnEnd } from './scvDaemonKit';
import type { DaemonHandle, Recorded } from './scvDaemonKit';

function isCode(code: string): (e: unknown) => boolean {
  return (e) => e instanceof ScvRequestError && e.code === code;
}

async function queued(rec: Recorded, prompt: string): Promise<ScvEventOf<'queue.enqueued'>> {
  const answer = await rec.client.startTurn(prompt);
  assert.equal(answer.kind, 'queued', `${prompt} should be queued`);
  return answer.event as ScvEventOf<'queue.enqueued'>;
}

describe('SCV prompt queue', () => {
  let h: DaemonHandle;
  let rec: Recorded;

  beforeEach(async () => {
    h = await startDaemon({ queueLimit: 3 });
    rec = await sessionClient(h);
  });
  afterEach(async () => {
    rec.client.dispose();
    await h.cleanup();
  });

  it('queues behind a slow turn and runs the prompt when its turn comes', async () => {
    const first = await rec.client.startTurn('slow first');
    assert.equal(first.kind, 'started');
    const second = await queued(rec, 'second');
    assert.equal(second.position, 0);
    assert.equal(second.entry.revision, 1);
    assert.equal(second.entry.submitter, 'agent-switchboard');
    const dequeued = await seen(
      rec,
      (e): e is ScvEventOf<'queue.dequeued'> => e.type === 'queue.dequeued' && e.queue_id === second.entry.queue_id,
    );
    assert.equal(dequeued.request_id, second.request_id, 'turn events carry the submitting turn.start');
    const end = await turnEnd(rec, dequeued.turn_id);
    assert.equal(end.type, 'turn.completed');
    // The dequeued turn starts only after the first turn's terminal event.
    const types = rec.events.map((e) => e.type);
    assert.ok(types.indexOf('turn.completed') < types.indexOf('queue.dequeued'));
  });

  it('edits, moves and removes queued prompts by revision, with conflicts', async () => {
    const paused = await rec.client.pause(true);
    assert.equal(paused.paused, true);
    const a = await queued(rec, 'prompt a');
    const b = await queued(rec, 'prompt b');
    const c = await queued(rec, 'prompt c');
    assert.deepEqual([a.position, b.position, c.position], [0, 1, 2]);
    await assert.rejects(rec.client.startTurn('prompt d'), isCode('queue_limit'));

    const updated = await rec.client.updateQueue(a.entry.queue_id, 1, 'prompt a, edited');
    assert.equal(updated.entry.revision, 2);
    assert.equal(updated.entry.prompt, 'prompt a, edited');
    // Stale revision → queue_conflict; unknown id → queue_not_found.
    await assert.rejects(rec.client.updateQueue(a.entry.queue_id, 1, 'lost edit'), isCode('queue_conflict'));
    await assert.rejects(rec.client.moveQueue(a.entry.queue_id, 1, null), isCode('queue_conflict'));
    await assert.rejects(rec.client.removeQueue('q-missing', 1), isCode('queue_not_found'));

    const moved = await rec.client.moveQueue(c.entry.queue_id, 1, a.entry.queue_id);
    assert.deepEqual([moved.position, moved.revision], [0, 2]);
    const toEnd = await rec.client.moveQueue(a.entry.queue_id, 2, null);
    assert.deepEqual([toEnd.position, toEnd.revision], [2, 3]);
    const removed = await rec.client.removeQueue(b.entry.queue_id, 1);
    assert.equal(removed.revision, 2);
    await assert.rejects(rec.client.removeQueue(b.entry.queue_id, 2), isCode('queue_not_found'));

    // Releasing the queue runs c then a, in queue order.
    await rec.client.pause(false);
    const isDequeued = (e: ScvServerEvent): e is ScvEventOf<'queue.dequeued'> => e.type === 'queue.dequeued';
    const firstRun = await seen(rec, isDequeued);
    await turnEnd(rec, firstRun.turn_id);
    const secondRun = await seen(rec, (e): e is ScvEventOf<'queue.dequeued'> => isDequeued(e) && e.turn_id !== firstRun.turn_id);
    await turnEnd(rec, secondRun.turn_id);
    assert.deepEqual([firstRun.queue_id, secondRun.queue_id], [c.entry.queue_id, a.entry.queue_id]);
    const deltas = rec.events
      .filter((e): e is ScvEventOf<'assistant.completed'> => e.type === 'assistant.completed' && e.turn_id === secondRun.turn_id)
      .map((e) => e.content);
    assert.deepEqual(deltas, ['Echo: prompt a, edited']);
    assert.deepEqual(rec.gaps, []);
  });

  it('session.clear drops the queue and keeps seq', async () => {
    await rec.client.pause(true);
    await queued(rec, 'to be cleared');
    const cleared = await rec.client.clearSession();
    assert.equal(cleared.type, 'session.cleared');
    await rec.client.pause(false);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(rec.events.filter((e) => e.type === 'turn.started').length, 0, 'nothing left to run');
  });
});

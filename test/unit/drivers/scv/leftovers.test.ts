/** What an ended SCV session leaves over, and what is offered to the next session (pure logic). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  leftoverOfferFor,
  leftoverPromptsOf,
  parseStoredPrompts,
  previousSessionOf,
  promptsToResend,
} from '../../../../extension/drivers/scv/scvLeftovers';
import type { ScvLeftoverPrompt, ScvRunRef } from '../../../../extension/drivers/scv/scvLeftovers';
import type { QueueEntry } from '../../../../extension/protocol/scvTypes';

const entry = (queueId: string, prompt: string): QueueEntry => ({ queue_id: queueId, revision: 1, prompt, submitter: 'me', attachments: [] });
const p = (prompt: string): ScvLeftoverPrompt => ({ prompt, attachments: [] });
const runs: ScvRunRef[] = [
  { connectionId: 'scv:a', runId: 's1@1', createdAt: 100 },
  { connectionId: 'scv:a', runId: 's2@1', createdAt: 200 },
  { connectionId: 'scv:b', runId: 's9@1', createdAt: 250 },
  { connectionId: 'scv:a', runId: 's1@2', createdAt: 300 },
];

describe('SCV leftover prompts', () => {
  it('are the prompts still waiting in the queue, in order, with their attachments', () => {
    const image = { kind: 'image', path: '/a.png', name: '', mime: '', size: 3 } as const;
    const queue = { entries: [entry('q2', 'second'), { ...entry('q3', 'third'), attachments: [image] }], paused: true };
    assert.deepEqual(leftoverPromptsOf(queue), [p('second'), { prompt: 'third', attachments: [image] }]);
    assert.deepEqual(leftoverPromptsOf({ entries: [], paused: false }), []);
  });

  it('read back from storage leniently: anything unreadable is no prompts', () => {
    assert.deepEqual(parseStoredPrompts([{ prompt: 'a' }]), [p('a')]);
    assert.deepEqual(parseStoredPrompts(undefined), []);
    assert.deepEqual(parseStoredPrompts('garbage'), []);
    assert.deepEqual(parseStoredPrompts([{ text: 'wrong key' }]), []);
  });

  it('skip what the new session already queued (a daemon that restored them), one for one', () => {
    const leftovers = [p('a'), p('b'), p('a'), p('c')];
    assert.deepEqual(promptsToResend(leftovers, [entry('q1', 'a'), entry('q2', 'c')]), [p('b'), p('a')]);
    assert.deepEqual(promptsToResend(leftovers, []), leftovers);
  });

  it('come from the latest other session of the same connection', () => {
    assert.equal(previousSessionOf(runs, 'scv:a', 's1@2'), 's2@1');
    assert.equal(previousSessionOf(runs, 'scv:b', 's9@1'), undefined);
    assert.equal(previousSessionOf(runs, 'scv:a', 'new'), 's1@2');
  });

  it('are offered only when the previous session left some that the new queue does not hold', () => {
    const stored = new Map<string, ScvLeftoverPrompt[]>([
      ['s2@1', [p('left 1'), p('left 2')]],
      ['s1@1', [p('older, not offered')]],
    ]);
    const leftoversOf = (runId: string): ScvLeftoverPrompt[] => stored.get(runId) ?? [];
    const offer = leftoverOfferFor(runs, 'scv:a', 's1@2', leftoversOf, []);
    assert.deepEqual(offer, { id: 's2@1→s1@2', fromRunId: 's2@1', toRunId: 's1@2', prompts: [p('left 1'), p('left 2')] });
    assert.deepEqual(leftoverOfferFor(runs, 'scv:a', 's1@2', leftoversOf, [entry('q1', 'left 2')])?.prompts, [p('left 1')]);
    assert.equal(leftoverOfferFor(runs, 'scv:a', 's1@2', leftoversOf, [entry('q1', 'left 1'), entry('q2', 'left 2')]), undefined);
    assert.equal(leftoverOfferFor(runs, 'scv:a', 's1@2', () => [], []), undefined);
    assert.equal(leftoverOfferFor(runs, 'scv:b', 's9@1', leftoversOf, []), undefined, 'another connection has none');
  });
});

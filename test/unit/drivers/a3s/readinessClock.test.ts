/** A3sReadiness checks on the injected kit clock: one check per interval, one report of the first problem, then quiet. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A3sError } from '../../../../extension/drivers/a3s/a3sErrors';
import { A3sReadiness } from '../../../../extension/drivers/a3s/a3sReadiness';
import type { A3sClient, A3sHealthResult } from '../../../../extension/drivers/a3s/client';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';

const settle = () => new Promise((r) => setImmediate(r));

test('watch checks each interval on the kit clock and stops at the first problem', async () => {
  const clock = new ManualClock();
  const answers: (A3sHealthResult | Error)[] = [
    { state: 'ready', httpStatus: 200, detail: 'ready' },
    new A3sError('transport', 'A3S harness unreachable at 127.0.0.1:9: connect ECONNREFUSED'),
  ];
  let calls = 0;
  const client = {
    baseUrl: new URL('http://127.0.0.1:9'),
    readiness: async () => {
      const answer = answers[calls++];
      if (answer instanceof Error) {
        throw answer;
      }
      return answer!;
    },
  } as unknown as A3sClient;
  const readiness = new A3sReadiness(client, clock);
  const problems: string[] = [];
  readiness.watch(1_000, (reason) => problems.push(reason));
  clock.advance(999);
  await settle();
  assert.equal(calls, 0, 'no check before the interval');
  clock.advance(1);
  await settle();
  assert.equal(calls, 1);
  assert.deepEqual(problems, []);
  clock.advance(1_000);
  await settle();
  assert.deepEqual(problems, ['the harness at http://127.0.0.1:9 is unreachable: A3S harness unreachable at 127.0.0.1:9: connect ECONNREFUSED']);
  assert.equal(clock.pendingCount, 0, 'the interval is cleared after the problem');
  clock.advance(10_000);
  await settle();
  assert.equal(calls, 2);
});

test('an idle watch arms no timer; checkNow still checks; periodic checks run only while turned on', async () => {
  const clock = new ManualClock();
  let calls = 0;
  const client = { baseUrl: new URL('http://127.0.0.1:9'), readiness: async () => (calls++, { state: 'ready', httpStatus: 200, detail: 'ready' }) } as unknown as A3sClient;
  const readiness = new A3sReadiness(client, clock);
  readiness.watch(1_000, () => assert.fail('no problem expected'), false);
  assert.equal(clock.pendingCount, 0, 'idle: nothing armed');
  await readiness.checkNow();
  assert.equal(calls, 1, 'on demand');
  readiness.setPeriodic(true);
  assert.equal(clock.pendingCount, 1);
  clock.advance(1_000);
  await settle();
  assert.equal(calls, 2);
  readiness.setPeriodic(false);
  assert.equal(clock.pendingCount, 0, 'a run ended: disarmed');
  readiness.stop();
  await readiness.checkNow();
  assert.equal(calls, 2, 'not watching: checkNow is a no-op');
});

/** A3sReadiness checks on the injected kit clock: one check per interval, one report of the first problem, then quiet. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A3sError } from '../../../extension/drivers/a3s/a3sErrors';
import { A3sReadiness } from '../../../extension/drivers/a3s/a3sReadiness';
import type { A3sClient, A3sHealthResult } from '../../../extension/drivers/a3s/client';
import { ManualClock } from '../../../extension/drivers/kit/manualClock';

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

/** bench/repetitions.ts: the median repetition of each figure, with its spread. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BenchRow } from '../../../bench/benchKit';
import { aggregateRepetitions } from '../../../bench/repetitions';

const row = (id: string, value: number, ratio?: number, met: boolean | null = null): BenchRow => ({ id, name: id, value, unit: 'x', ...(ratio !== undefined ? { ratio } : {}), met });

test('each figure becomes its median repetition (a real sample, with its own met) and the spread of its ratio', () => {
  const rows = aggregateRepetitions([
    [row('a', 10, 0.4, false), row('b', 5)],
    [row('a', 12, 0.6, true), row('b', 7)],
    [row('a', 11, 0.5, true), row('b', 6)],
  ]);
  assert.deepEqual(rows.map((r) => [r.id, r.value, r.ratio, r.met]), [
    ['a', 11, 0.5, true],
    ['b', 6, undefined, null],
  ]);
  assert.deepEqual(rows[0]!.spread, { min: 0.4, max: 0.6, n: 3, of: 'ratio' });
  assert.deepEqual(rows[1]!.spread, { min: 5, max: 7, n: 3, of: 'value' });
});

test('one repetition has no spread; unmeasurable samples (NaN) are left out of the median', () => {
  assert.equal(aggregateRepetitions([[row('a', 1)]])[0]!.spread, undefined);
  const rows = aggregateRepetitions([[row('a', Number.NaN)], [row('a', 3)], [row('a', 4)]]);
  assert.deepEqual(rows[0]!.spread, { min: 3, max: 4, n: 2, of: 'value' });
});

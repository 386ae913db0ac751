/** The board's elapsed times (model/elapsedText.ts): compact text, and when it next changes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockText, elapsedText, untilNextChange } from '../../../extension/model/elapsedText';

test('elapsed time is compact, and the ticker wakes only when the text changes', () => {
  assert.equal(elapsedText(0, 42_900), '42s');
  assert.equal(elapsedText(0, 3 * 60_000 + 5_000), '3m');
  assert.equal(elapsedText(0, 65 * 60_000), '1h 5m');
  assert.equal(elapsedText(0, 2 * 3_600_000), '2h');
  assert.equal(elapsedText(0, 52 * 3_600_000), '2d 4h');
  assert.equal(elapsedText(1000, 0), '0s', 'a clock that went back says 0s');
  assert.equal(untilNextChange(1_500), 520);
  assert.equal(untilNextChange(61_000), 59_020);
});

test('a clock time says the day only when it is not today (local time)', () => {
  const at = new Date(2026, 11, 3, 9, 5).getTime();
  assert.equal(clockText(at, new Date(2026, 11, 3, 23, 59).getTime()), '09:05');
  assert.equal(clockText(at, new Date(2026, 11, 4, 0, 1).getTime()), '3 Dec 09:05');
});

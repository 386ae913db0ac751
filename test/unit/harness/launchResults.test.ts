import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newTotals, ownLaunchProblems, readLaunchLine } from '../../harness/launchResults.mjs';

const SUITES = ['Two windows: window A', 'Two windows: window B'];
const result = (suite: string, passed: number, failed = 0, reloading = false): string =>
  `integration launch result: ${JSON.stringify({ passed, failed, pending: 0, suites: { [suite]: { passed, failed, pending: 0 } }, ...(reloading ? { reloading } : {}) })}`;

describe('integration launch results (test/harness/launchResults.mjs)', () => {
  it('a launch of two windows whose windows reload: every life of each window counts, the launch once', () => {
    const totals = newTotals();
    totals.current = 'Two windows';
    for (const line of [
      `[window A] ${result(SUITES[0]!, 4, 0, true)}`, '[window A] 4 passed, 0 failed',
      `[window B] ${result(SUITES[1]!, 3, 1)}`, '[window B] 3 passed, 1 failed',
      `[window A] ${result(SUITES[0]!, 2)}`, '[window A] 2 passed, 0 failed',
      '[window B] some output of the window: 9 passed, 9 failed',
    ]) {
      readLaunchLine(totals, line);
    }
    assert.deepEqual({ passed: totals.passed, failed: totals.failed, launches: totals.launches }, { passed: 9, failed: 1, launches: 1 });
    const reports = totals.results.get('Two windows')!;
    assert.deepEqual(reports.map((r) => r.window), ['A', 'B', 'A']);
    assert.deepEqual(ownLaunchProblems(reports, SUITES, ['A', 'B']), ['1 failed']);
  });

  it('a launch of two windows proves nothing when one window never reported, or not after its last reload', () => {
    const totals = newTotals();
    totals.current = 'Two windows';
    readLaunchLine(totals, `[window A] ${result(SUITES[0]!, 4)}`);
    assert.deepEqual(ownLaunchProblems(totals.results.get('Two windows'), SUITES, ['A', 'B']), [
      'window B reported no result (its tests never finished)',
      `suite "${SUITES[1]}" ran no test`,
    ]);
    readLaunchLine(totals, `[window B] ${result(SUITES[1]!, 5, 0, true)}`);
    assert.deepEqual(ownLaunchProblems(totals.results.get('Two windows'), SUITES, ['A', 'B']), [
      'window B did not report after its last reload (its tests never finished)',
    ]);
  });

  it('launches of one window count one launch per result, and a suite the launch is not for is a problem', () => {
    const totals = newTotals();
    totals.current = 'Reload phase 1';
    readLaunchLine(totals, result('Reload phase 1', 2));
    readLaunchLine(totals, '2 passed, 0 failed');
    totals.current = 'Reload phase 2';
    readLaunchLine(totals, result('Something else', 1));
    readLaunchLine(totals, '1 passed, 0 failed');
    assert.equal(totals.launches, 2);
    assert.deepEqual(ownLaunchProblems(totals.results.get('Reload phase 1'), ['Reload phase 1']), []);
    assert.deepEqual(ownLaunchProblems(totals.results.get('Reload phase 2'), ['Reload phase 2']), [
      'suite "Reload phase 2" ran no test',
      'suite "Something else" ran, which this launch is not for',
    ]);
    assert.deepEqual(ownLaunchProblems(undefined, ['Reload phase 1']), ['it reported no result (it did not run, or its window never finished)']);
  });
});

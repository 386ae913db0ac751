/**
 * Mocha entry run inside the VS Code extension host; prints the `N passed, N failed` line the runner reads, and a
 * `integration launch result: {json}` line with the counts per top-level suite, by which the runner checks that the
 * suites a launch exists for ran and passed (test/harness/runIntegration.mjs). A suite may ask for a window reload
 * after the run (reloadAfterRun.ts): the results are reported, then the window reloads instead of ending.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import type { Test } from 'mocha';
import * as vscode from 'vscode';
import { reloadAfterRunRequested } from './reloadAfterRun';
import { screenshot, TIME_SCALE } from './support';

/** A grep as the runner passes it: "/a|b/" is a regular expression; anything else a plain substring. */
function grepSource(grep: string): string {
  const regex = /^\/(.+)\/$/.exec(grep);
  return regex ? regex[1]! : grep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The tests a launch runs: those the grep selects (all without one), minus those the exclusion names (the suites
 * the runner gives launches of their own: they never run, so never skip, in another launch).
 */
function selection(grep: string | undefined, exclude: string | undefined): RegExp | undefined {
  if (!grep && !exclude) {
    return undefined;
  }
  // The exclusion is a regular expression's source, matched from the start of a test's full title.
  const without = exclude ? `(?!${exclude})` : '';
  return new RegExp(`^${without}.*(?:${grep ? grepSource(grep) : ''})`);
}

interface SuiteCounts {
  passed: number;
  failed: number;
  pending: number;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000 * TIME_SCALE });
  const selected = selection(process.env.SWITCHBOARD_INTEGRATION_GREP || undefined, process.env.SWITCHBOARD_INTEGRATION_EXCLUDE || undefined);
  if (selected) {
    mocha.grep(selected);
  }
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) {
      mocha.addFile(path.join(__dirname, file));
    }
  }
  // A failed test leaves a picture of the workbench as it failed (test-results/failed-*.png): a timed-out wait for a
  // row says only that it never came, the picture shows what was there instead.
  mocha.suite.afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') {
      const name = test.fullTitle().replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80);
      await screenshot(`failed-${name}.png`).catch((error: unknown) => console.log(`no picture of the failure: ${String(error)}`));
    }
  });
  const suites: Record<string, SuiteCounts> = {};
  const count = (test: Test, what: keyof SuiteCounts): void => {
    const suite = test.titlePath()[0] ?? '';
    suites[suite] ??= { passed: 0, failed: 0, pending: 0 };
    suites[suite][what] += 1;
  };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const pending = Object.values(suites).reduce((n, s) => n + s.pending, 0);
      // `reloading`: this window goes on after a reload, so this is not its last report (launchResults.mjs).
      const reloading = reloadAfterRunRequested() ? { reloading: true } : {};
      console.log(`integration launch result: ${JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: failures, pending, suites, ...reloading })}`);
      console.log(`${runner.stats?.passes ?? 0} passed, ${failures} failed`);
      if (reloadAfterRunRequested()) {
        // The suite goes on in the reloaded window (reloadAfterRun.ts): this run never ends, its window goes away.
        void vscode.commands.executeCommand('workbench.action.reloadWindow');
        return;
      }
      if (failures > 0) {
        reject(new Error(`${failures} integration tests failed.`));
      } else {
        resolve();
      }
    });
    runner.on('pass', (test) => count(test, 'passed'));
    runner.on('fail', (test) => count(test as Test, 'failed'));
    runner.on('pending', (test) => count(test, 'pending'));
  });
}

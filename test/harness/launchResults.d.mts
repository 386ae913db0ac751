// Types of launchResults.mjs, for the unit test that imports it (test/unit/harness/launchResults.test.ts).

export interface SuiteCounts {
  readonly passed: number;
  readonly failed: number;
  readonly pending: number;
}

/** One `integration launch result` line, with the window that printed it ('' for a launch of one window). */
export interface LaunchReport extends SuiteCounts {
  readonly window: string;
  readonly suites: Readonly<Record<string, SuiteCounts>>;
  /** The window reloads after this report and reports again (test/integration/reloadAfterRun.ts). */
  readonly reloading?: boolean;
}

export interface LaunchTotals {
  passed: number;
  failed: number;
  launches: number;
  current: string;
  readonly results: Map<string, LaunchReport[]>;
  readonly windowed: Set<string>;
}

export function selects(grep: string | undefined, title: string): boolean;
export function ownLaunchProblems(reports: readonly LaunchReport[] | undefined, suites: readonly string[], windows?: readonly string[]): string[];
export function newTotals(): LaunchTotals;
export function readLaunchLine(totals: LaunchTotals, line: string): void;
export function countResults(): LaunchTotals;

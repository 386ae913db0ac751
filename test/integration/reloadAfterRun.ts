/**
 * A suite that goes on in the same window after a reload (the two-window suites: each window reloads while a run
 * streams) asks for the reload here; index.ts reports this run's results first, then reloads the window, and the
 * reloaded window runs the suites again (they read their own state to know where they are). So every test of every
 * life of a window is reported, and a failure before a reload is never lost with the window that had it.
 * The request lives on `globalThis`: index.ts and the suites are bundled apart (test/harness/buildTestBundles.mjs).
 */
const RELOAD_AFTER_RUN = Symbol.for('agentSwitchboard.integration.reloadAfterRun');

interface ReloadRequests {
  [RELOAD_AFTER_RUN]?: boolean;
}

/** Reload this window once this run's tests have ended and reported (whether they passed or not). */
export function requestReloadAfterRun(): void {
  (globalThis as ReloadRequests)[RELOAD_AFTER_RUN] = true;
}

export function reloadAfterRunRequested(): boolean {
  return (globalThis as ReloadRequests)[RELOAD_AFTER_RUN] === true;
}

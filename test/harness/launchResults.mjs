// What the integration launches report, read from their output: each window's `N passed, N failed` line and its
// `integration launch result: {json}` line (test/integration/index.ts), and whether a launch that exists for suites
// of its own proved them. A launch with two windows (codeShim.cjs: SHIM_SECOND_WINDOW) prefixes each window's lines
// with "[window A] " / "[window B] ", and a window that reloads between runs (test/integration/reloadAfterRun.ts)
// reports once per life: every report counts.

/** Whether the user's grep (as index.ts reads it: "/re/" or a substring) selects a suite titled `title`. */
export function selects(grep, title) {
  if (!grep) return true;
  const regex = /^\/(.+)\/$/.exec(grep);
  return regex ? new RegExp(regex[1]).test(title) : title.includes(grep);
}

/**
 * What a launch that exists for `suites` must have reported (`reports`: every result it printed, with the window
 * that printed it): every one of them run, every test passed, none skipped, and from each of `windows` a last report
 * that is not followed by a reload (`reloading`, test/integration/index.ts).
 * Returns the problems (none: it proved what it is for).
 */
export function ownLaunchProblems(reports, suites, windows = ['']) {
  if (!reports || reports.length === 0) return ['it reported no result (it did not run, or its window never finished)'];
  const problems = [];
  for (const window of windows) {
    const last = reports.filter((r) => r.window === window).at(-1);
    if (!last) problems.push(`window ${window} reported no result (its tests never finished)`);
    // A report before a reload is not the window's last: the suites it reloaded for never reported.
    else if (last.reloading) problems.push(`window ${window} did not report after its last reload (its tests never finished)`);
  }
  const failed = reports.reduce((n, r) => n + r.failed, 0);
  const pending = reports.reduce((n, r) => n + r.pending, 0);
  if (failed > 0) problems.push(`${failed} failed`);
  if (pending > 0) problems.push(`${pending} skipped`);
  const ran = new Map();
  for (const report of reports) {
    for (const [suite, counts] of Object.entries(report.suites)) ran.set(suite, (ran.get(suite) ?? 0) + counts.passed);
  }
  for (const suite of suites) {
    if (!ran.get(suite)) problems.push(`suite "${suite}" ran no test`);
  }
  for (const suite of ran.keys()) {
    if (!suites.includes(suite)) problems.push(`suite "${suite}" ran, which this launch is not for`);
  }
  return problems;
}

/** The counts of a run of the runner: `current` is the launch running now (the runner sets it before each). */
export function newTotals() {
  return { passed: 0, failed: 0, launches: 0, current: '', results: new Map(), windowed: new Set() };
}

/**
 * Reads one line a launch printed: a result line is kept for the current launch, with the window that printed it;
 * a `N passed, N failed` line adds to the counts. A launch counts as reported once, however many windows and lives
 * of a window report in it.
 */
export function readLaunchLine(totals, line) {
  const labelled = /^\[window (\w+)\] (.*)$/.exec(line.trim());
  const window = labelled ? labelled[1] : '';
  const text = labelled ? labelled[2].trim() : line.trim();
  const result = /^integration launch result: (\{.*\})$/.exec(text);
  if (result) {
    const reports = totals.results.get(totals.current) ?? [];
    reports.push({ window, ...JSON.parse(result[1]) });
    totals.results.set(totals.current, reports);
  }
  const m = /^(\d+) passed, (\d+) failed$/.exec(text);
  if (m) {
    totals.passed += Number(m[1]);
    totals.failed += Number(m[2]);
    if (!window || !totals.windowed.has(totals.current)) totals.launches += 1;
    if (window) totals.windowed.add(totals.current);
  }
}

/** Counts what the suites print (runTests streams their output through our stdout), line by line. */
export function countResults() {
  const totals = newTotals();
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = (chunk, ...rest) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) readLaunchLine(totals, line);
    return write(chunk, ...rest);
  };
  return totals;
}

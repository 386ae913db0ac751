/** Account usage as a readable view: bars with percent and reset time per provider, raw JSON for unknown shapes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountUsageMarkdown, accountUsageSummary, escapeMarkdown, usageBar, usageWindows } from '../../../../extension/drivers/agencyProxy/accountUsageMarkdown';

const NOW = Date.parse('2030-01-01T02:00:00Z');

test('Claude-style windows (utilization fraction, resets_at) and Codex-style ones (used_percent, resets_in_seconds)', () => {
  assert.deepEqual(usageWindows({ five_hour: { utilization: 0.37, resets_at: '2030-01-01T05:00:00Z' }, seven_day: { utilization: 12 } }, NOW), [
    { label: '5-hour window', percent: 37, resetsAt: Date.parse('2030-01-01T05:00:00Z') },
    { label: '7-day window', percent: 12 },
  ]);
  assert.deepEqual(usageWindows({ rate_limits: { primary: { used_percent: 80, window_minutes: 300, resets_in_seconds: 600 } } }, NOW), [
    { label: 'rate_limits · Primary window (5 h)', percent: 80, resetsAt: NOW + 600_000 },
  ]);
  assert.deepEqual(usageWindows({ credits: 12, plan: 'max' }, NOW), []);
  assert.deepEqual(usageWindows({ w: { percent: 140 } }, NOW), [{ label: 'W', percent: 100 }], 'clamped');
});

test('the view: a bar, percent and reset per window; errors, unsupported and unknown shapes said plainly', () => {
  const md = accountUsageMarkdown('Local proxy', [
    { provider: 'claude', supported: true, error: null, usage: { five_hour: { utilization: 0.37, resets_at: '2030-01-01T05:00:00Z' } } },
    { provider: 'codex', supported: true, usage: null, error: 'not logged in' },
    { provider: 'copilot', supported: false, usage: null, error: null },
    { provider: 'gemini', supported: true, error: null, usage: { quota: 'x```y' } },
  ], NOW);
  assert.match(md, /^# Account usage — Local proxy$/m);
  assert.ok(md.includes(`**5\\-hour window**  \n\`${usageBar(37)}\` 37% used · resets 2030-01-01 05:00 UTC (in 3 h)`), md);
  assert.match(md, /## codex\n\n⚠ Could not read usage: not logged in/);
  assert.match(md, /## copilot\n\nThis provider's CLI does not report usage\./);
  assert.match(md, /## gemini\n\nThe usage has a shape this version does not know[^\n]*\n\n````json\n\{\n {2}"quota": "x```y"\n\}\n````/);
});

test('daemon strings cannot inject markdown or links', () => {
  const md = accountUsageMarkdown('p', [{ provider: '[click](command:evil)', supported: true, usage: null, error: '<img src=x onerror=alert(1)> **bold**' }], NOW);
  assert.ok(!md.includes('[click](command:evil)'));
  assert.ok(md.includes(escapeMarkdown('[click](command:evil)')));
  assert.doesNotMatch(md, /(^|[^\\])<img/, 'the tag is escaped');
  assert.equal(escapeMarkdown('a*b_[c](d)<e>'), 'a\\*b\\_\\[c\\]\\(d\\)\\<e\\>');
});

test('the tooltip summary: one line per provider', () => {
  const summary = accountUsageSummary([
    { provider: 'claude', supported: true, error: null, usage: { five_hour: { utilization: 0.5, resets_at: '2030-01-01T03:30:00Z' } } },
    { provider: 'codex', supported: true, usage: null, error: 'not logged in' },
  ], NOW);
  assert.equal(summary, `**claude**: 5\\-hour window \`${usageBar(50, 10)}\` 50%, resets in 1 h 30 min  \n**codex**: ⚠ Could not read usage: not logged in`);
});

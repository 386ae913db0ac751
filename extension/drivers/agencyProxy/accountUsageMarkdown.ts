/**
 * AgencyProxy account usage (WIRE.md 1.14 AccountUsage) as readable markdown: per provider, a bar with the
 * percent used and the reset time of each usage window the provider reports, and a one-line-per-provider summary
 * for the status bar tooltip. `usage` is provider-specific: windows are recognised by shape (an object with a
 * percent-like number, e.g. Claude's `{five_hour: {utilization, resets_at}}` or Codex's
 * `{primary: {used_percent, window_minutes, resets_in_seconds}}`); what is not recognised is shown raw, as JSON.
 * Every daemon-supplied string is escaped: the markdown is rendered.
 */
/** AccountUsage as the driver hands it out (`usage` is whatever the provider reported). */
export interface AccountUsage {
  readonly provider: string;
  readonly supported: boolean;
  readonly usage: unknown;
  readonly error: string | null;
}

export interface UsageWindow {
  readonly label: string;
  /** 0–100. */
  readonly percent: number;
  /** Epoch ms. */
  readonly resetsAt?: number;
}

const BAR_CELLS = 20;
const PERCENT_KEYS = ['used_percent', 'usedPercent', 'percent_used', 'percentUsed', 'percent'];
/** Fractions 0–1 (a value above 1 is taken as a percent already). */
const FRACTION_KEYS = ['utilization', 'used_fraction', 'usedFraction'];
const RESET_AT_KEYS = ['resets_at', 'resetsAt', 'reset_at', 'resetAt'];
const RESET_IN_KEYS = ['resets_in_seconds', 'resetsInSeconds', 'reset_in_seconds'];

/** Backslash-escapes every ASCII punctuation character markdown could read as syntax. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&"'=:]/g, '\\$&').replace(/\r?\n/g, ' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function firstNumber(o: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'number' && Number.isFinite(v)) {
      return v;
    }
  }
  return undefined;
}

function percentOf(o: Record<string, unknown>): number | undefined {
  const percent = firstNumber(o, PERCENT_KEYS);
  if (percent !== undefined) {
    return percent;
  }
  const fraction = firstNumber(o, FRACTION_KEYS);
  return fraction === undefined ? undefined : fraction <= 1 ? fraction * 100 : fraction;
}

function resetOf(o: Record<string, unknown>, now: number): number | undefined {
  for (const k of RESET_AT_KEYS) {
    const v = o[k];
    if (typeof v === 'string') {
      const t = Date.parse(v);
      if (!Number.isNaN(t)) {
        return t;
      }
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      return v < 1e12 ? v * 1000 : v; // unix seconds or ms
    }
  }
  const inSeconds = firstNumber(o, RESET_IN_KEYS);
  return inSeconds === undefined ? undefined : now + inSeconds * 1000;
}

const NAMED_WINDOWS: Record<string, string> = { five_hour: '5-hour window', seven_day: '7-day window', primary: 'Primary window', secondary: 'Secondary window' };

function windowLabel(path: readonly string[], o: Record<string, unknown>): string {
  const key = path[path.length - 1] ?? 'usage';
  let label = NAMED_WINDOWS[key] ?? key.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
  const minutes = firstNumber(o, ['window_minutes', 'windowMinutes']);
  if (minutes !== undefined && !NAMED_WINDOWS[key]?.includes('-')) {
    label += minutes % 1440 === 0 ? ` (${minutes / 1440} d)` : minutes % 60 === 0 ? ` (${minutes / 60} h)` : ` (${minutes} min)`;
  }
  return path.length > 1 ? `${path.slice(0, -1).join(' ')} · ${label}` : label;
}

/** The usage windows found in a provider's `usage` (objects up to two levels down). */
export function usageWindows(usage: unknown, now: number): UsageWindow[] {
  const found: UsageWindow[] = [];
  const visit = (value: unknown, path: readonly string[], depth: number): void => {
    if (!isRecord(value) || depth > 2) {
      return;
    }
    const percent = path.length > 0 ? percentOf(value) : undefined;
    if (percent !== undefined) {
      const resetsAt = resetOf(value, now);
      found.push({ label: windowLabel(path, value), percent: Math.max(0, Math.min(100, percent)), ...(resetsAt !== undefined ? { resetsAt } : {}) });
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      visit(v, [...path, k], depth + 1);
    }
  };
  visit(usage, [], 0);
  return found;
}

export function usageBar(percent: number, cells = BAR_CELLS): string {
  const filled = Math.round((percent / 100) * cells);
  return `${'█'.repeat(filled)}${'░'.repeat(cells - filled)}`;
}

function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function relative(ms: number, now: number): string {
  const minutes = Math.round((ms - now) / 60_000);
  if (minutes <= 0) {
    return 'now';
  }
  if (minutes < 60) {
    return `in ${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    return `in ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  }
  return `in ${Math.round(hours / 24)} days`;
}

function percentText(percent: number): string {
  return `${percent < 10 && percent % 1 !== 0 ? percent.toFixed(1) : Math.round(percent)}%`;
}

function windowLine(w: UsageWindow, now: number): string {
  const reset = w.resetsAt !== undefined ? ` · resets ${utc(w.resetsAt)} (${relative(w.resetsAt, now)})` : '';
  return `**${escapeMarkdown(w.label)}**  \n\`${usageBar(w.percent)}\` ${percentText(w.percent)} used${reset}`;
}

/** A fence longer than any backtick run in `text`, so raw JSON cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}json\n${text}\n${fence}`;
}

function providerStatus(p: AccountUsage): string | undefined {
  if (p.error) {
    return `⚠ Could not read usage: ${escapeMarkdown(p.error)}`;
  }
  if (!p.supported) {
    return "This provider's CLI does not report usage.";
  }
  return p.usage === null || p.usage === undefined ? 'No usage reported.' : undefined;
}

/** The whole view: a section per provider. */
export function accountUsageMarkdown(connection: string, providers: readonly AccountUsage[], now: number): string {
  const parts = [`# Account usage — ${escapeMarkdown(connection)}`, `Read from AgencyProxy at ${utc(now)}. Run *Show AgencyProxy Account Usage* again to refresh.`];
  if (providers.length === 0) {
    parts.push('The daemon reports no providers.');
  }
  for (const p of providers) {
    parts.push(`## ${escapeMarkdown(p.provider)}`);
    const status = providerStatus(p);
    if (status) {
      parts.push(status);
      continue;
    }
    const windows = usageWindows(p.usage, now);
    parts.push(...windows.map((w) => windowLine(w, now)));
    if (windows.length === 0) {
      parts.push('The usage has a shape this version does not know; as the daemon reports it:');
    }
    parts.push(windows.length === 0 ? fenced(JSON.stringify(p.usage, null, 2)) : `As reported:\n\n${fenced(JSON.stringify(p.usage, null, 2))}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** One line per provider (its fullest window), for a tooltip. */
export function accountUsageSummary(providers: readonly AccountUsage[], now: number): string {
  const lines = providers.map((p) => {
    const status = providerStatus(p);
    const windows = status ? [] : usageWindows(p.usage, now);
    const detail = status ?? (windows.length === 0 ? 'usage reported (open the view)' : windows.map((w) => `${escapeMarkdown(w.label)} \`${usageBar(w.percent, 10)}\` ${percentText(w.percent)}${w.resetsAt !== undefined ? `, resets ${relative(w.resetsAt, now)}` : ''}`).join(' · '));
    return `**${escapeMarkdown(p.provider)}**: ${detail}`;
  });
  return lines.length > 0 ? lines.join('  \n') : 'No providers reported.';
}

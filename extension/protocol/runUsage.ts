/**
 * How much of its context window a run uses, and what the session has cost so far (ACP `usage_update`): kept on the
 * run and replaced by each update, never a transcript row (Claude Code sends several per turn). One wording for the
 * run header (sent to the webview as text: ui/runSummary.ts), the board row and the tree's tooltip, so every place
 * says the same. Pure.
 */
import * as z from 'zod/mini';

export const runUsageSchema = z.object({
  /** Tokens in the context now. */
  used: z.number(),
  /** The context window's size in tokens. */
  size: z.number(),
  /** The session's cost so far (cumulative), as the agent last reported it. */
  cost: z.optional(z.object({ amount: z.number(), currency: z.string() })),
});
export type RunUsage = z.infer<typeof runUsageSchema>;

/** `12.3k`, `200k`, `950`. */
export function tokenCount(n: number): string {
  if (!Number.isFinite(n) || n < 0) {
    return '?';
  }
  if (n >= 1_000_000) {
    return `${Math.round(n / 100_000) / 10}M`;
  }
  return n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(Math.round(n));
}

/** The share of the window in use, as a whole percent (none when the size is unknown). */
export function usagePercent(usage: RunUsage): number | undefined {
  return usage.size > 0 && Number.isFinite(usage.used) ? Math.round((100 * usage.used) / usage.size) : undefined;
}

/** `$0.42`, `0.42 EUR`, `12 credits`. */
export function costText(cost: NonNullable<RunUsage['cost']>): string {
  if (!Number.isFinite(cost.amount)) {
    return `? ${cost.currency}`;
  }
  const amount = cost.amount >= 100 ? cost.amount.toFixed(0) : cost.amount.toFixed(2);
  return cost.currency.toUpperCase() === 'USD' ? `$${amount}` : `${amount} ${cost.currency}`;
}

/** Short, for a board row or the header: `12.3k/200k (6%) · $0.42`. */
export function usageShortText(usage: RunUsage): string {
  const percent = usagePercent(usage);
  const tokens = `${tokenCount(usage.used)}/${tokenCount(usage.size)}${percent !== undefined ? ` (${percent}%)` : ''}`;
  return usage.cost ? `${tokens} · ${costText(usage.cost)}` : tokens;
}

/** In words, for a tooltip or a screen reader: `Context: 12.3k of 200k tokens (6%) · cost so far $0.42`. */
export function usageLongText(usage: RunUsage): string {
  const percent = usagePercent(usage);
  const tokens = `Context: ${tokenCount(usage.used)} of ${tokenCount(usage.size)} tokens${percent !== undefined ? ` (${percent}%)` : ''}`;
  return usage.cost ? `${tokens} · cost so far ${costText(usage.cost)}` : tokens;
}

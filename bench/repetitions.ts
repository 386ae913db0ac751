/**
 * Folds the repetitions of one benchmark group into one row per figure: the repetition whose figure (its ratio when
 * it has one, else its value) is the median, so the row is one real measurement and its `met` holds for it, plus
 * the spread of that figure over all repetitions. With an odd number of repetitions the median is a sample.
 */
import type { BenchRow } from './benchKit';
import { median } from './benchKit';

export interface Spread {
  readonly min: number;
  readonly max: number;
  readonly n: number;
  /** Which figure the spread is of. */
  readonly of: 'ratio' | 'value';
}

export type AggregatedRow = BenchRow & { readonly spread?: Spread };

function figure(row: BenchRow): number {
  return row.ratio ?? row.value;
}

export function aggregateRepetitions(runs: readonly (readonly BenchRow[])[]): AggregatedRow[] {
  const ids: string[] = [];
  const byId = new Map<string, BenchRow[]>();
  for (const rows of runs) {
    for (const row of rows) {
      if (!byId.has(row.id)) {
        ids.push(row.id);
        byId.set(row.id, []);
      }
      byId.get(row.id)!.push(row);
    }
  }
  return ids.map((id) => {
    const rows = byId.get(id)!.filter((r) => r.value !== null && !Number.isNaN(figure(r)));
    if (rows.length === 0) {
      return byId.get(id)![0]!;
    }
    const figures = rows.map(figure);
    const mid = median(figures);
    // The sample nearest the median (the median itself when n is odd).
    const chosen = rows.reduce((best, r) => (Math.abs(figure(r) - mid) < Math.abs(figure(best) - mid) ? r : best));
    if (rows.length === 1) {
      return chosen;
    }
    return { ...chosen, spread: { min: Math.min(...figures), max: Math.max(...figures), n: rows.length, of: chosen.ratio !== undefined ? 'ratio' : 'value' } };
  });
}

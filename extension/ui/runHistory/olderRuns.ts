/** *Show Older Runs* (the board's row, a connection's "N older runs…" row, the palette): stays in the core. */
import type { CommandContext } from '../commands/commandContext';
import { errorText } from '../commands/commandContext';

/**
 * Brings the next page of older finished runs into the model — stored, but older than the page a connect loads
 * (drivers/kit/olderRuns.ts) — for one connection (its "N older runs…" row in the Connections tree) or every one (the
 * board's row, *Show Older Runs* in the palette); resolves with how many came.
 */
export async function showOlderRuns(ctx: Pick<CommandContext, 'store' | 'connections' | 'log'>, connectionId?: string): Promise<number> {
  let shown = 0;
  for (const connection of ctx.store.state.connections.values()) {
    if ((connectionId === undefined || connection.id === connectionId) && (connection.olderRuns ?? 0) > 0) {
      try {
        shown += (await ctx.connections.driver(connection.id)?.history?.showOlder()) ?? 0;
      } catch (error) {
        ctx.log.error(`Show older runs of ${connection.name}: ${errorText(error)}`);
      }
    }
  }
  return shown;
}

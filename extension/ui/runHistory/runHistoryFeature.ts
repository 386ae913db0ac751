/**
 * Run history (issue #25 §2): *Remove Run* (board row, palette), *Clear Finished Runs…* (palette, the board's title
 * menu) and *Search Run History…* (palette, the board's title menu): a pick over the archived runs' summaries —
 * finished runs past the `agentSwitchboard.history.*` limits, kept on disk but not on the board — that opens one.
 *
 * Removal deletes what this editor stored of the run: its index entry and every file of it — journal, checkpoint, lease,
 * a driver's per-run cache such as A3S's change set (the driver's `history.remove`) — and, through `RemovedRuns`
 * (which the driver tells, as it does for a run the history size limit removes at connect), what the editor keeps of
 * it (its composer draft, the remembered selection, the board's acknowledgement); its tab closes. The run does not come
 * back: not from a daemon that still lists it, not after a reload, not from another window of this machine, which
 * drops it too (drivers/kit/runRemovals.ts). A run that is not
 * finished is refused, and the message says why: its daemon may still be writing it, and this editor would record it
 * again; so is a run another editor window records, and the message names that window.
 * The confirmation goes through `UserPrompts` (removalPrompt.ts), so a test host can answer it.
 *
 * A bundle of its own, loaded at the first use of one of its commands (runHistory.ts registers them).
 */
import * as vscode from 'vscode';
import type { DriverHistory, RunRemoval } from '../../drivers/driver';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/runKeys';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { RemovedRuns } from '../removedRuns';
import type { CommandContext } from '../commands/commandContext';
import { errorText, runKeyOfTarget } from '../commands/commandContext';
import { heldElsewhereText, NOT_FINISHED_TEXT } from '../commands/historyTexts';
import { pickRun } from '../commands/pickers';
import type { ConfirmRemoval } from '../commands/removalPrompt';
import type { CommandHandler } from '../lazyCommands';

interface ArchivedRun {
  readonly connectionId: string;
  readonly connectionName: string;
  readonly stored: StoredRun;
}

/** The handlers of RUN_HISTORY_COMMANDS (runHistory.ts registers them). */
export function runHistoryHandlers(ctx: CommandContext, removedRuns: Pick<RemovedRuns, 'removed'>, confirmRemoval: ConfirmRemoval): ReadonlyMap<string, CommandHandler> {
  const historyOf = (connectionId: string): DriverHistory | undefined => ctx.connections.driver(connectionId)?.history;
  const finished = (run: RunInfo): boolean => isTerminalRunState(run.state) && historyOf(run.connectionId) !== undefined;

  const removeOne = async (connectionId: string, runId: string): Promise<RunRemoval> => {
    const history = historyOf(connectionId);
    if (!history) {
      removedRuns.removed(runKeyOf(connectionId, runId)); // no driver to delete it, or to say so
      return 'removed';
    }
    return history.remove(runId);
  };

  const archivedRuns = async (): Promise<ArchivedRun[]> => {
    const out: ArchivedRun[] = [];
    for (const connection of ctx.store.state.connections.values()) {
      for (const stored of (await historyOf(connection.id)?.archived()) ?? []) {
        out.push({ connectionId: connection.id, connectionName: connection.name, stored });
      }
    }
    return out;
  };

  return new Map<string, CommandHandler>([
    ['agentSwitchboard.removeRun', async (target?: unknown): Promise<boolean> => {
      const key = runKeyOfTarget(target);
      const run = (key ? ctx.store.state.runs.get(key) : undefined) ?? (await pickRun(ctx.store.state, 'Remove which finished run?', finished));
      if (!run) {
        return false;
      }
      if (!isTerminalRunState(run.state)) {
        void vscode.window.showWarningMessage(`“${run.title}” ${NOT_FINISHED_TEXT}`);
        return false;
      }
      const confirmed = await confirmRemoval({
        message: `Remove the run “${run.title}”?`,
        detail: 'Its transcript, checkpoint, cached change set and draft are deleted from this editor (every window of it), and it is not shown again, even while its daemon still lists it. What the daemon keeps of it is not touched.',
      });
      if (!confirmed) {
        return false;
      }
      try {
        const outcome = await removeOne(run.connectionId, run.runId);
        if (outcome === 'not finished') {
          void vscode.window.showWarningMessage(`“${run.title}” ${NOT_FINISHED_TEXT}`);
          return false;
        }
        if (outcome !== 'removed') {
          void vscode.window.showWarningMessage(heldElsewhereText(run.title, outcome.heldBy));
          return false;
        }
        return true;
      } catch (error) {
        ctx.log.error(`Remove run ${run.runId}: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`The run was not removed: ${errorText(error)}`);
        return false;
      }
    }],
    ['agentSwitchboard.clearFinishedRuns', async (): Promise<number> => {
      const shown = [...ctx.store.state.runs.values()].filter(finished);
      const archived = await archivedRuns();
      const total = shown.length + archived.length;
      if (total === 0) {
        void vscode.window.showInformationMessage('There is no finished run to clear.');
        return 0;
      }
      const detail = `${archived.length > 0 ? `${archived.length} of them archived. ` : ''}Their transcripts, checkpoints, cached change sets and drafts are deleted from this editor (every window of it), and they are not shown again, even while their daemons still list them; runs still going are kept. What the daemons keep is not touched.`;
      if (!(await confirmRemoval({ message: `Remove ${total} finished run${total === 1 ? '' : 's'}?`, detail }))) {
        return 0;
      }
      let removed = 0;
      const kept: string[] = [];
      for (const target of [...shown.map((run) => ({ connectionId: run.connectionId, runId: run.runId })), ...archived.map((a) => ({ connectionId: a.connectionId, runId: a.stored.runId }))]) {
        try {
          const outcome = await removeOne(target.connectionId, target.runId);
          removed += outcome === 'removed' ? 1 : 0;
          if (typeof outcome === 'object') {
            kept.push(heldElsewhereText(ctx.store.state.runs.get(runKeyOf(target.connectionId, target.runId))?.title ?? target.runId, outcome.heldBy));
          }
        } catch (error) {
          ctx.log.error(`Clear finished runs: ${target.runId}: ${errorText(error)}`);
        }
      }
      void vscode.window.setStatusBarMessage(`Removed ${removed} finished run${removed === 1 ? '' : 's'}`, 5000);
      if (kept.length > 0) {
        void vscode.window.showWarningMessage(kept.length === 1 ? kept[0]! : `${kept.length} runs are kept: other editor windows are recording them. ${kept[0]!}`);
      }
      return removed;
    }],
    ['agentSwitchboard.searchRunHistory', async (): Promise<string | undefined> => {
      const archived = await archivedRuns();
      if (archived.length === 0) {
        void vscode.window.showInformationMessage('No run is archived: every stored run is on the board.');
        return undefined;
      }
      const items = archived.map((a) => {
        const summary = a.stored.summary as { lastLine?: unknown } | undefined;
        const lastLine = typeof summary?.lastLine === 'string' ? summary.lastLine : undefined;
        return {
          label: a.stored.title,
          description: `${a.connectionName} · ${new Date(a.stored.createdAt).toLocaleString()} · ${a.stored.state}`,
          ...(lastLine !== undefined ? { detail: lastLine } : {}),
          archived: a,
        };
      });
      const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Open which archived run? (title, daemon, date, last line)', matchOnDescription: true, matchOnDetail: true });
      if (!picked) {
        return undefined;
      }
      const { connectionId, stored } = picked.archived;
      if (!(await historyOf(connectionId)?.unarchive(stored.runId))) {
        void vscode.window.showErrorMessage(`“${stored.title}” could not be opened: its summary is no longer readable.`);
        return undefined;
      }
      const runKey = runKeyOf(connectionId, stored.runId);
      await ctx.runs.show(runKey);
      return runKey;
    }],
  ]);
}

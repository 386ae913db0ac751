/**
 * The palette's commands for run worktrees (issue #26): *Merge Run into Workspace* (clean files written, conflicts
 * offered per file and per hunk: mergeConflicts.ts), *Resolve Merge Conflicts*, *Undo Merge*, *Remove Run Worktree*,
 * *Clean Up Orphaned Worktrees*; and the offers the editor makes by itself — merge an isolated run when it is done
 * (once per run and window), clean up the worktrees a crash left behind (once per window).
 */
import * as vscode from 'vscode';
import type { RunWorktree } from '../../changeSets/worktreeRecords';
import { mergeWorktree, undoMerge } from '../../changeSets/worktreeMerge';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/runKeys';
import type { RunStore } from '../../model/runStore';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { errorText, runKeyOfTarget } from '../commands/commandContext';
import { pickRun } from '../commands/pickers';
import { resolveConflicts } from './mergeConflicts';
import type { RunWorktreeService } from './runWorktreeService';

/** What *Merge Run into Workspace* did (returned to callers such as tests; the person is told in a notification). */
export interface MergeSummary {
  readonly written: readonly string[];
  readonly conflicts: readonly string[];
  readonly failures: readonly string[];
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The commands' handlers by command id (registered at activation by worktreeShim.ts, which loads this bundle on first use). */
export function worktreeCommandHandlers(service: RunWorktreeService, store: RunStore, log: vscode.LogOutputChannel): ReadonlyMap<string, (...args: unknown[]) => unknown> {
  const worktreeOf = (run: RunInfo): RunWorktree | undefined => service.forRun(run.connectionId, run.runId);
  /** The run given (a run key or tree node), else a pick among the runs `filter` keeps. */
  const runFor = async (target: unknown, placeHolder: string, filter: (w: RunWorktree) => boolean): Promise<{ run: RunInfo; worktree: RunWorktree } | undefined> => {
    await service.worktrees?.load();
    const key = runKeyOfTarget(target);
    const run = key ? store.state.runs.get(key) : await pickRun(store.state, placeHolder, (r) => { const w = worktreeOf(r); return w !== undefined && filter(w); });
    const worktree = run && worktreeOf(run);
    if (run && !worktree) {
      void vscode.window.showInformationMessage(`“${run.title}” works in the workspace, not in a worktree of its own.`);
    }
    return run && worktree && filter(worktree) ? { run, worktree } : undefined;
  };

  const merge = async (target?: unknown): Promise<MergeSummary | undefined> => {
    const found = await runFor(target, 'Merge which run’s worktree into the workspace?', () => true);
    if (!found) {
      return undefined;
    }
    const { run, worktree } = found;
    try {
      const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Merging “${run.title}” into the workspace…` }, () => mergeWorktree(worktree));
      if (outcome.record.paths.length > 0) {
        await service.worktrees?.setMerge(worktree.id, outcome.record);
      }
      service.conflicts.set(worktree.id, outcome.conflicts);
      const written = outcome.record.paths.map((p) => p.path);
      const parts = [
        written.length > 0 ? `${plural(written.length, 'file')} merged` : 'nothing new to merge',
        ...(outcome.conflicts.length > 0 ? [`${plural(outcome.conflicts.length, 'file')} changed on both sides: nothing written there until you decide`] : []),
        ...(outcome.failures.length > 0 ? [`${plural(outcome.failures.length, 'file')} not written (${outcome.failures.map((f) => `${f.path}: ${f.reason}`).join('; ')})`] : []),
      ];
      log.info(`Merged the worktree of ${run.runId}: ${written.length} written, ${outcome.conflicts.length} conflicts, ${outcome.failures.length} failures.`);
      const buttons = [...(outcome.conflicts.length > 0 ? ['Resolve Conflicts'] : []), ...(written.length > 0 ? ['Undo Merge'] : [])];
      void vscode.window.showInformationMessage(`“${run.title}”: ${parts.join('; ')}.`, ...buttons).then(async (answer) => {
        if (answer === 'Resolve Conflicts') {
          await resolveConflicts(service, worktree);
        } else if (answer === 'Undo Merge') {
          await vscode.commands.executeCommand('agentSwitchboard.undoRunMerge', run.key);
        }
      });
      return { written, conflicts: outcome.conflicts.map((c) => c.path), failures: outcome.failures.map((f) => f.path) };
    } catch (error) {
      void vscode.window.showErrorMessage(`The merge did not happen: ${errorText(error)}`);
      return undefined;
    }
  };

  const undo = async (target?: unknown): Promise<readonly string[] | undefined> => {
    const found = await runFor(target, 'Undo the merge of which run?', (w) => w.merge !== undefined);
    const record = found?.worktree.merge;
    if (!found || !record) {
      return undefined;
    }
    const outcome = await undoMerge(found.worktree, record);
    await service.worktrees?.setMerge(found.worktree.id, undefined);
    service.conflicts.delete(found.worktree.id);
    const kept = outcome.kept.length > 0 ? ` ${plural(outcome.kept.length, 'file')} changed since the merge and kept as they are: ${outcome.kept.join(', ')}.` : '';
    const failed = outcome.failures.length > 0 ? ` Not restored: ${outcome.failures.map((f) => `${f.path} (${f.reason})`).join('; ')}.` : '';
    void vscode.window.showInformationMessage(`Merge of “${found.run.title}” undone: ${plural(outcome.restored.length, 'file')} restored.${kept}${failed}`);
    return outcome.restored;
  };

  const removeWorktree = async (target?: unknown, confirmed?: unknown): Promise<boolean> => {
    const found = await runFor(target, 'Remove the worktree of which run?', () => true);
    if (!found || !service.worktrees) {
      return false;
    }
    if (!isTerminalRunState(found.run.state) && found.run.state !== 'idle') {
      void vscode.window.showWarningMessage(`“${found.run.title}” is still working in its worktree: stop it first.`);
      return false;
    }
    const remove = 'Remove Worktree';
    if (confirmed !== true && (await vscode.window.showWarningMessage(`Remove the worktree of “${found.run.title}”?`, { modal: true, detail: `${found.worktree.path}\nWhat the run changed there and you did not merge is lost.` }, remove)) !== remove) {
      return false;
    }
    await service.worktrees.remove(found.worktree.id);
    service.conflicts.delete(found.worktree.id);
    service.changed();
    return true;
  };

  return new Map<string, (...args: unknown[]) => unknown>([
    ['agentSwitchboard.mergeRunWorktree', merge],
    ['agentSwitchboard.resolveRunMergeConflicts', async (target?: unknown) => {
      const found = await runFor(target, 'Resolve the merge conflicts of which run?', (w) => (service.conflicts.get(w.id)?.length ?? 0) > 0);
      if (found) {
        await resolveConflicts(service, found.worktree);
      }
    }],
    ['agentSwitchboard.undoRunMerge', undo],
    ['agentSwitchboard.removeRunWorktree', removeWorktree],
    ['agentSwitchboard.cleanUpRunWorktrees', () => cleanUpOrphans(service, log, true)],
  ]);
}

/** Finds the worktrees whose run is gone and offers them for removal (`asked`: from the palette, so "none" is said too). */
export async function cleanUpOrphans(service: RunWorktreeService, log: vscode.LogOutputChannel, asked: boolean): Promise<number> {
  const orphans = await service.orphans();
  if (orphans.length === 0) {
    if (asked) {
      void vscode.window.showInformationMessage('No orphaned run worktrees: every worktree belongs to a run this window knows (or one whose connection is not connected yet).');
    }
    return 0;
  }
  const items = orphans.map((o) => ({ label: o.record?.run ? `${o.record.run.runId}` : o.id, description: o.record?.repo ?? '', detail: `${service.worktrees?.pathOf(o.id) ?? o.id}: ${o.reason}`, picked: true, orphan: o }));
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Clean Up Orphaned Worktrees', placeHolder: 'Remove these worktrees (what is in them is lost)?' });
  for (const item of picked ?? []) {
    await service.worktrees?.remove(item.orphan.id).catch((error: unknown) => log.warn(`Removing worktree ${item.orphan.id}: ${errorText(error)}`));
  }
  return picked?.length ?? 0;
}

/**
 * The offers the editor makes by itself: a merge once an isolated run waits or ends (once per run and window), and
 * the orphans a crash left once the connections their runs belong to are read (once per window).
 */
export function watchWorktreeOffers(service: RunWorktreeService, store: RunStore, log: vscode.LogOutputChannel): vscode.Disposable {
  const offered = new Set<string>();
  let orphansChecked = false;
  const subscription = store.onDidChange((state) => {
    for (const worktree of service.worktrees?.all() ?? []) {
      const key = worktree.run && runKeyOf(worktree.run.connectionId, worktree.run.runId);
      const run = key && state.runs.get(key);
      if (!run || offered.has(run.key) || worktree.merge || run.unloaded !== undefined) {
        continue;
      }
      if (isTerminalRunState(run.state) || run.state === 'idle') {
        offered.add(run.key);
        void vscode.window.showInformationMessage(`“${run.title}” worked in its own worktree: merge its changes into the workspace?`, 'Merge into Workspace', 'Show Change Set').then(async (answer) => {
          if (answer === 'Merge into Workspace') {
            await vscode.commands.executeCommand('agentSwitchboard.mergeRunWorktree', run.key);
          } else if (answer === 'Show Change Set') {
            await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', run.key);
          }
        });
      }
    }
    const settled = [...state.connections.values()].every((c) => c.state.kind !== 'connecting' && c.state.kind !== 'reconnecting');
    if (!orphansChecked && settled && [...state.connections.values()].some((c) => c.state.kind === 'connected')) {
      orphansChecked = true;
      void service.orphans().then(async (orphans) => {
        if (orphans.length === 0) {
          return;
        }
        const answer = await vscode.window.showWarningMessage(`${plural(orphans.length, 'run worktree')} left from runs that are gone (the editor stopped, or the runs were removed).`, 'Clean Up…', 'Not Now');
        if (answer === 'Clean Up…') {
          await cleanUpOrphans(service, log, true);
        }
      }, (error: unknown) => log.warn(`Looking for orphaned worktrees: ${errorText(error)}`));
    }
  });
  return { dispose: () => subscription.dispose() };
}

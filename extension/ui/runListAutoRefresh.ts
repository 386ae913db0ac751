/**
 * Keeps the AgencyProxy run lists of the Connections view and the run board current: the daemon pushes nothing when
 * another client (the AgencyZero GUI, a second editor window) starts a run, so `list_runs` is re-read when one of
 * the views becomes visible, when the window regains focus, and every 15 s while one is visible in a focused
 * window — never while both are hidden or the window is in the background. The same cadence checks an A3S harness's
 * readiness (HTTP pushes nothing either, and an idle A3S connection arms no timer of its own): every connection
 * with the `runs.refresh` capability is refreshed. The policy lives in base/refreshCadence.ts; this wires it to
 * VS Code.
 */
import * as vscode from 'vscode';
import { RefreshCadence } from '../base/refreshCadence';
import type { ConnectionManager } from '../drivers/connectionManager';
import type { RunStore } from '../model/runStore';
import { Disposable } from './disposable';

/** Slow enough to cost nothing (one small request per daemon), fast enough that a new run shows up while you look. */
export const RUN_LIST_REFRESH_MS = 15_000;
/** Showing the view and focusing the window usually come together: one refresh for both. */
const MIN_GAP_MS = 2_000;

export class RunListAutoRefresh extends Disposable {
  private readonly cadence: RefreshCadence;

  /** `views`: the Connections view and the run board; the lists are re-read while either is visible. */
  constructor(
    views: readonly vscode.TreeView<unknown>[],
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.cadence = new RefreshCadence({ intervalMs: RUN_LIST_REFRESH_MS, minGapMs: MIN_GAP_MS, refresh: () => this.refreshRunLists() });
    this._register({ dispose: () => this.cadence.dispose() });
    this.cadence.setFocused(vscode.window.state.focused);
    const update = (): void => this.cadence.setVisible(views.some((v) => v.visible));
    update();
    for (const view of views) {
      this._register(view.onDidChangeVisibility(update));
    }
    this._register(vscode.window.onDidChangeWindowState((e) => this.cadence.setFocused(e.focused)));
  }

  private async refreshRunLists(): Promise<void> {
    const refreshes = [...this.store.state.connections.values()]
      .filter((c) => c.capabilities.includes('runs.refresh') && c.state.kind === 'connected')
      .map(async (c) => {
        try {
          await this.connections.driver(c.id)?.refresh?.();
        } catch (error) {
          this.log.warn(`[${c.name}] Refreshing the run list: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
    await Promise.all(refreshes);
  }
}

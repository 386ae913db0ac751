/**
 * Status bar items of the daemon actions that declare `statusBar` (AgencyProxy's account usage): one per connection
 * the action applies to, whose tooltip is the action's latest `summary` and whose click performs the action (and so
 * shows the full view). The summary is read again when the connection connects, when one of its runs ends, and
 * each time the action runs — events, never a timer, so an idle editor sends the daemon nothing.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RegisteredAction } from '../../drivers/daemonRegistry';
import { registeredActions } from '../../drivers/daemonRegistry';
import type { ModelState, RunInfo } from '../../model/modelTypes';
import { mapChanges } from '../../model/persistentMap';
import type { RunStore } from '../../model/runStore';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { errorText } from '../commands/commandContext';
import { Disposable } from '../disposable';
import { applicableActions } from './actionTargets';

interface Shown {
  readonly item: vscode.StatusBarItem;
  summary?: string;
  readAt?: number;
  failure?: string;
}

export class ActionStatusBars extends Disposable {
  private readonly entries: readonly RegisteredAction[] = registeredActions().filter((e) => e.action.statusBar && e.action.scope === 'connection');
  /** Keyed `command|connectionId`. */
  private readonly shown = new Map<string, Shown>();
  private connected = new Set<string>();
  /** The runs as the last sync saw them: a sync looks only at the runs changed since (not every stored run). */
  private runs: ModelState['runs'] | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(store.onDidChange(() => this.sync(store.state)));
    this._register({ dispose: () => this.shown.forEach((s) => s.item.dispose()) });
    this.sync(store.state);
  }

  /** The action ran (from the palette, the tree or this item): its summary is the freshest there is. */
  noteResult(command: string, connectionId: string, summary: string | undefined): void {
    const shown = this.shown.get(`${command}|${connectionId}`);
    if (shown && summary !== undefined) {
      Object.assign(shown, { summary, readAt: Date.now(), failure: undefined });
      this.render(shown, command, connectionId);
    }
  }

  private sync(state: ModelState): void {
    const nowConnected = new Set([...state.connections.values()].filter((c) => c.state.kind === 'connected').map((c) => c.id));
    const refresh = new Set<string>();
    for (const id of nowConnected) {
      if (!this.connected.has(id)) {
        refresh.add(id);
      }
    }
    // A run of a connected connection ended: only the runs changed since the last sync are looked at (none while no
    // connection is connected: a connect's stored runs come back before it is).
    const changes = this.runs && this.connected.size > 0 ? mapChanges(state.runs, this.runs) : [];
    for (const { value: run, previous } of changes) {
      if (run && endedNow(run, previous) && this.connected.has(run.connectionId)) {
        refresh.add(run.connectionId);
      }
    }
    this.connected = nowConnected;
    this.runs = state.runs;

    const wanted = new Set<string>();
    for (const connectionId of nowConnected) {
      const applicable = applicableActions(state, this.connections, connectionId);
      for (const entry of this.entries) {
        if (!applicable.includes(entry.action)) {
          continue;
        }
        const key = `${entry.action.command}|${connectionId}`;
        wanted.add(key);
        if (!this.shown.has(key)) {
          const item = vscode.window.createStatusBarItem(`${entry.action.command}.${connectionId}`, vscode.StatusBarAlignment.Left, 90);
          item.name = `${entry.action.statusBar!.name} (${state.connections.get(connectionId)?.name ?? connectionId})`;
          this.shown.set(key, { item });
          refresh.add(connectionId);
        }
        const shown = this.shown.get(key)!;
        this.render(shown, entry.action.command, connectionId);
        shown.item.show();
        if (refresh.has(connectionId)) {
          void this.read(shown, entry, connectionId);
        }
      }
    }
    for (const [key, shown] of this.shown) {
      if (!wanted.has(key)) {
        shown.item.dispose();
        this.shown.delete(key);
      }
    }
  }

  private async read(shown: Shown, entry: RegisteredAction, connectionId: string): Promise<void> {
    const driver = this.connections.driver(connectionId);
    if (!driver?.performAction) {
      return;
    }
    try {
      const result = await driver.performAction(entry.action.command, { connectionId }, {});
      if (result.kind === 'document' && result.summary !== undefined) {
        Object.assign(shown, { summary: result.summary, readAt: Date.now(), failure: undefined });
      }
    } catch (error) {
      shown.failure = errorText(error);
      this.log.warn(`${entry.action.title}: ${shown.failure}`);
    }
    if (this.shown.get(`${entry.action.command}|${connectionId}`) === shown) {
      this.render(shown, entry.action.command, connectionId);
    }
  }

  private render(shown: Shown, command: string, connectionId: string): void {
    const entry = this.entries.find((e) => e.action.command === command)!;
    const connectionName = this.store.state.connections.get(connectionId)?.name ?? connectionId;
    const bar = entry.action.statusBar!;
    shown.item.text = `$(${entry.action.icon ?? 'info'}) ${bar.text}`;
    shown.item.command = { command, title: entry.action.title, arguments: [connectionId] };
    // The summary is the driver's markdown, its daemon-supplied parts escaped; nothing in it may run a command.
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.appendMarkdown(`**${bar.name}** — `);
    tooltip.appendText(connectionName);
    tooltip.appendMarkdown('\n\n');
    if (shown.summary !== undefined) {
      tooltip.appendMarkdown(shown.summary);
    } else {
      tooltip.appendText(shown.failure ? `Could not read it: ${shown.failure}` : 'Reading…');
    }
    if (shown.readAt !== undefined) {
      tooltip.appendMarkdown('\n\n');
      tooltip.appendText(`Read at ${new Date(shown.readAt).toLocaleTimeString()}${shown.failure ? ` (the last read failed: ${shown.failure})` : ''}. Click for the full view (reads it again).`);
    }
    shown.item.tooltip = tooltip;
    shown.item.accessibilityInformation = { label: `${bar.name} of ${connectionName}` };
  }
}

/**
 * The run ended since it was last seen: it was going, or it is new and ended already (it started and ended between
 * two syncs). A run shown from its summary (a stored one) ended long ago.
 */
function endedNow(run: RunInfo, previous: RunInfo | undefined): boolean {
  return isTerminalRunState(run.state) && (previous ? !isTerminalRunState(previous.state) : run.unloaded === undefined);
}

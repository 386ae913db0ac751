/** Carries out what the transcript webview asks for, always through the same paths as the commands. */
import * as vscode from 'vscode';
import { linkOpenDecision } from '../base/linkPolicy';
import { approvalKeyOf, asRunKey } from '../model/runKeys';
import type { DaemonActionButton } from '../protocol/webviewMessages';
import { CHANGE_SET_PANEL_ID } from './changeSets/changeSetFiles';
import { runChangeSetPanelAction } from './changeSets/changeSetPanels';
import { readyChangeSetOf } from './commands/changeSetSelection';
import type { CommandContext } from './commands/commandContext';
import { applicableActions } from './daemonActions/actionTargets';
import type { ReviewNoteStore } from './reviewNotes/reviewNoteStore';
import type { ReviewToolActions } from './reviewTools/reviewTools';
import { runPanelsOf } from './runPanels';
import type { TranscriptActionMessage, TranscriptActions } from './transcript/transcriptSurface';

/**
 * Each message calls the service the matching palette command calls (RunControl, ChangeSetViews, DaemonActions,
 * ApprovalCenter, AgentTerminals, the review tools), with the run key parsed once here: the webview is untrusted, and a key it sends is
 * only ever looked up, never taken apart.
 */
export class TranscriptActionHandler implements TranscriptActions {
  constructor(
    private readonly ctx: CommandContext,
    private readonly tools: ReviewToolActions,
    private readonly notes: ReviewNoteStore,
  ) {}

  headerButtons(runKey: string): readonly DaemonActionButton[] {
    const run = this.ctx.store.state.runs.get(runKey);
    if (!run) {
      return [];
    }
    return applicableActions(this.ctx.store.state, this.ctx.connections, run.connectionId, run)
      .filter((a) => a.headerButton === true)
      .map((a) => ({ command: a.command, title: a.title, ...(a.icon ? { icon: a.icon } : {}) }));
  }

  async handle(message: TranscriptActionMessage): Promise<void> {
    const ctx = this.ctx;
    const runOf = (key: string) => {
      const run = ctx.store.state.runs.get(key);
      if (!run) {
        throw new Error('That run is no longer known.');
      }
      const driver = ctx.connections.driver(run.connectionId);
      return { run, driver };
    };
    // A key that is not a run key's shape names no run; one that is, is only looked up.
    const keyOf = (runKey: string) => {
      const key = asRunKey(runKey);
      if (!key) {
        throw new Error('That run is no longer known.');
      }
      return key;
    };
    const approvalKey = (runKey: string, approvalId: string) => approvalKeyOf(keyOf(runKey), approvalId);
    switch (message.type) {
      case 'send':
        await ctx.runs.send(runOf(message.runKey).run, message.text);
        return;
      case 'stop':
        await ctx.runs.cancel(runOf(message.runKey).run);
        return;
      case 'endRun':
        await ctx.runs.end(runOf(message.runKey).run);
        return;
      case 'decide':
        await ctx.approvals.decide(approvalKey(message.runKey, message.approvalId), message.decision, 'transcript');
        return;
      case 'decideRule': {
        const approval = ctx.approvals.find(approvalKey(message.runKey, message.approvalId));
        if (!approval) {
          throw new Error('That approval request is no longer known.');
        }
        await (message.scope === 'more' ? ctx.approvals.ruleFlow.pick(approval, 'transcript') : ctx.approvals.ruleFlow.save(approval, message.effect, message.scope, 'transcript'));
        return;
      }
      case 'showDiff': {
        const approval = ctx.approvals.find(approvalKey(message.runKey, message.approvalId));
        if (approval) {
          await ctx.diffs.show(approval);
        }
        return;
      }
      case 'showChangeSet':
        await ctx.changeSets.show(runOf(message.runKey).run);
        return;
      case 'daemonAction': {
        const { run } = runOf(message.runKey);
        // Only a button the header was given: the webview is not trusted to name arbitrary commands.
        if (!this.headerButtons(run.key).some((b) => b.command === message.command)) {
          throw new Error('That action does not apply to this run any more.');
        }
        await ctx.daemonActions.performOnRun(message.command, run.key);
        return;
      }
      case 'openChangeSetFile': {
        const cs = await readyChangeSetOf(ctx.store, runOf(message.runKey).run);
        if (cs) {
          await ctx.changeSets.openFileDiff(cs, message.fileIndex);
        }
        return;
      }
      case 'setReviewed':
        await ctx.reviews.setReviewed(runOf(message.runKey).run, message.fileIndex, message.keys, message.reviewed);
        return;
      case 'undoChange':
        await ctx.reviews.undoFromView(runOf(message.runKey).run, message.fileIndex, message.hunkIndex, message.keys);
        return;
      case 'openAllChanges':
        await ctx.changeSets.openAllOf(runOf(message.runKey).run.key);
        return;
      case 'openLink':
        await this.openLink(message.href);
        return;
      case 'revealTerminal':
        await ctx.terminals.reveal(keyOf(message.runKey), message.terminalId);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        void vscode.window.setStatusBarMessage('Copied to the clipboard', 2000);
        return;
      case 'queueEdit': {
        const { run, driver } = runOf(message.runKey);
        await requireQueue(driver?.editQueueEntry).call(driver, run.runId, message.queueId, message.revision, message.prompt);
        return;
      }
      case 'queueMove': {
        const { run, driver } = runOf(message.runKey);
        await requireQueue(driver?.moveQueueEntry).call(driver, run.runId, message.queueId, message.revision, message.beforeQueueId);
        return;
      }
      case 'queueRemove': {
        const { run, driver } = runOf(message.runKey);
        await requireQueue(driver?.removeQueueEntry).call(driver, run.runId, message.queueId, message.revision);
        return;
      }
      case 'queuePause': {
        const { run, driver } = runOf(message.runKey);
        await requireQueue(driver?.pauseQueue).call(driver, run.runId, message.paused);
        return;
      }
      case 'panelAction': {
        const { run, driver } = runOf(message.runKey);
        // The "changeSet" panel is derived by the UI for every daemon (runPanels.ts), not published by a driver: its
        // actions run the change-set commands here, whether or not the daemon is connected.
        const uiPanel = message.panelId === CHANGE_SET_PANEL_ID;
        if (!uiPanel && !driver?.panelAction) {
          throw new Error('This daemon is not connected.');
        }
        const entry = runPanelsOf(ctx.store.state, run.key).find((p) => p.id === message.panelId)?.entries.find((e) => e.id === message.entryId);
        const action = entry?.actions.find((a) => a.id === message.actionId);
        if (!entry || !action) {
          throw new Error('That item changed meanwhile; try again.');
        }
        if (action.confirm) {
          const ok = await vscode.window.showWarningMessage(`${action.label}: ${entry.label}?`, { modal: true, ...(action.hint ? { detail: action.hint } : {}) }, action.label);
          if (ok !== action.label) {
            return;
          }
        }
        if (uiPanel) {
          await runChangeSetPanelAction(ctx, run, message.entryId, message.actionId);
        } else {
          await driver!.panelAction!(run.runId, message.panelId, message.entryId, message.actionId);
        }
        return;
      }
      case 'noteAdd':
        await this.notes.add(runOf(message.runKey).run.key, message.anchor, message.text);
        return;
      case 'noteEdit':
        await this.notes.edit(runOf(message.runKey).run.key, message.noteId, message.text);
        return;
      case 'noteRemove':
        await this.notes.remove(runOf(message.runKey).run.key, message.noteId);
        return;
      case 'notesSend':
        await this.tools.sendNotes(runOf(message.runKey).run.key);
        return;
      case 'notesDiscard':
        await this.tools.discardNotes(runOf(message.runKey).run.key);
        return;
      case 'rewindFiles':
        await this.tools.rewind(runOf(message.runKey).run.key, message.checkpointId);
        return;
      case 'redoRewind':
        await this.tools.redo(runOf(message.runKey).run.key, message.checkpointId);
        return;
      case 'continueFromCheckpoint':
        await this.tools.continueFrom(runOf(message.runKey).run.key, message.checkpointId);
        return;
      default: {
        const _exhaustive: never = message;
        return _exhaustive;
      }
    }
  }

  /** Links in agent output open only after the user confirms, and never as command: or file: URIs. */
  private async openLink(href: string): Promise<void> {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (linkOpenDecision(uri.scheme).kind === 'refuse') {
      void vscode.window.showWarningMessage(`Agent Switchboard does not open ${uri.scheme}: links from agent output.`);
      return;
    }
    const choice = await vscode.window.showWarningMessage(
      `Open this link from agent output?\n\n${uri.toString(true)}`,
      { modal: true, detail: 'Agent output is untrusted. Check the address before opening it.' },
      'Open',
    );
    if (choice === 'Open') {
      await vscode.env.openExternal(uri);
    }
  }
}

function requireQueue<T extends (...args: never[]) => Promise<void>>(method: T | undefined): T {
  if (!method) {
    throw new Error('This daemon has no prompt queue, or it is not connected.');
  }
  return method;
}

/**
 * "Show diff" for approvals that edit files: VS Code's diff editor between the current file and the proposed
 * result (read-only virtual documents), or the multi-diff editor for several files. While the active editor is a
 * pending proposal, the context key `agentSwitchboard.activeEditorIsPendingApproval` puts Allow/Deny in the
 * editor title. Closing the diff decides nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { proposedFiles, REGION_ONLY_HEADER } from '../../model/editProposal';
import type { ApprovalInfo } from '../../model/modelTypes';
import { awaitsDecision } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { WorkspaceAccess } from '../../drivers/kit/workspaceAccess';
import { WorkspaceAccessError } from '../../drivers/kit/workspaceAccess';
import { visibleExcerpt, visibleText } from '../../protocol/visibleText';
import { Disposable } from '../disposable';
import { sanitizeNotificationText } from '../notificationText';
import { approvalKeyOfUri, ProposalContentProvider } from './proposalContentProvider';

export const PENDING_APPROVAL_CONTEXT = 'agentSwitchboard.activeEditorIsPendingApproval';

export class ApprovalDiffs extends Disposable {
  private readonly content = this._register(new ProposalContentProvider());

  constructor(
    private readonly store: RunStore,
    /** The editor's files as agents see them: where the current side of a diff is read. */
    private readonly files: WorkspaceAccess,
  ) {
    super();
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.updateContextKey()));
    this._register(vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContextKey()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.updateContextKey()));
    this._register(store.onDidChange(() => this.updateContextKey()));
  }

  /**
   * Whether *Show diff* is offered: the card's own field (`hasDiff` of the approval's item, which the reducer decides
   * by model/editProposal.ts's `offersDiff`), so the card, the notification, the palette and the board never disagree.
   */
  canShow(approval: ApprovalInfo): boolean {
    const item = this.store.transcript(approval.runKey)?.get(approval.itemId);
    return item?.kind === 'approval' && item.hasDiff;
  }

  /** Opens the diff (or multi-diff) of an approval's proposed edit. */
  async show(approval: ApprovalInfo): Promise<void> {
    const run = this.store.state.runs.get(approval.runKey);
    const root = run?.workspaceRoots?.[0] ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const resolve = (p: string): vscode.Uri => vscode.Uri.file(path.isAbsolute(p) || !root ? p : path.join(root, p));
    // What the left side may show: a daemon names the path, so it is read the way an agent's reads are
    // (WorkspaceAccess: an open document's buffer with its unsaved edits, else only a regular file inside the
    // workspace folders) — never /dev/zero, a FIFO or a file elsewhere on the machine, which is not opened either.
    const onDisk = new Set<string>();
    const files = await proposedFiles(approval.detail, async (p) => {
      const uri = resolve(p);
      try {
        const text = await this.files.readText(uri.fsPath);
        onDisk.add(uri.fsPath);
        return text;
      } catch (error) {
        // A missing file is a new one; anything else says why its current text is not shown.
        if (!(error instanceof WorkspaceAccessError && error.reason === 'notFound')) {
          const problem = error instanceof Error ? error.message : String(error);
          void vscode.window.showWarningMessage(sanitizeNotificationText(`${path.basename(p)}: ${problem} The diff compares the proposal with an empty file.`, 300));
        }
        return '';
      }
    });
    if (files.length === 0) {
      void vscode.window.showInformationMessage('This request does not edit files; see its details in the transcript.');
      return;
    }
    const triples: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
    files.forEach((file, i) => {
      const right = this.content.uriFor(approval.key, i, resolve(file.path).fsPath, 'proposed');
      this.content.set(right, file.proposed);
      let left = resolve(file.path);
      if (file.original === '' || file.regionOnly || !onDisk.has(resolve(file.path).fsPath)) {
        // New file: an empty read-only document instead of a missing file. Region only: the agent's region as it
        // says it was, not the file (which does not have it). A path that was not read is never opened either.
        left = this.content.uriFor(approval.key, i, resolve(file.path).fsPath, 'original');
        this.content.set(left, file.original);
      }
      triples.push([resolve(file.path), left, right]);
      if (file.problem) {
        void vscode.window.showWarningMessage(sanitizeNotificationText(`${path.basename(file.path)}: ${file.problem}`, 300));
      }
    });
    // The editor tab shows it: hidden characters visible, bounded without hiding the end.
    const title = `Proposed: ${visibleExcerpt(approval.title, 120)}`;
    if (triples.length === 1) {
      const [, left, right] = triples[0]!;
      const file = files[0]!;
      const region = file.regionOnly && !approval.title.includes(REGION_ONLY_HEADER) ? ` — ${REGION_ONLY_HEADER}` : '';
      await vscode.commands.executeCommand('vscode.diff', left, right, `${visibleText(path.basename(file.path))} (${title}${region})`, { preview: false });
    } else {
      await vscode.commands.executeCommand('vscode.changes', title, triples);
    }
    this.updateContextKey();
  }

  /** The approval shown in the active editor tab, if it is a proposal diff. */
  activeApprovalKey(): string | undefined {
    return this.tabApprovalKeys(vscode.window.tabGroups.activeTabGroup.activeTab?.input)[0];
  }

  /** The approval settled: its virtual documents say so, and the editor-title actions go away. */
  settled(approvalKey: string): void {
    // The proposal is decided: its diff tabs would only show stale content, so they close (nothing is decided by
    // closing them — the decision already happened).
    const stale = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((tab) => this.tabApprovalKeys(tab.input).includes(approvalKey));
    if (stale.length > 0) {
      void vscode.window.tabGroups.close(stale, true).then(undefined, () => undefined);
    }
    this.content.clearApproval(approvalKey);
    this.updateContextKey();
  }

  private tabApprovalKeys(input: unknown): string[] {
    const uris: vscode.Uri[] = [];
    if (input instanceof vscode.TabInputTextDiff) {
      uris.push(input.modified);
    } else if (input !== null && typeof input === 'object' && 'textDiffs' in input && Array.isArray(input.textDiffs)) {
      for (const d of input.textDiffs as { modified?: unknown }[]) {
        if (d.modified instanceof vscode.Uri) {
          uris.push(d.modified);
        }
      }
    }
    return uris.map((u) => approvalKeyOfUri(u)).filter((k): k is string => k !== undefined);
  }

  private updateContextKey(): void {
    const key = this.activeApprovalKey();
    const approval = key !== undefined ? this.store.state.approvals.get(key) : undefined;
    const pending = approval !== undefined && awaitsDecision(approval);
    void vscode.commands.executeCommand('setContext', PENDING_APPROVAL_CONTEXT, pending);
  }
}

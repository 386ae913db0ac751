/**
 * The questions asked before anything an agent produced reaches a protected path (protocol/protectedPaths.ts:
 * `.vscode`, `.git`, workspace files — places VS Code or git runs programs from). A write by an agent
 * (`fs/write_text_file`) opens VS Code's diff editor between the file as it is and the proposed text (read-only
 * virtual documents) and asks in a modal, every time; applying a change set names each protected file it would
 * write and asks whether to include them. No approval rule answers either question.
 *
 * Both questions are given at construction (ui/userPrompts.ts: the modals below, or in a host started for tests the
 * answers the test hooks give, since that workbench refuses modal dialogs). A failing question counts as Deny / Cancel
 * (never as consent).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProtectedPath } from '../protocol/protectedPaths';
import { Disposable } from './disposable';
import { sanitizeNotificationText } from './notificationText';

export const PROTECTED_WRITE_SCHEME = 'agent-switchboard-protected-write';
export const ALLOW_WRITE = 'Allow This Write';
export const DENY_WRITE = 'Deny';
export const APPLY_INCLUDING = 'Apply Including These';
export const APPLY_WITHOUT = 'Apply Without These';

/** What the write question shows: the path (relative to its folder), why it is protected, and the open diff. */
export interface ProtectedWriteQuestion {
  readonly path: string;
  readonly reason: string;
  /** The file does not exist yet. */
  readonly creates: boolean;
  /** The two sides of the diff editor opened behind the question. */
  readonly original: vscode.Uri;
  readonly proposed: vscode.Uri;
}

export type ConfirmProtectedWrite = (question: ProtectedWriteQuestion) => Promise<boolean>;
export type ProtectedApplyChoice = 'include' | 'exclude' | 'cancel';
export type ConfirmProtectedApply = (files: readonly ProtectedPath[]) => Promise<ProtectedApplyChoice>;

/** A write an agent asked for, on a protected path. */
export interface ProtectedWriteRequest {
  /** The file (absolute), as it will be written. */
  readonly file: string;
  readonly found: ProtectedPath;
  /** The current text; undefined when the file does not exist. */
  readonly current: string | undefined;
  readonly proposed: string;
}

/** The part of the prompts `EditorWorkspaceAccess` needs. */
export interface ProtectedWriteApprover {
  approveWrite(request: ProtectedWriteRequest): Promise<boolean>;
}

export const modalProtectedWrite: ConfirmProtectedWrite = async (question) => {
  const shown = sanitizeNotificationText(question.path, 200);
  const choice = await vscode.window.showWarningMessage(
    `The agent wants to ${question.creates ? 'create' : 'change'} ${shown}, a protected file.`,
    {
      modal: true,
      detail: [
        `Protected because ${question.reason}.`,
        'Allowing it can let the agent run programs on this machine. The diff editor shows the change.',
        'This is asked for every write to a protected path; no approval rule answers it.',
      ].join('\n'),
    },
    ALLOW_WRITE,
    DENY_WRITE,
  );
  return choice === ALLOW_WRITE;
};

export const modalProtectedApply: ConfirmProtectedApply = async (files) => {
  const list = files.slice(0, 20).map((f) => `• ${sanitizeNotificationText(f.path, 160)}`);
  const more = files.length > 20 ? [`… and ${files.length - 20} more`] : [];
  const reasons = [...new Set(files.map((f) => f.reason))].map((r) => `Protected because ${r}.`);
  const choice = await vscode.window.showWarningMessage(
    `The change set writes ${files.length === 1 ? 'a protected file' : `${files.length} protected files`}. Apply ${files.length === 1 ? 'it' : 'them'} too?`,
    { modal: true, detail: [...list, ...more, '', ...reasons, 'Applying them can let the agent run programs on this machine.'].join('\n') },
    APPLY_INCLUDING,
    APPLY_WITHOUT,
  );
  return choice === APPLY_INCLUDING ? 'include' : choice === APPLY_WITHOUT ? 'exclude' : 'cancel';
};

/** Read-only documents for the two sides of a protected write's diff, removed once it is answered. */
class WriteDiffContent extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROTECTED_WRITE_SCHEME, this));
  }

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
  }

  delete(uri: vscode.Uri): void {
    this.contents.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '(This write was already answered.)';
  }
}

export class ProtectedPathPrompts extends Disposable implements ProtectedWriteApprover {
  private readonly content = this._register(new WriteDiffContent());
  private next = 0;

  constructor(
    /** A failure counts as Deny. */
    private readonly confirmWrite: ConfirmProtectedWrite,
    /** A failure counts as Cancel. */
    private readonly confirmApply: ConfirmProtectedApply,
  ) {
    super();
  }

  /** Shows the diff of the write and asks; true only when the person allowed this write. */
  async approveWrite(request: ProtectedWriteRequest): Promise<boolean> {
    const id = String(++this.next);
    // The real file's path, so the editor picks its language; the query keeps each side of each question apart.
    const side = (which: 'original' | 'proposed'): vscode.Uri =>
      vscode.Uri.from({ scheme: PROTECTED_WRITE_SCHEME, path: vscode.Uri.file(request.file).path, query: new URLSearchParams({ write: id, side: which }).toString() });
    const original = side('original');
    const proposed = side('proposed');
    this.content.set(original, request.current ?? '');
    this.content.set(proposed, request.proposed);
    const shownPath = vscode.workspace.asRelativePath(request.found.path);
    try {
      const title = `${path.basename(request.file)}: the agent's write (protected${request.current === undefined ? ', new file' : ''})`;
      await vscode.commands.executeCommand('vscode.diff', original, proposed, title, { preview: false });
      return await this.confirmWrite({ path: shownPath, reason: request.found.reason, creates: request.current === undefined, original, proposed }).catch(() => false);
    } finally {
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString());
      await vscode.window.tabGroups.close(tabs, true).then(undefined, () => undefined);
      this.content.delete(original);
      this.content.delete(proposed);
    }
  }

  /** Asks whether a change set's protected files are applied with the rest; a failure counts as Cancel. */
  askApply(files: readonly ProtectedPath[]): Promise<ProtectedApplyChoice> {
    return this.confirmApply(files).catch((): ProtectedApplyChoice => 'cancel');
  }
}

/**
 * The editor's side of `WorkspaceAccess` (drivers/kit/workspaceAccess.ts): what an agent reads and writes through
 * its client (ACP `fs/read_text_file`, `fs/write_text_file`). Reads serve the open document's buffer, so the agent
 * sees what the user sees, unsaved edits included; writes go through a `WorkspaceEdit`, so the user can undo them like
 * their own, and are then saved. Both stay inside the workspace folders once `..` and symlinks are resolved
 * (workspacePath.ts). A read from disk takes only a regular file of at most 16 MiB, and never blocks on a FIFO
 * (workspaceFileRead.ts). A write to a protected path (`.vscode`, `.git`, a workspace file, an agent's own settings:
 * protocol/protectedPaths.ts), by the path as named or where it really leads, is shown as a diff and asked about
 * every time (protectedPathPrompts.ts); denied, the agent gets a `denied` error and nothing is written.
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WorkspaceAccess } from '../drivers/kit/workspaceAccess';
import { WorkspaceAccessError } from '../drivers/kit/workspaceAccess';
import type { ProtectedPath } from '../protocol/protectedPaths';
import { protectedPathOf } from '../protocol/protectedPaths';
import type { ProtectedWriteApprover } from './protectedPathPrompts';
import type { ResolvedPath } from './workspacePath';
import { MAX_AGENT_READ_BYTES, readRegularFile } from './workspaceFileRead';
import { lineWindow, realLocation, resolveInsideRoots } from './workspacePath';

const EDIT_METADATA: vscode.WorkspaceEditEntryMetadata = { label: 'Agent edit', needsConfirmation: false };

export class EditorWorkspaceAccess implements WorkspaceAccess {
  /** Writes run one at a time: each looks at the file (exists? open?) before it edits, and must not interleave. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly protectedWrites: ProtectedWriteApprover,
    /** The run worktree (issue #26) a run's working directory is in, if it is one: that run may use its files. */
    private readonly worktreeOf: (runFolder: string) => string | undefined = () => undefined,
  ) {}

  roots(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  /** The workspace folders, and the asking run's own worktree when its working directory is one. */
  private rootsFor(runFolder: string | undefined): readonly string[] {
    const worktree = runFolder !== undefined ? this.worktreeOf(runFolder) : undefined;
    return worktree !== undefined ? [...this.roots(), worktree] : this.roots();
  }

  async readText(path: string, line?: number, limit?: number, runFolder?: string): Promise<string> {
    const where = await resolveInsideRoots(path, this.rootsFor(runFolder));
    const open = await this.openDocument(where);
    if (open) {
      const text = open.getText();
      // The buffer is in memory already, but its text still goes to the agent in one message.
      if (text.length > MAX_AGENT_READ_BYTES) {
        throw new WorkspaceAccessError('invalid', `${path} is open with ${text.length} characters; the agent may read files of at most ${MAX_AGENT_READ_BYTES / (1024 * 1024)} MiB through the editor.`);
      }
      return lineWindow(text, line, limit);
    }
    return lineWindow(await readRegularFile(where.real, path), line, limit);
  }

  writeText(path: string, content: string, runFolder?: string): Promise<void> {
    const write = this.writes.then(() => this.writeNow(path, content, this.rootsFor(runFolder)));
    this.writes = write.catch(() => undefined);
    return write;
  }

  private async writeNow(path: string, content: string, roots: readonly string[]): Promise<void> {
    const where = await resolveInsideRoots(path, roots);
    const guarded = await protectedTarget(where, roots);
    if (guarded) {
      await this.approveProtectedWrite(path, where, guarded, content);
      // The question may stay open for minutes: a link swapped meanwhile must not carry the approved text elsewhere.
      const again = await resolveInsideRoots(path, roots);
      if (again.real !== where.real) {
        throw new WorkspaceAccessError('denied', `${path} now leads somewhere else than when the write was approved; nothing was written.`);
      }
    }
    let document = await this.openDocument(where);
    const uri = document?.uri ?? vscode.Uri.file(where.real);
    const edit = new vscode.WorkspaceEdit();
    if (!document && !(await isFile(path, where.real))) {
      edit.createFile(uri, { ignoreIfExists: true }, EDIT_METADATA);
      edit.insert(uri, new vscode.Position(0, 0), content, EDIT_METADATA);
    } else {
      document ??= await vscode.workspace.openTextDocument(uri);
      if (document.getText() !== content) {
        const whole = new vscode.Range(new vscode.Position(0, 0), document.positionAt(document.getText().length));
        edit.replace(uri, whole, content, EDIT_METADATA);
      }
    }
    if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) {
      throw new Error(`The editor did not apply the agent's edit to ${path}.`);
    }
    const saved = await vscode.workspace.openTextDocument(uri);
    if (saved.isDirty && !(await saved.save())) {
      throw new Error(`The agent's edit to ${path} was made but could not be saved.`);
    }
  }

  /** Shows the protected write as a diff and asks; rejects with `denied` unless the person allowed it. */
  private async approveProtectedWrite(path: string, where: ResolvedPath, found: ProtectedPath, content: string): Promise<void> {
    const open = await this.openDocument(where);
    let current = open?.getText();
    if (!open && (await isFile(path, where.real))) {
      // The diff's left side: the same guarded read as an agent's (no FIFO, no file past the size cap).
      current = await readRegularFile(where.real, path);
    }
    if (!(await this.protectedWrites.approveWrite({ file: where.lexical, found, current, proposed: content }))) {
      throw new WorkspaceAccessError('denied', `The user denied the write to ${path}: it is a protected path (${found.reason}).`);
    }
  }

  /** The open text document of this file, whether the editor opened it by the path as written or by its real path. */
  private async openDocument(where: ResolvedPath): Promise<vscode.TextDocument | undefined> {
    const wanted = new Set([vscode.Uri.file(where.lexical).toString(), vscode.Uri.file(where.real).toString()]);
    const files = vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.uri.scheme === 'file');
    const direct = files.find((d) => wanted.has(d.uri.toString()));
    if (direct) {
      return direct;
    }
    // Opened through a symlink (or the agent named it through one): compare where both really are.
    for (const document of files) {
      const real = await realLocation(document.uri.fsPath).catch(() => undefined);
      if (real === where.real) {
        return document;
      }
    }
    return undefined;
  }
}

/**
 * Whether the write lands on a protected path: by the path as named (below its workspace folder), or where it really
 * leads once symlinks are followed (a link inside the workspace may point into `.vscode` or `.git`).
 */
async function protectedTarget(where: ResolvedPath, roots: readonly string[]): Promise<ProtectedPath | undefined> {
  const lexical = protectedPathOf(where.lexical, roots);
  if (lexical) {
    return lexical;
  }
  const realRoots = await Promise.all(roots.map((root) => realLocation(root).catch(() => root)));
  return protectedPathOf(where.real, realRoots);
}

/** Whether `real` is an existing regular file (false when missing; a directory is refused). */
async function isFile(path: string, real: string): Promise<boolean> {
  try {
    const stat = await fs.stat(real);
    if (!stat.isFile()) {
      throw new WorkspaceAccessError('invalid', `${path} is not a file.`);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return false;
    }
    throw error;
  }
}

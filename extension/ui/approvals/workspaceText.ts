/**
 * The current text of a file a daemon's approval names, for the left side of its diff: read only when it is a regular
 * file inside the workspace folders (symlinks followed, as an agent's reads are: ui/workspacePath.ts) and within the
 * read cap (ui/workspaceFileRead.ts). A missing file is a new one (no problem); anything else says why it was not read.
 */
import * as vscode from 'vscode';
import { WorkspaceAccessError } from '../../drivers/kit/workspaceAccess';
import { readRegularFile } from '../workspaceFileRead';
import { resolveInsideRoots } from '../workspacePath';

export type WorkspaceText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem?: string };

export async function readWorkspaceText(file: string, shown: string): Promise<WorkspaceText> {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  try {
    const where = await resolveInsideRoots(file, roots);
    return { ok: true, text: await readRegularFile(where.real, shown) };
  } catch (error) {
    if (error instanceof WorkspaceAccessError && error.reason === 'notFound') {
      return { ok: false };
    }
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What a driver may ask of the editor's workspace and secret store, without importing `vscode`: the UI implements
 * both (ui/workspaceAccess.ts, ui/driverSecrets.ts) and hands them to every driver in its `DriverContext`. An agent
 * that reads and writes files through its client (ACP `fs/read_text_file`, `fs/write_text_file`) goes through
 * `WorkspaceAccess`, so it sees unsaved edits and its writes are undoable; an agent's API key goes through
 * `DriverSecrets`, never into settings or the protocol trace.
 */

export interface WorkspaceAccess {
  /** The workspace folders' absolute paths (what an agent may read and write inside). */
  roots(): readonly string[];
  /**
   * The text of `path` as the editor has it (an open document's buffer, unsaved edits included; else the file on
   * disk). `line` is 1-based; `limit` counts lines. Rejects for a path outside every root or a missing file.
   * `runFolder`: the working directory of the run asking; when it is the run's own worktree (issue #26), paths inside
   * that worktree are allowed too — for that run only, since another run's folder is not its worktree.
   */
  readText(path: string, line?: number, limit?: number, runFolder?: string): Promise<string>;
  /**
   * Replaces the whole text of `path` (creating it if needed) as one undoable edit, and saves it. Rejects for a path
   * outside every root, and (`denied`) for a protected path the person did not allow this write to. `runFolder`: as
   * for `readText`.
   */
  writeText(path: string, content: string, runFolder?: string): Promise<void>;
}

export interface DriverSecrets {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * Why `WorkspaceAccess` refused: a driver maps it onto its protocol's error (ACP: `notFound` → resource not found).
 * `denied`: the path is protected (`.vscode`, `.git`, …) and the person said no to this write.
 */
export type WorkspaceAccessFailure = 'outsideWorkspace' | 'notFound' | 'invalid' | 'denied';

/** What `WorkspaceAccess` rejects with, so a driver can answer the agent with the right error code. */
export class WorkspaceAccessError extends Error {
  constructor(
    readonly reason: WorkspaceAccessFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceAccessError';
  }
}

/**
 * What an ACP agent asks of the editor's files, served through the editor (kit/workspaceAccess.ts): reads see
 * unsaved edits, writes are one undoable edit, and nothing outside the workspace folders is reachable. Without an
 * editor behind the driver (unit tests may give none) the client refuses, rather than touching the disk itself.
 */
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest, WriteTextFileResponse } from '@agentclientprotocol/sdk';
import type { DriverSecrets, WorkspaceAccess } from '../kit/workspaceAccess';

/** `runFolder`: the session's working directory (its run's own worktree lets it reach files there: kit/workspaceAccess.ts). */
export async function readThroughEditor(workspace: WorkspaceAccess | undefined, request: ReadTextFileRequest, runFolder?: string): Promise<ReadTextFileResponse> {
  if (!workspace) {
    throw new Error('This editor serves no files to the agent here.');
  }
  return { content: await workspace.readText(request.path, request.line ?? undefined, request.limit ?? undefined, runFolder) };
}

export async function writeThroughEditor(workspace: WorkspaceAccess | undefined, request: WriteTextFileRequest, runFolder?: string): Promise<WriteTextFileResponse> {
  if (!workspace) {
    throw new Error('This editor writes no files for the agent here.');
  }
  await workspace.writeText(request.path, request.content, runFolder);
  return {};
}

/** A secret store in memory, for a driver without the editor's (tests): sign-ins last as long as the driver. */
export function memorySecrets(): DriverSecrets {
  const values = new Map<string, string>();
  return {
    get: (key) => Promise.resolve(values.get(key)),
    store: (key, value) => Promise.resolve(void values.set(key, value)),
    delete: (key) => Promise.resolve(void values.delete(key)),
  };
}

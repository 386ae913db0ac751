/** A WorkspaceAccess on the disk for driver tests (the editor's own, ui/workspaceAccess.ts, needs VS Code). */
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { WorkspaceAccess } from '../../../../extension/drivers/kit/workspaceAccess';

export function diskWorkspace(roots: readonly string[]): WorkspaceAccess & { readonly writes: string[] } {
  const writes: string[] = [];
  const inside = (path: string): string => {
    const full = resolve(path);
    if (!roots.some((root) => { const rel = relative(root, full); return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel); })) {
      throw new Error(`${path} is outside the workspace`);
    }
    return full;
  };
  return {
    writes,
    roots: () => roots,
    readText: async (path, line, limit) => {
      const lines = (await readFile(inside(path), 'utf8')).split('\n');
      const start = Math.max(0, (line ?? 1) - 1);
      return lines.slice(start, limit === undefined ? undefined : start + limit).join('\n');
    },
    writeText: async (path, content) => {
      writes.push(inside(path));
      await writeFile(inside(path), content);
    },
  };
}

/**
 * Temp workspaces for the ACP tests: a directory with a README.md (optionally a git repo, as real agents expect),
 * removed by `remove()`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const README_TEXT = '# Demo\n\nhello\n';

export interface TempWorkspace {
  /** Absolute, symlinks resolved (agents report real paths). */
  readonly dir: string;
  readonly readme: string;
  remove(): void;
}

export function makeWorkspace(options: { readonly git?: boolean; readonly prefix?: string } = {}): TempWorkspace {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'acp-ws-')));
  const readme = join(dir, 'README.md');
  writeFileSync(readme, README_TEXT);
  if (options.git === true) {
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'init');
  }
  return { dir, readme, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }) };
}

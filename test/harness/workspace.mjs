// A throwaway copy of test/fixtures/workspace as a git repository (for npm start and the integration tier).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A throwaway git workspace, so local change sets and file edits have something real to work on. `files` (relative
 * path → content, e.g. the demo's `.vscode/settings.json`) are part of its first commit, so git status starts clean.
 */
export function prepareWorkspace(files = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-ws-'));
  cpSync(join(root, 'test/fixtures/workspace'), dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=Switchboard Tests', '-c', 'user.email=tests@switchboard.invalid', 'add', '-A');
  git('-c', 'user.name=Switchboard Tests', '-c', 'user.email=tests@switchboard.invalid', 'commit', '-q', '-m', 'fixture');
  return dir;
}


/** A throwaway git repository for generating real patches in tests. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

function env(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('GIT_')) {
      out[k] = v;
    }
  }
  return {
    ...out,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.invalid',
  };
}

export class TempGitRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'a3s-git-'));

  constructor() {
    this.git('init', '-q');
    this.git('config', 'core.autocrlf', 'false');
  }

  git(...args: string[]): Buffer {
    return execFileSync('git', args, { cwd: this.dir, env: env(), maxBuffer: 64 * 1024 * 1024 });
  }

  write(path: string, content: string | Buffer): void {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), content);
  }

  remove(path: string): void {
    rmSync(join(this.dir, path), { force: true });
  }

  commitAll(): void {
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', 'c');
  }

  /** Stages everything and returns the staged diff as git writes it for change sets. */
  stagedPatch(...extra: string[]): string {
    this.git('add', '-A');
    return this.git('-c', 'core.quotePath=true', 'diff', '--cached', '--binary', '--no-color', '-M', '--src-prefix=a/', '--dst-prefix=b/', ...extra).toString('utf8');
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 20 });
  }
}

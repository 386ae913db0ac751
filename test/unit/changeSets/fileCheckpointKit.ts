/** Set-up shared by the file-checkpoint tests: a store over temp dirs, and the state of a folder on disk. */
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCheckpointStore } from '../../../extension/changeSets/fileCheckpointStore';
import type { PrivateSnapshotLimits } from '../../../extension/changeSets/snapshotScope';
import { FileCheckpointLedger } from '../../../extension/storage/fileCheckpointLedger';
import type { LeaseIdentity } from '../../../extension/storage/runWriterLease';
import type { TempGitRepo } from './tempGitRepo';

export class CheckpointStoreKit {
  readonly storage = mkdtempSync(join(tmpdir(), 'sb-ckpt-store-'));
  readonly journalDir = join(this.storage, 'journal');
  readonly privateRoot = join(this.storage, 'private');
  readonly ledger: FileCheckpointLedger;
  readonly store: FileCheckpointStore;

  constructor(options: { readonly writer?: LeaseIdentity; readonly limits?: PrivateSnapshotLimits } = {}) {
    this.ledger = new FileCheckpointLedger(this.journalDir, options.writer);
    this.store = new FileCheckpointStore({
      ledger: this.ledger,
      privateRoot: this.privateRoot,
      refScope: 'acp:test',
      ...(options.limits ? { limits: options.limits } : {}),
    });
  }

  dispose(): void {
    rmSync(this.storage, { recursive: true, force: true, maxRetries: 20 });
  }
}

/** Every file under `dir` (not `.git`): its mode and a hash of its bytes (a symbolic link: its target). */
export function folderState(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (path === '.git') {
        continue;
      }
      const full = join(dir, path);
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        out[`${path}/`] = 'dir';
        walk(path);
      } else if (stat.isSymbolicLink()) {
        out[path] = `link -> ${readlinkSync(full)}`;
      } else {
        const hash = createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 16);
        out[path] = `${(stat.mode & 0o111) !== 0 ? 'exec' : 'file'} ${hash}`;
      }
    }
  };
  walk('');
  return out;
}

/** What a user's repository must keep through every checkpoint operation: index bytes, HEAD, status. */
export function userGitState(repo: TempGitRepo): { index: string; head: string; headCommit: string; status: string; refs: string } {
  const gitDir = join(repo.dir, '.git');
  const index = (() => {
    try {
      return readFileSync(join(gitDir, 'index')).toString('hex');
    } catch {
      return 'none';
    }
  })();
  return {
    index,
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
    headCommit: repo.git('rev-parse', 'HEAD').toString().trim(),
    // No optional locks: `git status` must not refresh the index we compare.
    status: repo.git('--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all').toString(),
    refs: repo.git('for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags', 'refs/stash').toString(),
  };
}

/**
 * What the A3S driver keeps on disk per run beside its journal's records (a3sJournal.ts): the driver's `extra` in
 * the run index (session, cursor, recovery links), and a cache of the verified change set
 * (so a reload shows it even when the harness has restarted and forgotten the session).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { ChangeSetInfo } from '../../model/modelTypes';
import { runFileOf } from '../../storage/runFiles';

/** The driver's part of a stored run (`StoredRun.extra.a3s`). */
export interface A3sRunExtra {
  readonly sessionId: string;
  /** The command's request id, so a start whose receipt was lost can be resent identically. */
  readonly requestId?: string;
  /** The start/recover receipt said `replayed:true`. */
  readonly replayed?: boolean;
  /** Last sequence held (`after_event_sequence` to resume from); the journal's records take precedence. */
  readonly cursor: number | null;
  /** Non-terminal with no worker after a harness restart: offer recover. */
  readonly stranded?: boolean;
  readonly recoveredFrom?: string;
  readonly recoveredAs?: string;
}

export function a3sExtraOf(extra: Readonly<Record<string, unknown>> | undefined): A3sRunExtra | undefined {
  const v = extra?.a3s;
  if (v === null || typeof v !== 'object') {
    return undefined;
  }
  const x = v as Record<string, unknown>;
  if (typeof x.sessionId !== 'string') {
    return undefined;
  }
  const opt = (key: string): string | undefined => (typeof x[key] === 'string' ? (x[key] as string) : undefined);
  const requestId = opt('requestId');
  const recoveredFrom = opt('recoveredFrom');
  const recoveredAs = opt('recoveredAs');
  return {
    sessionId: x.sessionId,
    cursor: typeof x.cursor === 'number' && Number.isSafeInteger(x.cursor) && x.cursor >= 0 ? x.cursor : null,
    ...(requestId !== undefined ? { requestId } : {}),
    ...(x.replayed === true ? { replayed: true } : {}),
    ...(x.stranded === true ? { stranded: true } : {}),
    ...(recoveredFrom !== undefined ? { recoveredFrom } : {}),
    ...(recoveredAs !== undefined ? { recoveredAs } : {}),
  };
}

export type CachedChangeSet = Omit<ChangeSetInfo, 'runKey'>;

function cacheFile(dir: string, runId: string): string {
  // Named like the run's other files, so removing the run deletes it too (storage/runFiles.ts).
  return runFileOf(dir, runId, 'changes.json');
}

/** Stores a final change-set result (ready, unavailable or refused) — never a partial or unverified patch. */
export async function saveChangeSetCache(dir: string, runId: string, info: CachedChangeSet): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = cacheFile(dir, runId);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(info));
  await rename(tmp, file);
}

export async function loadChangeSetCache(dir: string, runId: string): Promise<CachedChangeSet | undefined> {
  try {
    const v: unknown = JSON.parse(await readFile(cacheFile(dir, runId), 'utf8'));
    if (v === null || typeof v !== 'object') {
      return undefined;
    }
    const c = v as Record<string, unknown>;
    const status = c.status;
    if (status !== 'ready' && status !== 'unavailable' && status !== 'refused') {
      return undefined;
    }
    if (status === 'ready' && typeof c.patch !== 'string') {
      return undefined;
    }
    const s = (key: string): string | undefined => (typeof c[key] === 'string' ? (c[key] as string) : undefined);
    const reason = s('reason');
    const patch = status === 'ready' ? s('patch') : undefined;
    const baseTree = s('baseTree');
    const resultTree = s('resultTree');
    return {
      source: 'daemon',
      status,
      ...(reason !== undefined ? { reason } : {}),
      ...(patch !== undefined ? { patch } : {}),
      ...(baseTree !== undefined ? { baseTree } : {}),
      ...(resultTree !== undefined ? { resultTree } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Writer leases: which editor window of this machine may append to a run's journal and write its checkpoint (issue
 * #25 §1: two extension hosts appending to one file doubled and interleaved it). A lease is a small file beside the
 * journal, `<run>.lease`, holding `{pid, window, since}`; the one process whose lease it is writes the run, every
 * other window only reads it.
 *
 * Why a lock file and not one file per window merged on read: every reader (a reload, the history lane's lazy load,
 * checkpoints) would have to merge by sequence, and local records (a prompt, a decision) have none. One writer keeps
 * the journal the simple append-only file it was.
 *
 * Taking: the lease is written whole to a temporary file and `link`ed into place — `link` fails with EEXIST when the
 * lease exists, atomically, like `open(path, 'wx')`, but a reader can never see a lease half written (a crash
 * between `open` and `write` would leave an empty lease nobody could judge). Stale: the holder's pid is dead
 * (`process.kill(pid, 0)` → ESRCH; globalStorage is this machine's, so pids are comparable), or the lease says it
 * was released.
 * Taking over a stale lease replaces it in place with `rename` (the file never goes missing), under a short takeover
 * lock and after checking it is still the stale one judged. Released on close (a window reload
 * disposes its connections first) by marking it released, not deleting it: the file then still says which window
 * held it last, and for a grace period (the kit's) only that window may take it again — its reload gets its runs
 * back; a lease of a dead pid (a crash) is free at once. Storage knows files and pids; which window takes which lease when is the kit's (drivers/kit).
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from './runFileName';

/** Who holds a lease: an extension host (pid) of an editor window (its id, stable across the window's reloads). */
export interface LeaseHolder {
  readonly pid: number;
  readonly window: string;
  /** The journal instance (random): two connections of one process (tests: two windows) never share a lease. */
  readonly token: string;
  /** What the person calls the holder's window (its workspace's name), for a message that says who writes a run. */
  readonly name?: string;
  readonly since: number;
  /** Set when the holder let it go (closed the run's journal): anyone may take it. */
  readonly releasedAt?: number;
}

/** Who asks for a lease. */
export type LeaseIdentity = Pick<LeaseHolder, 'pid' | 'window' | 'token' | 'name'>;

/** A name read from a lease file is shown to the person: kept short (the file is any window's, or anyone's). */
const MAX_NAME_CHARS = 80;

/** What taking a lease came to. */
export type LeaseOutcome =
  | { readonly kind: 'taken'; readonly previous?: LeaseHolder }
  | { readonly kind: 'held elsewhere'; readonly holder: LeaseHolder };

export function leaseFileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.lease`);
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LeaseHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LeaseHolder> | null;
    if (value && typeof value.pid === 'number' && typeof value.window === 'string' && typeof value.since === 'number') {
      const token = typeof value.token === 'string' ? value.token : '';
      const name = typeof value.name === 'string' && value.name !== '' ? value.name.slice(0, MAX_NAME_CHARS) : undefined;
      return { pid: value.pid, window: value.window, token, ...(name !== undefined ? { name } : {}), since: value.since, ...(typeof value.releasedAt === 'number' ? { releasedAt: value.releasedAt } : {}) };
    }
  } catch {
    // not a lease of ours: judged stale below
  }
  return undefined;
}

/** The run's lease as the file says now (undefined: none, or not readable as one). */
export async function readLease(dir: string, runId: string): Promise<LeaseHolder | undefined> {
  try {
    return parseHolder(await readFile(leaseFileOf(dir, runId), 'utf8'));
  } catch {
    return undefined;
  }
}

const isMine = (holder: LeaseHolder, me: LeaseIdentity): boolean => holder.pid === me.pid && holder.window === me.window && holder.token === me.token;

/**
 * Whether `holder` still holds the lease against `me`: it writes (not released, its process lives), or released it
 * less than `graceMs` ago and `me` is another window (a window's reload gets its own runs back first).
 */
export function leaseLive(holder: LeaseHolder, me?: LeaseIdentity, now = 0, graceMs = 0): boolean {
  if (holder.releasedAt !== undefined) {
    return me !== undefined && holder.window !== me.window && now - holder.releasedAt < graceMs;
  }
  return pidAlive(holder.pid);
}

/**
 * Takes the run's lease for `me` (a pid and window id), if nobody live holds it. A lease this very process holds for
 * this window is taken again as it is (idempotent).
 */
export async function takeLease(dir: string, runId: string, me: LeaseIdentity, now: number, graceMs = 0): Promise<LeaseOutcome> {
  await mkdir(dir, { recursive: true });
  const file = leaseFileOf(dir, runId);
  const mine: LeaseHolder = { ...me, since: now };
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(mine));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(tmp, file);
        return { kind: 'taken' };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue; // removed meanwhile: try again
      }
      const holder = parseHolder(text);
      if (holder && isMine(holder, me) && holder.releasedAt === undefined) {
        return { kind: 'taken' }; // ours already
      }
      if (holder && leaseLive(holder, me, now, graceMs)) {
        return { kind: 'held elsewhere', holder };
      }
      // Stale: replaced in place (rename over it: the lease file never goes missing, or a window probing at that
      // moment would link a lease of its own in), under a takeover lock so two windows taking over do not both win.
      const unlock = await lockTakeover(file, me);
      if (!unlock) {
        continue; // another window is taking it over right now: see what it came to
      }
      try {
        const now2 = await readFile(file, 'utf8').catch(() => undefined);
        if (now2 !== text) {
          continue; // changed meanwhile: judge again
        }
        await rename(tmp, file);
        return { kind: 'taken', ...(holder ? { previous: holder } : {}) };
      } finally {
        await unlock();
      }
    }
    const holder = await readLease(dir, runId);
    return holder ? { kind: 'held elsewhere', holder } : { kind: 'held elsewhere', holder: { pid: 0, window: 'unknown', token: '', since: now } };
  } finally {
    await rm(tmp, { force: true });
  }
}

/** How old a takeover lock may get before it counts as left by a crash (it is held for one read and a rename). */
const TAKEOVER_STALE_MS = 5_000;

/** Takes the run's takeover lock (`<lease>.takeover`); undefined when another live one holds it. */
async function lockTakeover(file: string, me: LeaseIdentity): Promise<(() => Promise<void>) | undefined> {
  const lock = `${file}.takeover`;
  const body = JSON.stringify({ pid: me.pid, token: me.token, at: Date.now() });
  const tmp = `${lock}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, body);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await link(tmp, lock);
        return async () => {
          if ((await readFile(lock, 'utf8').catch(() => '')) === body) {
            await rm(lock, { force: true });
          }
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      const held = await readFile(lock, 'utf8').catch(() => '');
      const { pid, at } = (() => {
        try {
          return JSON.parse(held) as { pid?: number; at?: number };
        } catch {
          return {};
        }
      })();
      if (pidAlive(pid ?? 0) && Date.now() - (at ?? 0) < TAKEOVER_STALE_MS) {
        return undefined;
      }
      await rm(lock, { force: true }); // left by a crash
    }
    return undefined;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Marks the run's lease released when it is `me`'s (a lease another window holds now is left alone). */
export async function releaseLease(dir: string, runId: string, me: LeaseIdentity, now: number): Promise<void> {
  const file = leaseFileOf(dir, runId);
  const holder = await readLease(dir, runId);
  if (!holder || !isMine(holder, me) || holder.releasedAt !== undefined) {
    return;
  }
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify({ ...holder, releasedAt: now }));
  // Replaced atomically; a window that took it over meanwhile could only have done so from a released or dead lease.
  await rename(tmp, file);
}

/** Removes the run's lease whoever holds it (the run itself is being removed). */
export async function removeLease(dir: string, runId: string): Promise<void> {
  await rm(leaseFileOf(dir, runId), { force: true });
}

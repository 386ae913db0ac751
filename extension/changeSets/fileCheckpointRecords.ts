/**
 * The shape of a run's file checkpoints as stored (one small JSON file per run, written by storage/
 * fileCheckpointLedger.ts, which knows its bytes, not this shape) and the ledger interface the store writes
 * through. Read leniently: a checkpoint that does not parse is dropped, never the whole list.
 */
import { z } from 'zod';

/** One scope's tree in a checkpoint: the work tree's top, the private git dir if any, the tree id. */
export interface ScopeTree {
  readonly top: string;
  readonly gitDir?: string;
  /** `git-tree:<hex>`. */
  readonly tree: string;
}

/** A workspace root of which no snapshot could be taken, and why (shown as "No checkpoint of <root>: <reason>"). */
export interface UnavailableRoot {
  readonly root: string;
  readonly reason: string;
}

/**
 * A checkpoint of a run's files. `turn`: taken at a turn boundary (`turn` counts the run's turns). `beforeRewind`:
 * the files as they were just before a rewind, what *Redo* restores; `restored` names the checkpoint that rewind
 * went to and `after` holds the files right after it (the baseline for "changed since" after a rewind).
 */
export interface FileCheckpoint {
  /** `c<n>` for a turn, `r<n>` for a rewind's before-state: unique in the run, valid in a ref name. */
  readonly id: string;
  readonly kind: 'turn' | 'beforeRewind';
  readonly turn?: number;
  /** Epoch ms. */
  readonly at: number;
  readonly trees: readonly ScopeTree[];
  readonly unavailable: readonly UnavailableRoot[];
  readonly restored?: string;
  readonly after?: readonly ScopeTree[];
  /** Paths a person chose to keep in that rewind: still not the run's, whatever later rewinds see. */
  readonly kept?: readonly KeptPath[];
}

/** A path left as it was in a rewind, by a person's decision. */
export interface KeptPath {
  readonly top: string;
  readonly path: string;
}

const scopeTreeSchema = z.object({ top: z.string(), gitDir: z.string().optional(), tree: z.string() });

const checkpointSchema = z.object({
  id: z.string().regex(/^[a-z][0-9]{1,9}$/),
  kind: z.enum(['turn', 'beforeRewind']),
  turn: z.number().int().nonnegative().optional(),
  at: z.number(),
  trees: z.array(scopeTreeSchema),
  unavailable: z.array(z.object({ root: z.string(), reason: z.string() })).default([]),
  restored: z.string().optional(),
  after: z.array(scopeTreeSchema).optional(),
  kept: z.array(z.object({ top: z.string(), path: z.string() })).optional(),
});

/** Zod output types carry `undefined` in optional fields; this drops them so the record is exact. */
function exact(value: z.infer<typeof checkpointSchema>): FileCheckpoint {
  const trees = (list: readonly z.infer<typeof scopeTreeSchema>[]): ScopeTree[] =>
    list.map((t) => ({ top: t.top, tree: t.tree, ...(t.gitDir !== undefined ? { gitDir: t.gitDir } : {}) }));
  return {
    id: value.id,
    kind: value.kind,
    at: value.at,
    trees: trees(value.trees),
    unavailable: value.unavailable,
    ...(value.turn !== undefined ? { turn: value.turn } : {}),
    ...(value.restored !== undefined ? { restored: value.restored } : {}),
    ...(value.after !== undefined ? { after: trees(value.after) } : {}),
    ...(value.kept !== undefined ? { kept: value.kept } : {}),
  };
}

/** The run's checkpoints from the stored JSON value (anything unreadable: none). */
export function checkpointsFromStored(value: unknown): FileCheckpoint[] {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as { checkpoints?: unknown }).checkpoints)) {
    return [];
  }
  const out: FileCheckpoint[] = [];
  for (const item of (value as { checkpoints: unknown[] }).checkpoints) {
    const parsed = checkpointSchema.safeParse(item);
    if (parsed.success) {
      out.push(exact(parsed.data));
    }
  }
  return out;
}

/** The JSON value to store for the run's checkpoints. */
export function storedCheckpoints(checkpoints: readonly FileCheckpoint[]): Record<string, unknown> {
  return { version: 1, checkpoints };
}

/**
 * Where a run's checkpoint list is kept (storage/fileCheckpointLedger.ts). One writer per run: `mayWrite` says
 * whether this window holds the run's writer lease; the store records and rewinds only where it does.
 */
export interface CheckpointLedger {
  read(runId: string): Promise<unknown>;
  write(runId: string, value: Readonly<Record<string, unknown>>): Promise<void>;
  mayWrite(runId: string): Promise<boolean>;
  remove(runId: string): Promise<void>;
}

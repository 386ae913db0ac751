/**
 * The journal of one connection, as every driver opens it: one directory per connection profile under the
 * extension's storage (`transcripts/<connection>`), and the run index entry of a run as the model holds it.
 */
import { join } from 'node:path';
import type * as z from 'zod/mini';
import type { RunInfo } from '../../model/modelTypes';
import { safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import { RunRecorder } from './runRecorder';

/** The recorder of `ctx`'s connection; `cursor` is the schema of the driver's resume records (`z.never()`: none). */
export function connectionRecorder<C>(ctx: Pick<DriverContext, 'store' | 'connectionId' | 'storageDir' | 'log'>, cursor: z.ZodMiniType<C>): RunRecorder<C> {
  return new RunRecorder({
    store: ctx.store,
    connectionId: ctx.connectionId,
    dir: join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId)),
    cursor,
    warn: (m) => ctx.log.warn(m),
  });
}

/** A run's entry in the run index: the model's fields, plus what the driver keeps beside them (JSON-safe). */
export function storedRunOf(run: RunInfo, extra?: Readonly<Record<string, unknown>>): StoredRun {
  return {
    runId: run.runId,
    title: run.title,
    ...(run.provider !== undefined ? { provider: run.provider } : {}),
    ...(run.model !== undefined ? { model: run.model } : {}),
    state: run.state,
    createdAt: run.createdAt,
    ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
    ...(extra ? { extra } : {}),
  };
}

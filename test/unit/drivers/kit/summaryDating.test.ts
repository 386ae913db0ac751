/**
 * A run's summary is dated by when this window last recorded news of it, not by when the summary was saved: a close
 * saves every loaded run whose last record (a file checkpoint marker, say) came after its last save, and dating them
 * by the save made them all equally old — retention by count then kept the wrong one (issue #25 §2, seen in the
 * "Run history" integration suite once AgencyProxy runs got terminal checkpoint markers).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { Journaling, RestorePolicy } from '../../../../extension/drivers/kit/runJournaling';
import { RunStore } from '../../../../extension/model/runStore';
import { quietLog } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'dating-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
// Lazy, as the journaled drivers are: the door keeps summaries once it knows how its runs come back.
const lazy: RestorePolicy<never> = { open: () => true, replaying: () => undefined, record: () => undefined, state: 'as replayed', lazy: true };

test('runs whose last record came after their last save are dated by that record when a close saves them', async () => {
  let now = 100;
  const store = new RunStore(() => now);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'agency-proxy' } });
  const door = new DriverRuns({ store, connectionId: 'c', storageDir: base, log: quietLog, now: () => now }, () => journaled);
  await door.replay(lazy);
  for (const [runId, at] of [['older', 100], ['newer', 200]] as const) {
    now = at;
    await door.fields(runId, { title: runId, state: 'running', createdAt: at });
    await door.event(runId, { kind: 'userPrompt', text: 'task' }, 1);
    await door.event(runId, { kind: 'stateChanged', state: 'completed' }, 2);
    await door.fields(runId, { state: 'completed' });
    await door.saveRun(runId);
    now = at + 50;
    await door.event(runId, { kind: 'notice', text: 'recorded after the save', level: 'info' });
  }
  now = 10_000;
  await door.close();
  const dir = join(base, 'transcripts', readdirSync(join(base, 'transcripts'))[0]!);
  const index = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string; summary?: { activeAt?: number; items?: number } }[];
  const dated = Object.fromEntries(index.map((entry) => [entry.runId, entry.summary?.activeAt]));
  assert.deepEqual(dated, { older: 150, newer: 250 });
});

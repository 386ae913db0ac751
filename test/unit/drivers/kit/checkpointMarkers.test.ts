/**
 * The transcript's checkpoint markers (issue #26), through the kit's door: each recorded checkpoint is a journaled
 * row saying its turn and how many files changed; a rewind and a redo done through TurnCheckpoints are rows too, the
 * newest offering Redo; after a reload the rows come back from the journal as they were. Another window that reads
 * the run may not rewind it and learns which window writes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { Journaling } from '../../../../extension/drivers/kit/runJournaling';
import { TurnCheckpoints } from '../../../../extension/drivers/kit/turnCheckpoints';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { quietLog } from '../driverKit';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'acp:ref';

function store(): RunStore {
  const s = new RunStore(() => 1000);
  s.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'acp' } });
  return s;
}

type Marker = Extract<TranscriptItem, { kind: 'checkpoint' }>;
const markers = (s: RunStore): Marker[] => (s.transcript(runKeyOf(C, 'r'))?.snapshot() ?? []).filter((i): i is Marker => i.kind === 'checkpoint');
const shape = (m: Marker): string => `${m.mark}:${m.checkpointId}${m.turn !== undefined ? ` turn ${m.turn}` : ''}${m.files !== undefined ? ` files ${m.files}` : ''}${m.redo ? ' redo' : ''}`;

test('checkpoints, a rewind and a redo are journaled marker rows; Redo only on the newest; a reload shows the same', async () => {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.write('b.txt', 'b\n');
  repo.commitAll();
  const storageDir = mkdtempSync(join(tmpdir(), 'ckpt-marks-'));
  cleanups.push(() => rmSync(storageDir, { recursive: true, force: true }));
  const first = store();
  const runs = new DriverRuns({ store: first, connectionId: C, storageDir, log: quietLog, windowId: 'wa', windowName: 'first' }, () => journaled);
  const checkpoints = new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, runs);
  await runs.fields('r', { title: 'R', state: 'running', createdAt: 1 });
  await checkpoints.boundary('r', [repo.dir]);
  repo.write('a.txt', 'a2\n');
  repo.write('b.txt', 'b2\n');
  await checkpoints.boundary('r', [repo.dir]);
  assert.deepEqual(markers(first).map(shape), ['turn:c1 turn 0 files 0', 'turn:c2 turn 1 files 2']);
  assert.ok(markers(first).every((m) => m.rewindable));

  const rewound = await checkpoints.rewind('r', 'c1');
  assert.ok(rewound.status === 'rewound', JSON.stringify(rewound));
  assert.equal(readFileSync(join(repo.dir, 'a.txt'), 'utf8'), 'a\n');
  assert.equal(markers(first).at(-1)?.summary, 'to the start of the run: 2 files restored');
  const redone = await checkpoints.redo('r', rewound.rewindId);
  assert.ok(redone.status === 'rewound', JSON.stringify(redone));
  assert.equal(readFileSync(join(repo.dir, 'a.txt'), 'utf8'), 'a2\n');
  assert.equal(markers(first).at(-1)?.summary, 'redo: the files as before the last rewind: 2 files restored');
  const after = ['turn:c1 turn 0 files 0', 'turn:c2 turn 1 files 2', `rewound:${rewound.rewindId}`, `rewound:${redone.rewindId} redo`];
  assert.deepEqual(markers(first).map(shape), after, 'only the newest rewind offers Redo');
  await runs.saveRun('r');
  await runs.close();

  const second = store();
  const again = new DriverRuns({ store: second, connectionId: C, storageDir, log: quietLog, windowId: 'wa', windowName: 'first' }, () => journaled);
  await again.replay({ open: () => true, state: 'as replayed' });
  await again.history.load('r');
  assert.deepEqual(markers(second).map(shape), after, 'the same rows after a reload');
  await again.close();
});

test('a window that only reads the run may not rewind it, and is told which window writes it', async () => {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.commitAll();
  const storageDir = mkdtempSync(join(tmpdir(), 'ckpt-marks-'));
  cleanups.push(() => rmSync(storageDir, { recursive: true, force: true }));
  const a = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wa', windowName: 'first' }, () => journaled);
  const writer = new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, a);
  await a.fields('r', { title: 'R', state: 'running', createdAt: 1 });
  await writer.boundary('r', [repo.dir]);
  repo.write('a.txt', 'b\n');
  await writer.boundary('r', [repo.dir]);
  await a.saveRun('r');

  const b = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wb', windowName: 'second' }, () => journaled);
  const reader = new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, b);
  await b.replay({ open: () => true, state: 'as replayed' });
  assert.deepEqual(await reader.rewind('r', 'c1'), { status: 'not writer' });
  assert.equal(readFileSync(join(repo.dir, 'a.txt'), 'utf8'), 'b\n', 'nothing written');
  assert.deepEqual(await reader.writerOf('r'), { pid: process.pid, name: 'first' });
  await Promise.all([a.close(), b.close()]);
});

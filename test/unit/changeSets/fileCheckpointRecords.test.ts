/** The stored checkpoint list is read leniently: a bad entry is dropped, never the whole list. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkpointsFromStored, storedCheckpoints } from '../../../extension/changeSets/fileCheckpointRecords';
import type { FileCheckpoint } from '../../../extension/changeSets/fileCheckpointRecords';

const good: FileCheckpoint = { id: 'c1', kind: 'turn', turn: 1, at: 5, trees: [{ top: '/r', tree: `git-tree:${'a'.repeat(40)}` }], unavailable: [] };
const rewind: FileCheckpoint = {
  id: 'r2',
  kind: 'beforeRewind',
  at: 6,
  trees: [{ top: '/p', gitDir: '/s/x.git', tree: `git-tree:${'b'.repeat(40)}` }],
  unavailable: [{ root: '/gone', reason: 'not a folder' }],
  restored: 'c1',
  after: [{ top: '/p', gitDir: '/s/x.git', tree: `git-tree:${'c'.repeat(40)}` }],
  kept: [{ top: '/p', path: 'x' }],
};

test('a stored list reads back exactly, and unreadable entries are dropped', () => {
  const stored = JSON.parse(JSON.stringify(storedCheckpoints([good, rewind]))) as Record<string, unknown>;
  assert.deepEqual(checkpointsFromStored(stored), [good, rewind]);
  const damaged = { version: 1, checkpoints: [good, { id: '../../HEAD', kind: 'turn', at: 1, trees: [] }, { id: 'c3' }, 7, rewind] };
  assert.deepEqual(checkpointsFromStored(damaged), [good, rewind]);
  assert.deepEqual(checkpointsFromStored(undefined), []);
  assert.deepEqual(checkpointsFromStored({ checkpoints: 'no' }), []);
});

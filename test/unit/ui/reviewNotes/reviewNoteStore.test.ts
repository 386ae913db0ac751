/**
 * The one writer of a run's notes: read from its file the first time, written after every change (they survive a
 * reload: a second store over the same directory reads them), cleared after an accepted send without losing a note
 * added meanwhile, one event per change, and nothing read or written for an unknown run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ReviewNoteAnchor } from '../../../../extension/protocol/reviewNotes';
import { ReviewNoteStore } from '../../../../extension/ui/reviewNotes/reviewNoteStore';

const dir = mkdtempSync(join(tmpdir(), 'sb-note-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RUN = 'c::run-1';
let ids = 0;
const storeOver = (known: readonly string[] = [RUN]) =>
  new ReviewNoteStore((runKey) => (known.includes(runKey) ? { dir, runId: runKey.split('::')[1]! } : undefined), (_, error) => assert.fail(String(error)), () => `id${++ids}`);
const at = (line: number): ReviewNoteAnchor => ({ path: 'src/a.ts', startLine: line, endLine: line, quote: [`+${line}`] });

test('notes survive a reload: a new store reads what the last one wrote', async () => {
  const first = storeOver();
  const changes: number[] = [];
  first.onDidChange((c) => changes.push(c.notes.length));
  await first.add(RUN, at(4), 'four');
  const two = await first.add(RUN, at(2), 'two');
  await first.edit(RUN, two.id, 'TWO');
  await first.flush();
  assert.deepEqual(changes, [1, 2, 2]);
  const second = storeOver();
  assert.equal(second.peek(RUN), undefined, 'not read before asked');
  assert.deepEqual((await second.notes(RUN)).map((n) => [n.startLine, n.text]), [[2, 'TWO'], [4, 'four']]);
});

test('an accepted send clears what was sent, not a note added while it was on its way; the file goes when none are left', async () => {
  const store = storeOver();
  const sending = await store.notes(RUN);
  const later = await store.add(RUN, at(9), 'added while sending');
  await store.sent(RUN, sending);
  assert.deepEqual((await store.notes(RUN)).map((n) => n.id), [later.id]);
  await store.remove(RUN, later.id);
  await store.flush();
  assert.deepEqual(readdirSync(dir), [], 'no notes: no file');
  assert.deepEqual(await storeOver().notes(RUN), []);
});

test('discard drops every note; forget drops the memory of a removed run', async () => {
  const store = storeOver();
  await store.add(RUN, at(1), 'one');
  await store.discard(RUN);
  assert.deepEqual(await store.notes(RUN), []);
  await store.add(RUN, at(1), 'one');
  await store.flush();
  store.forget(RUN);
  assert.equal(store.peek(RUN), undefined);
  await store.discard(RUN);
  await store.flush();
});

test('a run that is not known has notes in memory only, and nothing is written for it', async () => {
  const store = storeOver([]);
  await store.add('c::unknown', at(1), 'one');
  await store.flush();
  assert.deepEqual(readdirSync(dir), []);
  await assert.rejects(store.add('c::unknown', at(1), ''), /needs some text/);
});

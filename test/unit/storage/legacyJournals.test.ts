/**
 * Journals written by 0.1.0 (its three record formats, fixtures/journal-0.1.0, made by makeJournalFixtures.ts
 * against the reference daemons) still load: a reload restores exactly the model (runs, approvals, change sets,
 * transcripts) and the drivers' books (ack cursors, activity, ownership, leftovers, cursors, mapping state) that
 * the 0.1.0 code restored from the same files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FixtureName } from './journalFixtures';
import { reloadSnapshot } from './journalFixtures';

const fixtures = join(import.meta.dirname, 'fixtures', 'journal-0.1.0');

for (const name of ['agencyProxy', 'scv', 'a3s'] as const satisfies readonly FixtureName[]) {
  test(`a 0.1.0 ${name} journal restores what 0.1.0 restored`, async () => {
    const expected: unknown = JSON.parse(readFileSync(join(fixtures, `${name}.expected.json`), 'utf8'));
    const { snapshot, logs } = await reloadSnapshot(name, join(fixtures, name));
    assert.deepEqual(snapshot, expected);
    assert.deepEqual(logs.filter((l) => l.startsWith('error:') || /journal|record|store/i.test(l)), [], 'nothing was skipped or failed');
  });
}

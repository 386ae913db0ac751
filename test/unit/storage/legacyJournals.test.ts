/**
 * Journals written by 0.1.0 (its three record formats, fixtures/journal-0.1.0, made by makeJournalFixtures.ts
 * against the reference daemons) still load: a reload restores exactly the model (runs, approvals, change sets,
 * transcripts) and the drivers' books (ack cursors, activity, ownership, leftovers, cursors, mapping state) that
 * the 0.1.0 code restored from the same files. The same journals rewritten in the current format (the v2 records
 * their lines decode to, written as the live code writes them) restore the same again.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { legacyA3sDecoder } from '../../../extension/drivers/a3s/a3sJournal';
import { legacyAgencyProxyDecoder } from '../../../extension/drivers/agencyProxy/agencyProxyRecords';
import type { RunInput } from '../../../extension/drivers/kit/journalRecords';
import { diskRecordOf, isCurrentRecord } from '../../../extension/drivers/kit/journalRecords';
import { legacyScvDecoder } from '../../../extension/drivers/scv/scvStoredSessions';
import { safeFileName } from '../../../extension/storage/runJournal';
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

/** The fixture's journals rewritten as the v2 records their 0.1.0 lines decode to (what the live code writes). */
function migratedCopy(name: FixtureName): string {
  const dir = mkdtempSync(join(tmpdir(), 'jv2-'));
  cpSync(join(fixtures, name), dir, { recursive: true });
  const transcripts = join(dir, 'transcripts');
  for (const connection of readdirSync(transcripts)) {
    const runs = JSON.parse(readFileSync(join(transcripts, connection, 'runs.json'), 'utf8')) as { runId: string }[];
    for (const { runId } of runs) {
      const file = join(transcripts, connection, `${safeFileName(runId)}.jsonl`);
      const decode = name === 'agencyProxy' ? legacyAgencyProxyDecoder(runId) : name === 'scv' ? legacyScvDecoder : legacyA3sDecoder();
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
      const inputs = lines.flatMap((l) => decode(JSON.parse(l) as unknown) ?? assert.fail(`undecodable: ${l}`));
      const v2 = inputs.map((input) => diskRecordOf(input as RunInput<unknown>));
      assert.ok(v2.every(isCurrentRecord));
      writeFileSync(file, v2.map((r) => `${JSON.stringify(r)}\n`).join(''));
    }
  }
  return dir;
}

for (const name of ['agencyProxy', 'scv', 'a3s'] as const satisfies readonly FixtureName[]) {
  test(`the same ${name} journal in the current format (v2) restores the same`, async () => {
    const expected: unknown = JSON.parse(readFileSync(join(fixtures, `${name}.expected.json`), 'utf8'));
    const dir = migratedCopy(name);
    try {
      const { snapshot, logs } = await reloadSnapshot(name, dir);
      assert.deepEqual(snapshot, expected);
      assert.deepEqual(logs.filter((l) => l.startsWith('error:') || /journal|record|store/i.test(l)), []);
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
}

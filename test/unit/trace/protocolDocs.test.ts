/**
 * docs/protocols/ is our protocol reference and the trace check's source of required kinds, so its client-message
 * tables must name exactly the messages our schemas can write (extension/protocol/): a message added to a schema
 * but not to its page would never be required of the trace, and one documented but not in a schema could never be
 * traced. Also pins the format the check reads (a missing section is an error, not an empty list).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HIVE_HARNESS_ONLY_CMDS } from '../../../extension/drivers/hive/hiveRequestPolicy';
import { A3sCommandSchema } from '../../../extension/protocol/a3s';
import { APPROVAL_DECISIONS, ClientFrameSchema, SHUTDOWN_MODES } from '../../../extension/protocol/agencyProxy';
import { HiveRequest } from '../../../extension/protocol/hive';
import { scvClientMessageSchemas } from '../../../extension/protocol/scvClientMessages';
import { PROTOCOL_DOC_FILES, clientMessageTable, readProtocolDocs, requiredKinds } from './traceCoverage';

const docs = readProtocolDocs();
const sorted = (names: Iterable<string>): string[] => [...names].sort();
const table = (key: keyof typeof docs) => clientMessageTable(docs[key], PROTOCOL_DOC_FILES[key]);

test('agency-proxy.md names every client frame type, decision and shutdown mode of our schemas', () => {
  assert.deepEqual(sorted(table('agencyProxy').map((r) => r.name)), sorted(ClientFrameSchema.options.map((o) => o.shape.type.value)));
  const kinds = requiredKinds(docs)['agency-proxy'];
  assert.deepEqual(kinds.filter((k) => k.startsWith('decide_approval:')), APPROVAL_DECISIONS.map((d) => `decide_approval:${d}`));
  assert.deepEqual(kinds.filter((k) => k.startsWith('shutdown:')), SHUTDOWN_MODES.map((m) => `shutdown:${m}`));
});

test('scv.md names every message our schemas write, plus session.attach marked "do not send"', () => {
  const rows = table('scv');
  assert.deepEqual(sorted(rows.filter((r) => r.required).map((r) => r.name)), sorted(Object.keys(scvClientMessageSchemas)));
  assert.deepEqual(rows.filter((r) => !r.required).map((r) => r.name), ['session.attach']);
});

test('a3s.md names every command action of our schemas', () => {
  assert.deepEqual(sorted(table('a3s').map((r) => r.name)), sorted(A3sCommandSchema.options.map((o) => o.shape.action.value)));
});

test('hive.md names every request of our schemas; the ones our client refuses are marked "agent only"', () => {
  const rows = table('hive');
  assert.deepEqual(sorted(rows.map((r) => r.name)), sorted(HiveRequest.options.map((o) => o.shape.cmd.value)));
  const agentOnly = rows.filter((r) => !r.required).map((r) => r.name);
  for (const cmd of HIVE_HARNESS_ONLY_CMDS) {
    assert.ok(agentOnly.includes(cmd), `${cmd} is refused by our client but not marked "agent only" in hive.md`);
  }
});

test('a page without a "## Client messages" table, or a decision row without its values, is an error', () => {
  const broken = { ...docs, scv: docs.scv.replace('## Client messages', '## Client frames') };
  assert.throws(() => requiredKinds(broken), /scv\.md has no "## Client messages" section/);
  const noValues = { ...docs, agencyProxy: docs.agencyProxy.replace('`decision`: one of', '`decision`:') };
  assert.throws(() => requiredKinds(noValues), /`decide_approval` row lists no/);
});

/**
 * Fuzz: A3S HTTP bodies. Random and mutated event pages, change sets, receipts and error bodies through the zod
 * schemas and the client's checks (`checkA3sEventPage`, `decodeA3sEvent`, `verifyA3sChangeSet`, `checkA3sReceipt`,
 * `a3sHttpErrorFrom`): each either passes or fails with an `A3sError` carrying a message — never another exception.
 * Strict base64 (re-encode check only) must accept exactly what the RFC 4648 alphabet rule plus the re-encode check
 * accept. Over HTTP, random answers reject with an A3sError, and an endless body is cut at the size bound while
 * memory stays flat. Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { A3sError, A3sTooLargeError } from '../../../extension/drivers/a3s/a3sErrors';
import { decodeStrictBase64 } from '../../../extension/changeSets/changeSetVerification';
import { verifyA3sChangeSet } from '../../../extension/drivers/a3s/changeSet';
import { A3sClient, a3sHttpErrorFrom } from '../../../extension/drivers/a3s/client';
import { checkA3sEventPage } from '../../../extension/drivers/a3s/eventPageCheck';
import { checkA3sReceipt } from '../../../extension/drivers/a3s/receiptCheck';
import { A3S_SCHEMA, buildRunIdentity, buildStartCommand, decodeA3sEvent } from '../../../extension/protocol/a3s';
import { a3sCommandDigest } from '../../../extension/drivers/a3s/commandDigest';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { FakeA3sServer } from '../drivers/a3s/fakeA3sServer';
import { Random, forEachCase, mutateText, suiteSeed } from './fuzzKit';

const SEED = suiteSeed(0xa35);
const CASES = Number(process.env.FUZZ_FRAMES ?? 100_000);
const identity = buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId: 'run-1' });

const record = (sequence: number, type = 'text_delta', payload: unknown = { text: 'x' }) => ({ sequence, occurred_at_ms: 5, event: { version: 1, type, payload } });
const PAGES: readonly { body: Record<string, unknown>; after: number | null }[] = [
  { after: null, body: { schema: A3S_SCHEMA.eventPage, identity, after_event_sequence: null, first_available_sequence: 0, latest_sequence_exclusive: 3, next_after_event_sequence: 2, state: 'executing', observed_at_ms: 1, retention_gap: false, has_more: false, events: [record(0, 'agent_start', {}), record(1), record(2, 'tool_start', { id: 't', name: 'bash' })] } },
  { after: 4, body: { schema: A3S_SCHEMA.eventPage, identity, after_event_sequence: 4, first_available_sequence: 0, latest_sequence_exclusive: 5, next_after_event_sequence: 4, state: 'completed', observed_at_ms: 1, retention_gap: false, has_more: false, events: [] } },
  { after: null, body: { schema: A3S_SCHEMA.eventPage, identity, after_event_sequence: null, first_available_sequence: 3, latest_sequence_exclusive: 5, next_after_event_sequence: 4, state: 'executing', observed_at_ms: 1, retention_gap: true, has_more: false, events: [record(3), record(4)] } },
];
const patch = Buffer.from('diff --git a/a.txt b/a.txt\nindex 1111111..2222222 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n');
const CHANGE_SET = {
  schema: A3S_SCHEMA.changeSet, identity, state: 'completed', format: 'git_unified_diff_v1', encoding: 'base64',
  base_tree: `git-tree:${'a'.repeat(40)}`, result_tree: `git-tree:${'b'.repeat(40)}`,
  patch_digest: `sha256:${createHash('sha256').update(patch).digest('hex')}`, patch_bytes: patch.length,
  patch_base64: patch.toString('base64'), observed_at_ms: 1,
};
const COMMAND = buildStartCommand('req-1', identity, 'do it');
const DIGEST = a3sCommandDigest(COMMAND);
const RECEIPT = { schema: A3S_SCHEMA.receipt, identity, request_id: 'req-1', action: 'start', command_digest: DIGEST, replayed: false, state: 'executing', observed_at_ms: 1 };

/** Calls `fn`; it may return or throw an A3sError with a message — anything else fails the case. */
function onlyA3sErrors(what: string, fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    assert.ok(error instanceof A3sError, `${what} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    assert.ok(error.message.length > 0);
    return false;
  }
}

function variant(random: Random, valid: unknown): unknown {
  if (random.chance(0.15)) {
    return random.json(4);
  }
  const text = mutateText(random, JSON.stringify(valid));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return random.json(3);
  }
}

test(`${CASES.toLocaleString('en-US')} random and mutated A3S bodies: pass or a clear A3sError, never a crash (seed ${SEED})`, () => {
  let passed = 0;
  let refused = 0;
  forEachCase('a3s bodies', SEED, CASES, (random) => {
    const count = (ok: boolean): void => void (ok ? passed++ : refused++);
    switch (random.int(0, 3)) {
      case 0: {
        const { body, after } = random.pick(PAGES);
        const value = variant(random, body);
        count(onlyA3sErrors('checkA3sEventPage', () => {
          const checked = checkA3sEventPage(value, identity, after, 64);
          checked.events.forEach((e) => decodeA3sEvent(e));
        }));
        break;
      }
      case 1:
        count(onlyA3sErrors('verifyA3sChangeSet', () => verifyA3sChangeSet(variant(random, CHANGE_SET), identity)));
        break;
      case 2:
        count(onlyA3sErrors('checkA3sReceipt', () => checkA3sReceipt(COMMAND, DIGEST, variant(random, RECEIPT))));
        break;
      default: {
        const json = variant(random, { schema: A3S_SCHEMA.error, error: { code: 'a3s.code.agent_protocol.run_not_found', message: 'no' } });
        const error = a3sHttpErrorFrom('POST', '/v1/agent/events:page', { status: random.pick([400, 404, 409, 425, 500, 503]), json });
        assert.ok(error.message.length > 0 && typeof error.code === 'string');
        passed++;
      }
    }
  });
  assert.ok(passed > CASES / 10 && refused > CASES / 10, `${passed} passed, ${refused} refused: the corpus exercises both`);
});

test(`strict base64: the re-encode check accepts exactly what alphabet + re-encode accept (seed ${SEED})`, () => {
  const reference = (text: string): Buffer | undefined => {
    if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
      return undefined;
    }
    const bytes = Buffer.from(text, 'base64');
    return bytes.toString('base64') === text ? bytes : undefined;
  };
  const alphabet = 'AQgw+/=_- \n\r\t.*é';
  forEachCase('strict base64', SEED + 1, 50_000, (random) => {
    let text: string;
    if (random.chance(0.5)) {
      text = random.bytes(random.int(0, 12)).toString('base64');
      const at = random.int(0, text.length);
      text = random.chance(0.7) ? text.slice(0, at) + random.pick([...alphabet]) + text.slice(at + (random.chance(0.5) ? 1 : 0)) : text;
    } else {
      text = Array.from({ length: random.int(0, 12) }, () => random.pick([...alphabet])).join('');
    }
    assert.deepEqual(decodeStrictBase64(text), reference(text), JSON.stringify(text));
  });
});

test(`random HTTP answers reject with an A3sError; an endless body is cut at the bound with flat memory (seed ${SEED})`, async () => {
  let next: { status: number; body?: unknown; raw?: string | Buffer; chunked?: boolean } = { status: 200, body: {} };
  const server = new FakeA3sServer(() => next);
  const client = new A3sClient({ baseUrl: await server.start(), requestTimeoutMs: 5_000 });
  try {
    let seen = 0;
    const r = new Random(SEED + 2);
    for (let i = 0; i < 200; i++) {
      const page = r.pick(PAGES);
      next = r.chance(0.5)
        ? { status: r.pick([200, 200, 400, 404, 425, 500, 503]), body: variant(r, page.body) }
        : { status: r.pick([200, 500]), raw: r.chance(0.5) ? mutateText(r, JSON.stringify(page.body)) : r.bytes(r.int(0, 200)) };
      try {
        await client.eventPage(identity, page.after);
      } catch (error) {
        assert.ok(error instanceof A3sError, `case ${i} (seed ${SEED}): ${String(error)}`);
        seen++;
      }
    }
    assert.ok(seen > 50);
    // 64 MiB, no content-length: cut at the change-set bound (5.7 MB) while it streams.
    next = { status: 200, raw: Buffer.alloc(64 * 1024 * 1024, 0x20), chunked: true };
    const before = process.memoryUsage();
    await assert.rejects(client.changeSetRaw(identity), (error: unknown) => error instanceof A3sTooLargeError);
    const after = process.memoryUsage();
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    assert.ok(grown < 24 * 1024 * 1024, `memory grew by ${(grown / 1048576).toFixed(1)} MiB`);
  } finally {
    client.dispose();
    await server.stop();
  }
});

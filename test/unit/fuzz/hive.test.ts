/**
 * Fuzz: hyperhive responses. 100k random and mutated response values through `parseHiveResponse` (never throws; a
 * known kind that does not parse keeps its raw JSON and a readable error), and over a real mcp.sock: random bytes,
 * garbage lines, cut-off lines and a line that never ends make `HiveClient` fail with a typed HiveError — the
 * endless line as soon as it passes the line limit, with memory flat. Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { HiveClient } from '../../../extension/drivers/hive/client';
import { HiveError, HiveProtocolError } from '../../../extension/drivers/hive/hiveErrors';
import { parseHiveResponse } from '../../../extension/protocol/hive';
import { Random, forEachCase, mutateText, suiteSeed } from './fuzzKit';

const SEED = suiteSeed(0x41e);
const CASES = Number(process.env.FUZZ_FRAMES ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'fzh-'));
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 20 }));

const CORPUS: readonly unknown[] = [
  { kind: 'ok' },
  { kind: 'err', message: 'privileged variant only on the manager socket' },
  { kind: 'status', unread: 3 },
  { kind: 'recent', rows: [{ id: 1, from: 'alice', body: 'hi', at: 1700000000 }] },
  { kind: 'loose_ends', loose_ends: [{ kind: 'question', id: 7, question: 'ok?', asker: 'bob' }, { kind: 'todo', id: 8, text: 'x' }] },
  { kind: 'agent_meta', name: 'iris', running: true, matrix_accounts: [] },
  { kind: 'logs', content: 'line 1\nline 2' },
  { kind: 'schedules', schedules: [{ id: 1, body: 'ping', targets: ['iris'] }] },
  { kind: 'containers', containers: [{ name: 'iris', running: true }] },
  { kind: 'reminder_rollup', sent: 1, acked: 2 },
  { kind: 'question_queued', id: 12 },
];

test(`${CASES.toLocaleString('en-US')} random and mutated hive responses: never throws, clear errors (seed ${SEED})`, () => {
  let ok = 0;
  let refused = 0;
  forEachCase('hive responses', SEED, CASES, (random) => {
    let value: unknown;
    if (random.chance(0.3)) {
      value = random.json(4);
    } else {
      try {
        value = JSON.parse(mutateText(random, JSON.stringify(random.pick(CORPUS))));
      } catch {
        value = random.json(3);
      }
    }
    const reply = parseHiveResponse(value);
    if (reply.ok) {
      ok++;
      assert.equal(typeof reply.response.kind, 'string');
    } else {
      refused++;
      assert.ok(reply.error.length > 0);
      assert.equal(reply.raw, value, 'the raw JSON is kept for display');
    }
  });
  assert.ok(ok > CASES / 20 && refused > CASES / 10, `${ok} parsed, ${refused} refused`);
});

/** A fake mcp.sock that answers every request with `answer` (bytes, written in random pieces). */
async function fakeSocket(name: string, answer: (socket: net.Socket) => void): Promise<{ path: string; close(): Promise<void> }> {
  const path = join(dir, name);
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test(`garbage on the socket fails the request with a typed HiveError (seed ${SEED})`, async () => {
  const random = new Random(SEED + 1);
  for (let round = 0; round < 60; round++) {
    const kind = random.int(0, 3);
    const payload = kind === 0
      ? random.bytes(random.int(1, 200))
      : kind === 1
        ? Buffer.from(`${mutateText(random, JSON.stringify(random.pick(CORPUS)))}\n`)
        : kind === 2
          ? Buffer.from(JSON.stringify(random.pick(CORPUS)).slice(0, random.int(0, 10)))
          : Buffer.from(`${JSON.stringify(random.json(3))}\n`);
    const fake = await fakeSocket(`g${round}.sock`, (socket) => {
      socket.end(payload);
    });
    const client = new HiveClient({ socketPath: fake.path, role: 'manager', timeoutMs: 2_000, readRetries: 0 });
    try {
      await client.status().then(
        (unread) => assert.equal(typeof unread, 'number'),
        (error: unknown) => assert.ok(error instanceof HiveError, `round ${round} (seed ${SEED}): ${String(error)}`),
      );
    } finally {
      await fake.close();
    }
  }
});

test('a response line that never ends is refused at the line limit; memory stays flat', async () => {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const fake = await fakeSocket('endless.sock', (socket) => {
    const pump = (): void => {
      while (!socket.destroyed && sent < 256 * 1024 * 1024) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  const client = new HiveClient({ socketPath: fake.path, role: 'manager', timeoutMs: 10_000, maxLineBytes: 1024 * 1024, readRetries: 0 });
  const before = process.memoryUsage();
  try {
    await assert.rejects(client.status(), (error: unknown) => error instanceof HiveProtocolError && /exceeds/.test(error.message));
    const afterUsage = process.memoryUsage();
    const grown = afterUsage.heapUsed + afterUsage.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    assert.ok(grown < 16 * 1024 * 1024, `memory grew by ${(grown / 1048576).toFixed(1)} MiB`);
    assert.ok(sent < 64 * 1024 * 1024, `the client stopped reading early (the daemon got ${sent} bytes out)`);
  } finally {
    await fake.close();
  }
});

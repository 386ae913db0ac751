/**
 * The fake hive's broker really pops and acks: without this, "recv counters stay 0" in the guard tests would prove
 * nothing. Uses the raw exchange (no client guard) on purpose, acting as the agent's harness.
 */
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { hiveExchange } from '../../../extension/drivers/hive/hiveExchange';
import { noFrameTap } from '../../../extension/transport/frameTap';
import { FakeHive } from '../../fixtures/hive/hive';
import { withHive } from './hiveTestKit';

type Json = Record<string, unknown>;

async function raw(hive: FakeHive, principal: string, request: { cmd: string } & Json): Promise<Json> {
  return (await hiveExchange(hive.socketPath(principal), request, { timeoutMs: 5000, maxLineBytes: 1 << 20, frameTap: noFrameTap })) as Json;
}

describe('fake hive-c0re: broker lease cycle', () => {
  it('recv pops pending messages, ack_turn acks them, requeue_inflight redelivers', () =>
    withHive(async ({ hive }) => {
      const first = await raw(hive, 'iris', { cmd: 'recv', wait_seconds: 0, max: 1 });
      assert.equal(first['kind'], 'messages');
      assert.deepEqual((first['messages'] as Json[]).map((m) => m['id']), [403]);
      assert.equal(first['remaining'], 1);
      assert.equal(hive.callCount('iris', 'recv'), 1);
      assert.deepEqual(await raw(hive, 'iris', { cmd: 'status' }), { kind: 'status', unread: 1 });

      assert.deepEqual(await raw(hive, 'iris', { cmd: 'requeue_inflight' }), { kind: 'ok' });
      const again = await raw(hive, 'iris', { cmd: 'recv', wait_seconds: 0 });
      // 402 was seeded as delivered-but-unacked (in flight), so it comes back too.
      assert.deepEqual((again['messages'] as Json[]).map((m) => [m['id'], m['redelivered']]), [[402, true], [403, true], [404, false]]);
      await raw(hive, 'iris', { cmd: 'ack_turn' });
      assert.ok(hive.inbox('iris').every((m) => m.state === 'acked'));
      const late = hive.inject('iris', 'ruth', 'late');
      assert.deepEqual(await raw(hive, 'iris', { cmd: 'ack_until', up_to: late }), { kind: 'acked', count: 1 });
      assert.deepEqual(await raw(hive, 'iris', { cmd: 'ack_until', up_to: late }), { kind: 'acked', count: 0 }, 'idempotent');
    }));

  it('recv long-polls until a message arrives', () =>
    withHive(async ({ hive }) => {
      await raw(hive, 'ruth', { cmd: 'recv', wait_seconds: 0 });
      const started = Date.now();
      setTimeout(() => hive.inject('ruth', 'iris', 'late'), 100);
      const reply = await raw(hive, 'ruth', { cmd: 'recv', wait_seconds: 10 });
      assert.deepEqual((reply['messages'] as Json[]).map((m) => m['body']), ['late']);
      assert.ok(Date.now() - started < 1500);
    }));

  it('graceful stop fences recv', () =>
    withHive(async ({ hive }) => {
      hive.requestGracefulStop('ruth');
      assert.deepEqual(await raw(hive, 'ruth', { cmd: 'recv', wait_seconds: 0 }), { kind: 'graceful_stop' });
      await raw(hive, 'ruth', { cmd: 'graceful_stop_complete' });
      assert.equal(hive.state.principals.get('ruth')?.running, false);
    }));

  it('gates privileged variants, rejects unknown commands and bad JSON', () =>
    withHive(async ({ hive }) => {
      const gated = await raw(hive, 'otto', { cmd: 'list_schedules' });
      assert.equal(gated['kind'], 'err');
      assert.match(String(gated['message']), /^privileged variant/);
      assert.equal((await raw(hive, 'manager', { cmd: 'list_schedules' }))['kind'], 'schedules');
      assert.equal((await raw(hive, 'iris', { cmd: 'teleport' }))['kind'], 'err');
      assert.equal((await raw(hive, 'iris', { cmd: 'mark_todo_done', id: 'x' }))['kind'], 'err');
    }));

  it('todos: keyed upsert dedupes, clear_todo clears', () =>
    withHive(async ({ hive }) => {
      const before = hive.inbox('ruth').length;
      await raw(hive, 'ruth', { cmd: 'upsert_todo', subsystem: 'forge', key: 'pr-7', summary: 'address review comments on PR #7', source: 'forge' });
      assert.equal(hive.inbox('ruth').length, before, 'identical keyed todo: no wake');
      await raw(hive, 'ruth', { cmd: 'upsert_todo', subsystem: 'forge', key: 'pr-8', summary: 'new PR' });
      assert.equal(hive.inbox('ruth').length, before + 1);
      await raw(hive, 'ruth', { cmd: 'clear_todo', subsystem: 'forge', all: true });
      assert.deepEqual((await raw(hive, 'ruth', { cmd: 'list_todos' }))['loose_ends'], []);
    }));
});

describe('fake hive-c0re: directory handling', () => {
  it('serves in a given directory and removes only what it created', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'hvd-'));
    try {
      await fs.writeFile(path.join(root, 'keep.txt'), 'mine');
      const hive = new FakeHive({ dir: root });
      await hive.start();
      assert.equal(hive.managerSocket, path.join(root, 'manager', 'mcp.sock'));
      assert.equal((await fs.stat(hive.agentSocket('otto'))).isSocket(), true);
      assert.equal((await raw(hive, 'otto', { cmd: 'get_agent_meta' }))['running'], false);
      await hive.stop();
      assert.deepEqual(await fs.readdir(root), ['keep.txt']);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

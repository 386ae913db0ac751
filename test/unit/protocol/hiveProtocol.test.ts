import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HiveRequest, parseHiveResponse, parseLooseEnd, pickTime } from '../../../extension/protocol/hive';
import type { HiveResponse, HiveResponseKind } from '../../../extension/protocol/hive';

function known(value: unknown, kind: HiveResponseKind): HiveResponse {
  const reply = parseHiveResponse(value);
  assert.ok(reply.ok, `expected ${kind} to parse: ${reply.ok ? '' : reply.error}`);
  assert.equal(reply.response.kind, kind);
  return reply.response;
}

describe('hive protocol: requests', () => {
  it('accepts the spec examples and encodes them unchanged', () => {
    for (const line of [
      '{"cmd":"recv","wait_seconds":30,"max":8}',
      '{"cmd":"send","to":"iris","body":"hi","in_reply_to":411}',
      '{"cmd":"ask","question":"deploy?","options":["yes","no"],"multi":false,"to":"operator"}',
      '{"cmd":"status"}',
      '{"cmd":"request_schedule_prompt","body":"standup","interval_seconds":86400,"targets":["iris"]}',
    ]) {
      const parsed = HiveRequest.safeParse(JSON.parse(line));
      assert.ok(parsed.success, line);
      assert.equal(JSON.stringify(parsed.data), line);
    }
  });

  it('is strict about what is sent: unknown keys, floats, negatives, missing fields', () => {
    assert.equal(HiveRequest.safeParse({ cmd: 'status', extra: 1 }).success, false);
    assert.equal(HiveRequest.safeParse({ cmd: 'mark_todo_done', id: 1.5 }).success, false);
    assert.equal(HiveRequest.safeParse({ cmd: 'recent', limit: -1 }).success, false);
    assert.equal(HiveRequest.safeParse({ cmd: 'get_logs' }).success, false);
    assert.equal(HiveRequest.safeParse({ cmd: 'get_host_journal', lines: 101 }).success, false);
    assert.equal(HiveRequest.safeParse({ cmd: 'nope' }).success, false);
    // The flattened schedule payload passes unknown (unverified) fields through.
    const flat = HiveRequest.safeParse({ cmd: 'request_schedule_prompt', body: 'x', model: 'opus' });
    assert.ok(flat.success);
    assert.equal((flat.data as Record<string, unknown>)['model'], 'opus');
  });
});

describe('hive protocol: responses', () => {
  it('parses the spec examples', () => {
    const messages = known({ kind: 'messages', messages: [{ id: 412, from: 'ruth', body: 'ping', redelivered: false }], remaining: 0 }, 'messages');
    assert.deepEqual(messages.kind === 'messages' && messages.messages, [{ ok: true, value: { id: 412, from: 'ruth', body: 'ping', redelivered: false } }]);
    const err = known({ kind: 'err', message: 'privileged variant...' }, 'err');
    assert.equal(err.kind === 'err' && err.message, 'privileged variant...');
  });

  it('agent_meta: running defaults to true, matrix_accounts to [] and bad accounts fall back to raw', () => {
    const meta = known({ kind: 'agent_meta', name: 'iris' }, 'agent_meta');
    assert.ok(meta.kind === 'agent_meta');
    assert.equal(meta.running, true);
    assert.deepEqual(meta.matrix_accounts, []);
    const stopped = known({ kind: 'agent_meta', name: 'otto', running: false, matrix_accounts: [{ user_id: '@o:x', extra: 1 }, 7] }, 'agent_meta');
    assert.ok(stopped.kind === 'agent_meta');
    assert.equal(stopped.running, false);
    assert.deepEqual(stopped.matrix_accounts[0], { ok: true, value: { user_id: '@o:x', extra: 1 } });
    assert.equal(stopped.matrix_accounts[1]?.ok, false);
    assert.deepEqual(stopped.matrix_accounts[1]?.ok === false && stopped.matrix_accounts[1].raw, 7);
  });

  it('reminder_rollup is flattened and keeps unknown counters', () => {
    const rollup = known({ kind: 'reminder_rollup', scheduled: 3, delivered: 1, pending: 2, overdue: 1 }, 'reminder_rollup');
    assert.ok(rollup.kind === 'reminder_rollup');
    assert.equal(rollup.pending, 2);
    assert.equal(rollup['overdue'], 1);
  });

  it('keeps extra fields and degrades single bad elements to raw', () => {
    const recent = known(
      { kind: 'recent', rows: [{ id: 1, from: 'a', body: 'b', sent_at: 10, mood: 'ok' }, { sender: 'x', text: 'y' }], extra: true },
      'recent',
    );
    assert.ok(recent.kind === 'recent');
    const [good, bad] = recent.rows;
    assert.ok(good?.ok);
    assert.equal(good.value['mood'], 'ok');
    assert.equal(pickTime(good.value), 10);
    assert.ok(bad && !bad.ok);
    assert.deepEqual(bad.raw, { sender: 'x', text: 'y' });
    assert.match(bad.error, /from/);
    assert.equal(recent['extra'], true);
  });

  it('an unknown kind or a malformed known kind yields ok:false with the raw JSON', () => {
    const unknown = parseHiveResponse({ kind: 'brand_new', stuff: [1] });
    assert.equal(unknown.ok, false);
    assert.ok(!unknown.ok);
    assert.equal(unknown.kind, 'brand_new');
    assert.deepEqual(unknown.raw, { kind: 'brand_new', stuff: [1] });
    const malformed = parseHiveResponse({ kind: 'status', unread: 'many' });
    assert.ok(!malformed.ok);
    assert.equal(malformed.kind, 'status');
    const noKind = parseHiveResponse([1, 2]);
    assert.ok(!noKind.ok);
    assert.equal(noKind.kind, undefined);
  });
});

describe('hive protocol: loose ends', () => {
  it('accepts internal kind/type tags and serde external tagging', () => {
    const internal = parseLooseEnd({ kind: 'question', id: 3, question: 'q?', asker: 'iris', age_seconds: 5, asked_at: 1 });
    assert.ok(internal.ok && internal.value.kind === 'question');
    assert.equal(internal.value.question, 'q?');
    assert.equal(internal.value['asked_at'], 1);
    const typed = parseLooseEnd({ type: 'todo', id: 4, summary: 's' });
    assert.ok(typed.ok && typed.value.kind === 'todo');
    const external = parseLooseEnd({ approval: { id: 5, agent: 'iris', kind: 'init_config', commit_ref: 'abc' } });
    assert.ok(external.ok && external.value.kind === 'approval');
    assert.equal(external.value['inner_kind'], 'init_config');
  });

  it('unknown tags become kind "other"; untagged or malformed ones stay raw', () => {
    const other = parseLooseEnd({ kind: 'merge_window', id: 9, opens_at: 1 });
    assert.ok(other.ok && other.value.kind === 'other');
    assert.equal(other.value.tag, 'merge_window');
    assert.equal(other.value.id, 9);
    const untagged = parseLooseEnd({ mystery: 42, shape: [] });
    assert.ok(!untagged.ok);
    assert.deepEqual(untagged.raw, { mystery: 42, shape: [] });
    const malformed = parseLooseEnd({ kind: 'question', id: 'x' });
    assert.ok(!malformed.ok);
    assert.equal(parseLooseEnd('text').ok, false);
  });
});

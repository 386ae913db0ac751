/** SCV client messages: the builders' canonical frames, their validation, and every daemon.control action. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as m from '../../../extension/protocol/scvClientMessages';
import { DAEMON_ACTIONS } from '../../../extension/protocol/scvDaemonControl';
import type { DaemonCommand } from '../../../extension/protocol/scvDaemonControl';

describe('SCV client messages', () => {
  it('builds canonical frames with string ids and no unset options', () => {
    assert.equal(
      JSON.stringify(m.buildInitialize('1', 3, { name: 'agent-switchboard', version: '0.1.0' })),
      '{"type":"initialize","request_id":"1","protocol_version":3,"client":{"name":"agent-switchboard","version":"0.1.0"}}',
    );
    assert.equal(
      JSON.stringify(m.buildSessionStart('2', { cwd: '/w', model: undefined, provider: 'p' })),
      '{"type":"session.start","request_id":"2","cwd":"/w","provider":"p"}',
    );
    assert.equal(
      JSON.stringify(m.buildTurnStart('3', 's1', 'Fix it.')),
      '{"type":"turn.start","request_id":"3","session_id":"s1","prompt":"Fix it."}',
    );
    assert.equal(
      JSON.stringify(m.buildTurnStart('3', 's1', '', [{ kind: 'file', path: '/f', name: '', mime: 'text/plain', size: 1 }])),
      '{"type":"turn.start","request_id":"3","session_id":"s1","prompt":"","attachments":[{"kind":"file","path":"/f","mime":"text/plain","size":1}]}',
    );
    assert.equal(
      JSON.stringify(m.buildQueueMove('5', 's1', 'q2', 3, null)),
      '{"type":"queue.move","request_id":"5","session_id":"s1","queue_id":"q2","revision":3,"before_queue_id":null}',
    );
    assert.equal(
      JSON.stringify(m.buildApprovalResolve('6', 's1', 'a1', true)),
      '{"type":"approval.resolve","request_id":"6","session_id":"s1","approval_id":"a1","approved":true}',
    );
    assert.equal(
      JSON.stringify(m.buildDaemonControl('d1', { action: 'delegation_kill', handle: undefined, orphans: true })),
      '{"type":"daemon.control","request_id":"d1","command":{"action":"delegation_kill","orphans":true}}',
    );
  });

  it('every builder output validates, and every message type has a builder', () => {
    const built: m.ScvClientMessage[] = [
      m.buildInitialize('1', 3, { name: 'n', version: 'v' }),
      m.buildDaemonControl('2', { action: 'status' }),
      m.buildSessionStart('3', { cwd: '/w', no_tools: true, system_prompt: 'x', chat: { channel: 'c', account: 'a', conversation: 'v' } }),
      m.buildTurnStart('4', 's', 'p'),
      m.buildQueueUpdate('5', 's', 'q', 1, 'p'),
      m.buildQueueMove('6', 's', 'q', 1, 'q0'),
      m.buildQueueRemove('7', 's', 'q', 1),
      m.buildSessionPause('8', 's', true),
      m.buildTurnCancel('9', 's', 't'),
      m.buildApprovalResolve('10', 's', 'a', false),
      m.buildSessionClear('11', 's'),
    ];
    assert.deepEqual(built.map((b) => b.type).sort(), Object.keys(m.scvClientMessageSchemas).sort());
    for (const message of built) {
      assert.equal(m.validateScvClientMessage(message), undefined, message.type);
      assert.equal(typeof message.request_id, 'string');
      assert.ok(!JSON.stringify(message).includes('null') || message.type === 'queue.move' || message.type === 'daemon.control');
    }
    assert.equal('session.attach' in m.scvClientMessageSchemas, false);
  });

  it('builds and validates every daemon.control action', () => {
    const commands: DaemonCommand[] = [
      { action: 'status' },
      { action: 'reload' },
      { action: 'channel_set', channel: 'telegram', account: 'a', enabled: true, workspace: null, senders: 'owner' },
      { action: 'channel_logout', channel: 'telegram', account: 'a' },
      { action: 'delegations', all: true },
      { action: 'delegation_kill', handle: 'h' },
      { action: 'restart_when_idle', version: '0.3.15', commit: 'abc', max_wait_seconds: 60 },
      { action: 'confirm_ask', question: 'Deploy?', timeout_seconds: 600 },
      { action: 'confirm_status', id: 'c1' },
    ];
    assert.deepEqual(commands.map((c) => c.action), [...DAEMON_ACTIONS]);
    for (const command of commands) {
      assert.equal(m.validateScvClientMessage(m.buildDaemonControl('d', command)), undefined, command.action);
    }
    const json = JSON.stringify(m.buildDaemonControl('d', commands[2]!));
    assert.match(json, /"workspace":null/);
  });

  it('rejects values a Rust peer would refuse', () => {
    assert.match(m.validateScvClientMessage(m.buildQueueUpdate('1', 's', 'q', 1.5, 'p')) ?? '', /revision/);
    assert.match(m.validateScvClientMessage(m.buildQueueRemove('1', 's', 'q', -1)) ?? '', /revision/);
    const tooMany = Array.from({ length: 17 }, () => ({ kind: 'file', path: '/f', name: '', mime: '', size: 1 }));
    assert.match(m.validateScvClientMessage(m.buildTurnStart('1', 's', 'p', tooMany)) ?? '', /attachments/);
  });
});

/**
 * The reference SCV daemon's zero-delay timing mode (`sameWrite`): each answer and the events that follow it go out
 * in one socket write, as from a daemon that answers within a millisecond. Against it, a decided approval must
 * still end as decided with the user's decision (not "expired" by the turn's terminal event).
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { describe, it } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { ApprovalDecision } from '../../../../extension/protocol/transcriptTypes';
import { until } from '../driverKit';
import { CONNECTION, connected, items, run, scvDriverSetup, turns } from './scvDriverKit';
import { startDaemon } from './scvDaemonKit';

/** A raw client that keeps each chunk the socket delivered, as parsed frames. */
async function chunkedConnection(socketPath: string): Promise<{ chunks: Record<string, unknown>[][]; send(frame: unknown): void; close(): void }> {
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const s = net.createConnection(socketPath, () => resolve(s));
    s.once('error', reject);
  });
  const chunks: Record<string, unknown>[][] = [];
  let rest = '';
  socket.on('data', (data: Buffer) => {
    const text = rest + data.toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop()!;
    chunks.push(lines.map((l) => JSON.parse(l) as Record<string, unknown>));
  });
  return { chunks, send: (frame) => socket.write(JSON.stringify(frame) + '\n'), close: () => socket.destroy() };
}

const types = (chunk: readonly Record<string, unknown>[]): unknown[] => chunk.map((f) => f['type']);

describe('SCV reference daemon in sameWrite mode', () => {
  it('sends the answer and every follow-up event of the tick in one write', async () => {
    const h = await startDaemon({ sameWrite: true });
    const c = await chunkedConnection(h.socketPath);
    try {
      const chunkWith = (type: string): Promise<Record<string, unknown>[]> =>
        until(type, () => c.chunks.find((chunk) => chunk.some((f) => f['type'] === type)), 3_000);
      c.send({ type: 'initialize', request_id: '1', protocol_version: 3, client: { name: 'raw', version: '0' } });
      await chunkWith('initialized');
      c.send({ type: 'session.start', request_id: '2', cwd: h.dir });
      assert.deepEqual(types(await chunkWith('session.started')), ['session.started', 'queue.snapshot']);
      c.send({ type: 'turn.start', request_id: '3', session_id: 's1', prompt: 'use a tool' });
      const untilApproval = await chunkWith('approval.requested');
      assert.deepEqual(types(untilApproval).slice(0, 2), ['turn.started', 'assistant.delta']);
      assert.equal(types(untilApproval).at(-1), 'approval.requested');
      const approval = untilApproval.at(-1)!;
      c.send({ type: 'approval.resolve', request_id: '4', session_id: 's1', approval_id: approval['approval_id'], approved: true });
      const rest = await chunkWith('turn.completed');
      assert.equal(rest[0]!['type'], 'tool.started', 'the chunk starts with the first event after the decision');
      assert.ok(['tool.completed', 'assistant.completed'].every((t) => types(rest).includes(t)), types(rest).join(' '));
      assert.equal(types(rest).at(-1), 'turn.completed');
    } finally {
      c.close();
      await h.cleanup();
    }
  });

  for (const decision of ['allow_once', 'deny'] as const satisfies readonly ApprovalDecision[]) {
    it(`a decided approval (${decision}) ends as decided with that decision, 5 times in a row`, async () => {
      const s = await scvDriverSetup({ sameWrite: true });
      try {
        const runId = await connected(s);
        for (let round = 1; round <= 5; round++) {
          await s.driver.sendMessage(runId, `use a tool, round ${round}`);
          const approvalId = await until(`round ${round}: approval`, () => run(s, runId).pendingApprovals[0]);
          await s.driver.decideApproval(runId, approvalId, decision);
          await until(`round ${round}: turn done`, () => turns(s, runId, 'completed') === round);
          const approval = s.store.state.approvals.get(`${runKeyOf(CONNECTION, runId)}::${approvalId}`);
          assert.equal(approval?.status, 'decided', `round ${round}: ${JSON.stringify(approval)}`);
          assert.equal(approval?.decision, decision, `round ${round}`);
          const card = items(s, runId).find((i) => i.kind === 'approval' && i.approvalId === approvalId);
          assert.ok(card?.kind === 'approval' && card.status === 'decided' && card.decision === decision, `round ${round}: ${JSON.stringify(card)}`);
          const tool = items(s, runId).filter((i) => i.kind === 'tool').at(-1);
          assert.ok(tool?.kind === 'tool' && tool.status === (decision === 'deny' ? 'failed' : 'succeeded'), JSON.stringify(tool));
        }
        assert.equal(run(s, runId).state, 'idle');
      } finally {
        await s.cleanup();
      }
    });
  }
});

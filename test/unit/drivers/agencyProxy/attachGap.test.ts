/**
 * A run another client acknowledged before this editor stored its events (WIRE.md §6.1 step 4): the events up to
 * `acknowledgedSequence` are gone, and the transcript shows that as ONE gap item, whatever the timing: the replayed
 * events may arrive in the same chunk as the attach snapshot (and be folded before the attach continues) or later.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { ReferenceAgencyProxyOptions } from '../../../fixtures/agencyProxy/daemon';
import { driverSetup, quietLog, until } from '../driverKit';
import { collectUntil, isTerminalEvent, startDaemon } from './agencyProxyKit';

const TIMINGS: [string, Partial<ReferenceAgencyProxyOptions>][] = [
  ['default timing', {}],
  ['snapshot and replay in the same write', { sameWrite: true }],
];

for (const [name, timing] of TIMINGS) {
  describe(`attach after another client's ack (${name})`, () => {
    it('records one gap for the acknowledged events, then the rest of the run exactly once', async () => {
      const fx = await startDaemon(timing);
      const { store, connectionId, ctx } = driverSetup({ name: 'gap', protocol: 'agency-proxy', socketPath: fx.socketPath },
        path.join(fx.dir, 'storage'), { log: quietLog });
      const driver = new AgencyProxyDriver(ctx);
      try {
        const other = await fx.connect();
        for (const [runId, ackThrough] of [['partly-acked', 10], ['all-acked', Number.MAX_SAFE_INTEGER]] as const) {
          const done = collectUntil(other, runId, isTerminalEvent);
          await other.startRun(runId, {
            provider: 'claude', prompt: 'long:30 notools', permission: 'edit', approvals: false, interactive: false, workspaceRoots: [],
          });
          await other.attachRun(runId, 0);
          await done;
          await other.ackEvents(runId, ackThrough);
        }
        const latest = (runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)!.latestSequence;

        await driver.connect();
        for (const [runId, ackedTo] of [['partly-acked', 10], ['all-acked', latest('all-acked')]] as const) {
          const key = runKeyOf(connectionId, runId);
          await until(`${runId} caught up`, () => store.state.runs.get(key)?.lastSequence === latest(runId));
          const items = store.transcript(key)!.snapshot();
          const gaps = items.filter((i) => i.kind === 'gap');
          assert.equal(gaps.length, 1, `${runId}: one gap item, got ${JSON.stringify(gaps)}`);
          assert.ok(gaps[0]!.kind === 'gap' && gaps[0]!.from === 1 && gaps[0]!.to === ackedTo, JSON.stringify(gaps[0]));
        }
        const partly = store.transcript(runKeyOf(connectionId, 'partly-acked'))!.snapshot();
        const text = partly.map((i) => (i.kind === 'text' ? i.text : '')).join('');
        // long:30 streams "chunk 1 " … "chunk 30"; the text events after sequence 10 are all there, once each.
        assert.equal((text.match(/chunk \d+/g) ?? []).length, new Set(text.match(/chunk \d+/g)).size, 'nothing doubled');
      } finally {
        await driver.dispose();
        await fx.cleanup();
      }
    });
  });
}

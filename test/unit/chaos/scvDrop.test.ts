/**
 * Chaos: the SCV socket is cut mid-turn (a proxy between the driver and the reference daemon drops the connection)
 * at seeded moments — while the answer streams (after a seeded number of its parts) or while a tool waits for
 * approval (a seeded while after the card came); the drops alternate between the two, the phase each one hit is
 * read from what the driver had shown at the cut, and both phases must have been hit. Each time the session must end
 * as `interrupted` with its transcript kept exactly as far as it arrived (text items equal what the wire carried),
 * its approvals expired, and the driver must reconnect with a new session in its place (WIRE.md 6.2) that runs
 * nothing by itself (the cut-off prompt is never resent).
 * Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ScvDriver } from '../../../extension/drivers/scv/scvDriver';
import { scvSessionIdOf } from '../../../extension/drivers/scv/scvSessionBook';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { ScvReferenceDaemon } from '../../fixtures/scv/daemon';
import { driverSetup, quietLog, until } from '../drivers/driverKit';
import { Random, suiteSeed } from '../fuzz/fuzzKit';
import { FlakyProxy } from './flakyProxy';

const SEED = suiteSeed(0x5c0d);
const DROPS = 6;
/** The `slow` turn streams this many parts ("thinking k/5… "), then the `tool` asks for approval (test/fixtures/scv/turnScript.ts). */
const SLOW_PARTS = 5;

type Phase = 'streaming' | 'approval' | 'other';

/** Where the turn stood in what the driver had shown when the socket was cut. */
function phaseOf(items: readonly TranscriptItem[], pendingApprovals: number): Phase {
  if (pendingApprovals > 0 && items.some((i) => i.kind === 'approval' && i.status === 'pending')) {
    return 'approval';
  }
  return items.some((i) => i.kind === 'text' && i.streaming) ? 'streaming' : 'other';
}

interface WireFrame {
  readonly type?: string;
  readonly session_id?: string;
  readonly turn_id?: string;
  readonly content?: string;
}

/** The text items a turn (turn ids repeat across sessions) should show, from the frames that arrived: deltas grow one, `completed` replaces and closes it. */
function expectedTexts(frames: readonly WireFrame[], sessionId: string, turnId: string): string[] {
  const texts: string[] = [];
  let open = false;
  for (const frame of frames) {
    if (frame.session_id !== sessionId || frame.turn_id !== turnId) {
      continue;
    }
    if (frame.type === 'assistant.delta' && frame.content !== undefined && frame.content !== '') {
      if (open) {
        texts[texts.length - 1] += frame.content;
      } else {
        texts.push(frame.content);
        open = true;
      }
    } else if (frame.type === 'assistant.completed' && frame.content !== undefined) {
      if (open) {
        texts[texts.length - 1] = frame.content;
      } else if (frame.content !== '') {
        texts.push(frame.content);
      }
      open = false;
    } else if (frame.type?.startsWith('tool.') || frame.type === 'approval.requested') {
      open = false;
    }
  }
  return texts;
}

test(`SCV socket dropped mid-turn at ${DROPS} seeded moments: interrupted, transcript kept, no silent new session (seed ${SEED})`, { timeout: 60_000 }, async () => {
  const random = new Random(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'scvc-'));
  const workspace = join(dir, 'project');
  mkdirSync(workspace);
  const daemonPath = join(dir, 'daemon.sock');
  const proxyPath = join(dir, 'proxy.sock');
  const daemon = new ScvReferenceDaemon({ socketPath: daemonPath, stepDelayMs: 5, slowTurnMs: 300 });
  await daemon.start();
  const proxy = new FlakyProxy({ path: proxyPath }, { path: daemonPath });
  await proxy.comeBack();
  const frames: WireFrame[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'chaos', protocol: 'scv', socketPath: proxyPath }, join(dir, 'storage'), {
    log: quietLog,
    workspaceFolder: workspace,
    tap: (dir2, frame) => {
      if (dir2 === 'in') {
        frames.push(frame as WireFrame);
      }
    },
  });
  const driver = new ScvDriver(ctx, { reconnectBaseMs: 50 });
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    let runId = await until('a session', () => driver.liveSessionRunId);
    const hit: { target: Phase; phase: Phase }[] = [];
    for (let drop = 1; drop <= DROPS; drop++) {
      const key = runKeyOf(connectionId, runId);
      const items = () => store.transcript(key)?.snapshot() ?? [];
      await driver.sendMessage(runId, `slow tool, drop ${drop}`);
      const turnItem = await until(`drop ${drop}: the turn starts`, () => items().find((i) => i.kind === 'turn' && i.phase === 'started' && !items().some((j) => j.kind === 'notice' && j.state === 'interrupted')));
      const turnId = turnItem.kind === 'turn' ? turnItem.turnId : '';
      const target: Phase = drop % 2 === 1 ? 'streaming' : 'approval';
      const pending = (): number => store.state.runs.get(key)?.pendingApprovals.length ?? 0;
      if (target === 'streaming') {
        // Cut right after a seeded part arrived: no wait between seeing it and the cut, so the answer still streams.
        const part = `thinking ${random.int(1, SLOW_PARTS)}/${SLOW_PARTS}`;
        await until(`drop ${drop}: "${part}" streaming`, () => pending() === 0 && items().some((i) => i.kind === 'text' && i.streaming && i.text.includes(part)));
      } else {
        await until(`drop ${drop}: the tool waits for approval`, () => phaseOf(items(), pending()) === 'approval');
        // Nothing decides it, so the card still waits after this.
        await new Promise((r) => setTimeout(r, random.int(0, 200)));
      }
      const before = items();
      const runsBefore = store.state.runs.size;
      hit.push({ target, phase: phaseOf(before, pending()) });
      proxy.drop();
      await until(`drop ${drop}: interrupted`, () => store.state.runs.get(key)?.state === 'interrupted', 5_000);
      const after = items();
      // Nothing that had arrived is lost or replaced by something else.
      for (const item of before) {
        const kept = after.find((i) => i.id === item.id);
        assert.ok(kept && kept.kind === item.kind, `drop ${drop}: item ${item.id} (${item.kind}) kept`);
      }
      const turnStart = after.findIndex((i) => i.id === turnItem.id);
      const texts = after.slice(turnStart).flatMap((i) => (i.kind === 'text' ? [i.text] : []));
      assert.deepEqual(texts, expectedTexts(frames, scvSessionIdOf(runId), turnId), `drop ${drop}: the turn's text is what the wire carried`);
      assert.ok(after.some((i) => i.kind === 'user' && i.text === `slow tool, drop ${drop}`), `drop ${drop}: the prompt is kept`);
      assert.ok(after.some((i) => i.kind === 'notice' && i.state === 'interrupted'), `drop ${drop}: the interruption is shown`);
      assert.equal(store.state.runs.get(key)!.pendingApprovals.length, 0, `drop ${drop}: no approval left pending`);
      assert.ok(after.every((i) => i.kind !== 'approval' || i.status !== 'pending'), `drop ${drop}: approval cards expired`);
      assert.ok(after.every((i) => i.kind !== 'text' || !i.streaming), `drop ${drop}: nothing still streaming`);
      // Reconnects with a new session in place of the one that ended (WIRE.md 6.2), which runs nothing by itself: the
      // cut-off prompt is not resent.
      await until(`drop ${drop}: reconnected`, () => store.state.connections.get(connectionId)?.state.kind === 'connected', 5_000);
      const next = await until(`drop ${drop}: the new session`, () => driver.liveSessionRunId, 5_000);
      assert.notEqual(next, runId, `drop ${drop}: a new run`);
      assert.equal(store.state.runs.size, runsBefore + 1, `drop ${drop}: one new run, the new session's`);
      const nextItems = store.transcript(runKeyOf(connectionId, next))?.snapshot() ?? [];
      assert.ok(!nextItems.some((i) => i.kind === 'user' || i.kind === 'text'), `drop ${drop}: nothing runs in it by itself`);
      runId = next;
    }
    await until('the daemon cancelled every cut-off turn', () => daemon.stats.eofCancelledTurns === DROPS, 5_000);
    assert.deepEqual(
      hit.map((h) => h.phase),
      hit.map((h) => h.target),
      'each drop hit the phase it was aimed at',
    );
    assert.deepEqual([...new Set(hit.map((h) => h.phase))].sort(), ['approval', 'streaming'], 'drops hit both phases');
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await proxy.goAway();
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

/**
 * The connection drops between a `tool_call` and its `tool_result`, and the run finishes on the daemon before the
 * editor is back (the chaos suite's seed 6221068: "tools: 2" against the daemon's one call). On reconnect the
 * daemon's snapshot already says `completed` while the result, the boundary and `finished` still wait in its journal
 * to be replayed. A terminal state folded in before them ends the call in flight (`unknown`), and the replayed
 * result then finds no open call and adds a second tool row. The snapshot's terminal state must wait for the events
 * it stands after: one tool row, the real result on it, the run completed through its last sequence.
 *
 * A fake daemon writes the exact frames, and each step waits for a state: the first connection ends only once the
 * call is folded; on the second, the replay is written only when the driver asks for the next run (`attach_run` of
 * `r2`), that is after it handled the snapshot of `r` — so a snapshot state folded in early cannot hide.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { encodeJsonFrame } from '../../../../extension/transport/lengthPrefixed';
import { fakeServer, helloReply } from './agencyProxyKit';
import { driverSetup, quietLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'apw-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

const RUN = 'r';
/** A second run, attached after `r`: its `attach_run` tells the daemon the driver is through with `r`'s snapshot. */
const OTHER = 'r2';

const event = (sequence: number, type: string, payload?: unknown): Buffer =>
  encodeJsonFrame({ kind: 'event', run_id: RUN, sequence, event: payload === undefined ? { type } : { type, payload } });

const BEFORE_CUT = [
  event(1, 'session_opened', { provider_session_id: 'sess-r', model: 'sonnet' }),
  event(2, 'text', 'Reading it.'),
  event(3, 'tool_call', { id: 'toolu_1', name: 'Read', input: { file_path: '/w/README.md' } }),
];
const AFTER_CUT = [
  event(4, 'tool_result', { id: 'toolu_1', ok: true, output: '# readme' }),
  event(5, 'usage', { input_tokens: 10, output_tokens: 2 }),
  event(6, 'message_boundary'),
  event(7, 'finished', { exit_code: 0, ok: true }),
];

function snapshot(runId: string, state: string, latestSequence: number): Record<string, unknown> {
  return {
    runId, state, provider: 'claude', model: 'sonnet', providerSessionId: 'sess-r', latestSequence,
    acknowledgedSequence: 0, workspaceRoots: [], metadata: {},
  };
}

/** What the daemon says of `r` once it finished, in its run list and in its answer to `attach_run`. */
interface Finished {
  readonly listed: 'running' | 'completed';
  readonly attached: 'completed';
}

/**
 * First connection: `r` runs, its frames through the tool call. Later connections: `r` finished with 7 events
 * (as `finished` says: `listed` in the reconnect's run list, which may predate the end, `attached` in the attach
 * answer; the run lists after those say `completed`).
 */
async function daemon(socketPath: string, finished: Finished): Promise<{ server: net.Server; sockets: net.Socket[] }> {
  const sockets: net.Socket[] = [];
  let lists = 0; // of the later connections: the first is the reconnect's, the next the final-state read's
  const server = await fakeServer(socketPath, (msg, send, socket) => {
    if (!sockets.includes(socket)) {
      sockets.push(socket);
    }
    const first = sockets.indexOf(socket) === 0;
    const id = msg.requestId;
    const reply = (fields: Record<string, unknown>): Buffer => encodeJsonFrame({ kind: 'response', request_id: id, ...fields });
    switch (msg.type) {
      case 'hello':
        send(helloReply(id));
        break;
      case 'list_runs':
        lists += first ? 0 : 1;
        send({ kind: 'response', request_id: id, type: 'runs', runs: first
          ? [snapshot(RUN, 'running', 3)]
          : [snapshot(RUN, lists === 1 ? finished.listed : 'completed', 7), snapshot(OTHER, 'running', 0)] });
        break;
      case 'attach_run':
        if (msg.run_id === RUN) {
          socket.write(first ? Buffer.concat([reply({ type: 'run', run: snapshot(RUN, 'running', 3) }), ...BEFORE_CUT])
            : reply({ type: 'run', run: snapshot(RUN, finished.attached, 7) }));
        } else {
          // The driver handled `r`'s snapshot (it attaches one run after the other): now `r`'s replay.
          socket.write(Buffer.concat([reply({ type: 'run', run: snapshot(OTHER, 'running', 0) }), ...AFTER_CUT]));
        }
        break;
      default:
        send({ kind: 'response', request_id: id, type: 'accepted' });
    }
  });
  return { server, sockets };
}

for (const finished of [{ listed: 'completed', attached: 'completed' }, { listed: 'running', attached: 'completed' }] as const) {
  test(`a cut between a tool call and its result, the run finished meanwhile (listed ${finished.listed}, attached ${finished.attached}): one tool row`, async () => {
    const dir = mkdtempSync(join(base, 'c'));
    const socketPath = join(dir, 'd.sock');
    const fake = await daemon(socketPath, finished);
    const { store, connectionId, ctx } = driverSetup({ name: 'cut', protocol: 'agency-proxy', socketPath }, join(dir, 'storage'), { log: quietLog });
    const driver = new AgencyProxyDriver(ctx);
    const key = runKeyOf(connectionId, RUN);
    const tools = () => (store.transcript(key)?.snapshot() ?? []).filter((i) => i.kind === 'tool');
    try {
      await driver.connect();
      await until('the tool call folded', () => store.state.runs.get(key)?.lastSequence === 3 && tools().length === 1);
      fake.sockets[0]!.destroy(); // the cut: the result is still to come
      await until('reconnected and replayed to the end', () => fake.sockets.length === 2 && store.state.runs.get(key)?.lastSequence === 7);
      await until('the final state read', () => store.state.runs.get(key)?.state === 'completed');
      assert.equal(store.transcript(key)!.snapshot().filter((i) => i.kind === 'gap').length, 0, 'no gap');
      const rows = tools();
      assert.equal(rows.length, 1, `one tool row: ${JSON.stringify(rows)}`);
      const row = rows[0]!;
      assert.ok(row.kind === 'tool' && row.callId === 'toolu_1' && row.status === 'succeeded' && row.output === '# readme', JSON.stringify(row));
    } finally {
      await driver.dispose();
      fake.server.close();
    }
  });
}

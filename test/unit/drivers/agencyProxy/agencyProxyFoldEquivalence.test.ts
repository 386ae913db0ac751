/**
 * Folding a read's chunks changes how many steps the model takes, never where it ends: seeded random AgencyProxy
 * streams (text and reasoning chunks, tool calls, approvals, usage, boundaries, lost events, replay overlap), cut
 * into random reads, go through the driver's `AgencyProxyEventFolder` and, as a reference, event by event through
 * `agencyProxyFold` (what the driver did before folding). Transcript, run, approvals and the daemon sequences
 * journaled (each exactly once, in order) must be equal. Replay a failure with FUZZ_SEED=<seed>.
 */
import { TurnCheckpoints } from '../../../../extension/drivers/kit/turnCheckpoints';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AckTracker } from '../../../../extension/drivers/agencyProxy/ackTracker';
import { AgencyProxyEventFolder } from '../../../../extension/drivers/agencyProxy/agencyProxyEventFolder';
import { AgencyProxyLocalChanges } from '../../../../extension/drivers/agencyProxy/agencyProxyLocalChanges';
import { agencyProxyFold } from '../../../../extension/drivers/agencyProxy/agencyProxyRecords';
import type { AgencyProxyCursor } from '../../../../extension/drivers/agencyProxy/agencyProxyRecords';
import type { AgencyProxyRunParts } from '../../../../extension/drivers/agencyProxy/agencyProxyRunParts';
import { RunActivityBook } from '../../../../extension/drivers/agencyProxy/runActivityBook';
import { RunOwnership } from '../../../../extension/drivers/agencyProxy/runOwnership';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { RunInput } from '../../../../extension/drivers/kit/journalRecords';
import { modelActionOf } from '../../../../extension/drivers/kit/runRecorder';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import type { EventFrame, RunEvent } from '../../../../extension/protocol/agencyProxy';
import { Random, suiteSeed } from '../../fuzz/fuzzKit';
import { quietLog } from '../driverKit';

const SEED = suiteSeed(0xf01d);
const C = 'agency-proxy:eq';
type Record = RunInput<unknown>;

/** What the door needs of a driver's context (nothing is journaled here: the test compares model inputs). */
function driverContext(store: RunStore) {
  return { store, connectionId: C, storageDir: '/nonexistent', log: quietLog };
}

function newStore(): RunStore {
  const store = new RunStore(() => 0);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'eq', protocol: 'agency-proxy' } });
  return store;
}

function apply(store: RunStore, runId: string, records: readonly Record[], journal: number[]): void {
  for (const record of records) {
    if ('event' in record && record.sequence !== undefined) {
      for (let q = record.firstSequence ?? record.sequence; q <= record.sequence; q++) {
        journal.push(q);
      }
    }
    const action = modelActionOf(C, runId, record);
    if (action) {
      store.dispatch(action);
    }
  }
}

/** A run's frames: mostly chunks, sometimes something else; some sequences are lost (never sent). */
function stream(random: Random, runId: string, count: number): EventFrame[] {
  const frames: EventFrame[] = [];
  let tool = 0;
  for (let sequence = 1; frames.length < count; sequence++) {
    if (random.chance(0.02)) {
      continue; // lost: a gap the model must show
    }
    const roll = random.int(0, 99);
    const words = (): string => random.pick(['a ', 'bc', 'déf ', '✓', '', 'line\n']);
    let event: RunEvent;
    if (roll < 55) {
      event = { type: 'text', payload: words() };
    } else if (roll < 75) {
      event = { type: 'reasoning', payload: words() };
    } else if (roll < 80) {
      tool += 1;
      event = { type: 'tool_call', payload: { id: `t${tool}`, name: 'Read', input: { n: tool } } };
    } else if (roll < 85) {
      event = { type: 'tool_result', payload: { id: `t${random.int(1, Math.max(1, tool))}`, ok: random.chance(0.8), output: words() } };
    } else if (roll < 88) {
      event = { type: 'approval_requested', payload: { approval_id: `a${sequence}`, title: 'Bash', detail: { command: 'ls' } } };
    } else if (roll < 93) {
      event = { type: 'usage', payload: { input_tokens: random.int(1, 5000), output_tokens: 3 } };
    } else if (roll < 98) {
      event = { type: 'message_boundary' };
    } else {
      event = { type: 'session_opened', payload: { provider_session_id: `s${random.int(1, 3)}`, model: 'sonnet' } };
    }
    frames.push({ kind: 'event', run_id: runId, sequence, event } as EventFrame);
  }
  return frames;
}

test(`a read's chunks folded = the same events one by one: transcript, run, approvals, journaled sequences (seed ${SEED})`, () => {
  const random = new Random(SEED);
  for (let round = 0; round < 40; round++) {
    // Two runs, interleaved in runs of frames; a re-attach replays an overlap now and then.
    const a = stream(random, 'ra', random.int(20, 400));
    const b = stream(random, 'rb', random.int(0, 100));
    const wire: EventFrame[] = [];
    while (a.length + b.length > 0) {
      const from = b.length === 0 || (a.length > 0 && random.chance(0.8)) ? a : b;
      const taken = from.splice(0, random.int(1, 30));
      wire.push(...taken);
      if (random.chance(0.1)) {
        wire.push(...taken.slice(random.int(0, taken.length - 1))); // replay overlap: already folded
      }
    }

    // Reference: every frame on its own, deduped by sequence, its records dispatched and journaled.
    const reference = newStore();
    const refJournal = new Map<string, number[]>();
    const books = { activity: new RunActivityBook(), ownership: new RunOwnership() };
    const refRuns = new DriverRuns(driverContext(reference), () => 'not journaled');
    for (const frame of wire) {
      if (!refRuns.get(frame.run_id)) {
        void refRuns.fields(frame.run_id, { title: frame.run_id, state: 'running' });
      }
      if (frame.sequence <= refRuns.get(frame.run_id)!.lastSequence) {
        continue;
      }
      const journal = refJournal.get(frame.run_id) ?? [];
      refJournal.set(frame.run_id, journal);
      apply(reference, frame.run_id, agencyProxyFold(books, frame.run_id, frame.sequence, frame.event).inputs, journal);
    }

    // The driver's folder, a random read at a time.
    const store = newStore();
    const journals = new Map<string, number[]>();
    let stores = 0;
    const runs = new DriverRuns<AgencyProxyCursor>(driverContext(store), () => 'not journaled');
    const parts: AgencyProxyRunParts = {
      runs,
      log: { ...quietLog, error: (m) => assert.fail(m) },
      acks: new AckTracker(() => undefined, () => undefined),
      ownership: new RunOwnership(),
      activity: new RunActivityBook(),
      localChanges: new AgencyProxyLocalChanges(runs, quietLog, () => Promise.resolve()),
      checkpoints: new TurnCheckpoints({ storageDir: '/nonexistent', connectionId: 'agency-proxy:fold', log: quietLog }, runs),
      storeEvent: (runId, sequence, records) => {
        stores += 1;
        const journal = journals.get(runId) ?? [];
        journals.set(runId, journal);
        apply(store, runId, records, journal);
        assert.equal(journal.at(-1), sequence, 'the sequence acks count as stored is the last one journaled');
      },
      saveRun: () => Promise.resolve(),
      recordLocal: () => Promise.resolve(),
      expireApprovals: () => Promise.resolve(),
    };
    const folder = new AgencyProxyEventFolder(parts, () => Promise.resolve());
    for (let i = 0; i < wire.length;) {
      const read = wire.slice(i, i + random.int(1, 120));
      folder.foldRead(read);
      i += read.length;
    }

    for (const runId of ['ra', 'rb']) {
      const key = runKeyOf(C, runId);
      assert.deepEqual(store.transcript(key)?.snapshot(), reference.transcript(key)?.snapshot(), `round ${round}, ${runId}: transcript`);
      const { openTools, ...run } = store.state.runs.get(key) ?? ({ openTools: new Map() } as never);
      const { openTools: refOpen, ...refRun } = reference.state.runs.get(key) ?? ({ openTools: new Map() } as never);
      assert.deepEqual(run, refRun, `round ${round}, ${runId}: run`);
      assert.deepEqual([...(openTools as Map<string, string>)], [...(refOpen as Map<string, string>)]);
      const journal = journals.get(runId) ?? [];
      assert.deepEqual(journal, refJournal.get(runId) ?? [], `round ${round}, ${runId}: the sequences journaled`);
      assert.equal(new Set(journal).size, journal.length, 'each sequence journaled once');
    }
    assert.deepEqual([...store.state.approvals.values()], [...reference.state.approvals.values()], `round ${round}: approvals`);
    assert.ok(stores < wire.length, `round ${round}: ${stores} records for ${wire.length} frames`);
  }
});

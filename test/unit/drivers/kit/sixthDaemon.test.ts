/**
 * A sixth daemon on the kit alone, the worked example of docs/ADDING_A_DAEMON.md: the driver writes the model only
 * through `this.runs`, declares `journaling` (a cursor, the books a checkpoint carries) and gives `this.runs.replay` a
 * RestorePolicy — no journal code of its own. It streams a run from a toy daemon, answers an approval, and after a
 * reload (a second driver, same storage) shows the same run, transcript and approval and resumes from its cursor.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { toDisposable } from '../../../../extension/base/emitter';
import { BaseDriver } from '../../../../extension/drivers/kit/baseDriver';
import type { ConnectionScope } from '../../../../extension/drivers/kit/connectionScope';
import { MIN_RECORDS } from '../../../../extension/drivers/kit/runCheckpoints';
import type { Journaling } from '../../../../extension/drivers/kit/runJournaling';
import type { ProtocolName } from '../../../../extension/model/modelTypes';
import { approvalKeyOf, runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import type { ApprovalDecision } from '../../../../extension/protocol/transcriptTypes';
import { noFrameTap } from '../../../../extension/transport/frameTap';

/** Not in PROTOCOL_NAMES: a real sixth daemon adds its name there (and the compiler lists the tables to extend). */
const TOY = 'toy' as string as ProtocolName;
const CONNECTION = 'toy:example';
const RUN = 'run-1';
const KEY = runKeyOf(CONNECTION, RUN);
const storage = mkdtempSync(join(tmpdir(), 'sixth-'));
after(() => rmSync(storage, { recursive: true, force: true }));
type ToyEvent = { readonly seq: number; readonly text: string } | { readonly seq: number; readonly ask: string };
type Listener = (events: readonly ToyEvent[], page: string) => void;

/** The toy daemon: one run's events, delivered in batches followed by an opaque page token to resume after. */
class ToyDaemon {
  readonly events: ToyEvent[] = [];
  /** The page each attach resumed after (undefined: from the start). */
  readonly attachedAfter: (string | undefined)[] = [];
  private listener: Listener | undefined;

  attach(page: string | undefined, listener: Listener): () => void {
    this.attachedAfter.push(page);
    this.listener = listener;
    this.deliver(this.events.filter((e) => e.seq > Number(page?.slice(1) ?? 0)));
    return () => (this.listener = undefined);
  }

  push(...events: ToyEvent[]): void {
    this.events.push(...events);
    this.deliver(events);
  }

  private deliver(events: readonly ToyEvent[]): void {
    if (events.length > 0) {
      this.listener?.(events, `p${events.at(-1)!.seq}`);
    }
  }
}

const toyCursor = z.object({ page: z.string() });
type ToyCursor = z.infer<typeof toyCursor>;
/** The whole driver: a connection, a mapping, a decision, and what a reload needs. */
class ToyDriver extends BaseDriver<ToyCursor> {
  readonly protocol = TOY;
  /** Each run's page (the driver's own books: a checkpoint stands for the cursor records before it). */
  readonly pages = new Map<string, string>();
  readonly booksRestored: unknown[] = [];
  protected readonly journaling: Journaling<ToyCursor> = {
    cursor: toyCursor,
    books: {
      save: (runId) => this.pages.get(runId),
      restore: (runId, saved) => {
        this.booksRestored.push(saved);
        return typeof saved === 'string' && this.pages.set(runId, saved).has(runId);
      },
    },
  };

  constructor(store: RunStore, private readonly daemon: ToyDaemon) {
    super({ store, connectionId: CONNECTION, profile: { name: 'example', protocol: TOY }, tap: noFrameTap, storageDir: storage, log: { info: () => undefined, warn: () => undefined, error: (m) => assert.fail(m) } });
  }

  protected override connectOnce(connection: ConnectionScope): Promise<void> {
    connection.add(toDisposable(this.daemon.attach(this.pages.get(RUN), (events, page) => this.fold(events, page))));
    return Promise.resolve();
  }

  private fold(events: readonly ToyEvent[], page: string): void {
    if (!this.runs.get(RUN)) {
      void this.runs.fields(RUN, { title: 'Toy run', state: 'running', createdAt: 1 });
      void this.runs.saveRun(RUN); // the run index: what a reload brings back
    }
    for (const e of events) {
      void this.runs.event(RUN, 'text' in e
        ? { kind: 'textDelta', text: e.text }
        : { kind: 'approvalRequested', approvalId: `a${e.seq}`, title: e.ask, detail: null, options: ['allow_once', 'deny'] }, e.seq);
    }
    this.pages.set(RUN, page);
    void this.runs.cursor(RUN, { page });
  }

  async decide(approvalId: string, decision: ApprovalDecision): Promise<void> {
    await this.runs.event(RUN, { kind: 'approvalSettled', approvalId, decision, by: 'transcript' }); // once sent to the daemon
  }

  protected override loadStorage(): Promise<void> {
    return this.runs.replay({
      open: () => true,
      state: 'as replayed',
      // Cursor records after the checkpoint (or all of them, without one) rebuild the books.
      record: (runId, input) => void ('cursor' in input && this.pages.set(runId, input.cursor.page)),
    });
  }
}

function window(daemon: ToyDaemon) {
  const store = new RunStore(() => 1_000);
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'example', protocol: TOY } });
  return { store, driver: new ToyDriver(store, daemon) };
}
const seen = (store: RunStore) => {
  const run = store.state.runs.get(KEY)!;
  const a = store.state.approvals.get(approvalKeyOf(KEY, `a${MIN_RECORDS + 1}`));
  const approval = a && { status: a.status, decision: a.decision, decidedBy: a.decidedBy };
  return { run: { title: run.title, state: run.state, lastSequence: run.lastSequence }, transcript: store.transcript(KEY)!.snapshot(), approval };
};

test('a sixth daemon built on the kit alone streams, decides, reloads the same and resumes from its cursor', async () => {
  const daemon = new ToyDaemon();
  const first = window(daemon);
  await first.driver.connect();
  // Enough records for a checkpoint at close: the reload then needs the books the driver declared.
  daemon.push(...Array.from({ length: MIN_RECORDS }, (_, i) => ({ seq: i + 1, text: `w${i} ` })), { seq: MIN_RECORDS + 1, ask: 'Run the tests?' });
  await first.driver.decide(`a${MIN_RECORDS + 1}`, 'allow_once');
  const live = seen(first.store);
  assert.deepEqual([live.approval, live.run.lastSequence], [{ status: 'decided', decision: 'allow_once', decidedBy: 'transcript' }, MIN_RECORDS + 1]);
  await first.driver.dispose(); // a window reload closes the connection (and writes the run's checkpoint)

  const second = window(daemon);
  await second.driver.connect();
  assert.deepEqual(seen(second.store), live, 'the reload shows what the user saw');
  assert.deepEqual(second.driver.booksRestored, [`p${MIN_RECORDS + 1}`], 'the run came back from its checkpoint, books included');
  assert.deepEqual(daemon.attachedAfter, [undefined, `p${MIN_RECORDS + 1}`], 'resumed from the cursor, not from the start');

  daemon.push({ seq: MIN_RECORDS + 2, text: 'after the reload' });
  const last = seen(second.store).transcript;
  assert.deepEqual(last.slice(0, -1).map((i) => i.id), live.transcript.map((i) => i.id));
  assert.deepEqual(last.at(-1), { id: `x${live.transcript.length}`, kind: 'text', text: 'after the reload', streaming: true });
  await second.driver.dispose();
});

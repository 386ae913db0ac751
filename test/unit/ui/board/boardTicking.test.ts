/**
 * The run board's elapsed-time ticker never redraws a row with requests under it: VS Code redraws a row's children
 * with it, so a tick would redraw their inline Allow / Deny under a click (a CI run lost one). Such a row says since
 * when it waits; leaves keep ticking, and a row ticks again once its requests are decided. The provider runs with
 * bench/vscodeStub.ts as `vscode` and its timers on the bench census's virtual clock (what fired is what a view saw).
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { after, before, test } from 'node:test';
import { TimerCensus } from '../../../../bench/timerCensus';
import { createVscodeStub } from '../../../../bench/vscodeStub';
import type { BoardNode } from '../../../../extension/ui/board/boardItems';
import type { BoardTreeProvider as Provider } from '../../../../extension/ui/board/boardTreeProvider';
import { BoardAcknowledgements } from '../../../../extension/ui/board/boardAcknowledgements';
import { RunStore } from '../../../../extension/model/runStore';
import { runKeyOf } from '../../../../extension/model/modelTypes';

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
const census = new TimerCensus();
let BoardTreeProvider: typeof Provider;

before(async () => {
  const { api } = createVscodeStub();
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? api : originalLoad.call(this, request, parent, isMain);
  };
  ({ BoardTreeProvider } = await import('../../../../extension/ui/board/boardTreeProvider'));
  census.install();
  census.useVirtualTime();
});

after(() => {
  census.uninstall();
  loader._load = originalLoad;
});

const tickers = (): string[] => census.pendingSites().filter((s) => s.startsWith('extension/ui/board/boardTicker.ts'));

/** A connected AgencyProxy connection with a run started now per id; `asking` runs have a request waiting. */
function board(ids: readonly string[], asking: readonly string[]) {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'ap', name: 'work', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'connectionInfo', connectionId: 'ap', capabilities: ['run.start', 'run.inject', 'run.cancel', 'run.end', 'approvals'] });
  store.dispatch({ type: 'connectionState', connectionId: 'ap', state: { kind: 'connected', since: 0 } });
  for (const id of ids) {
    store.dispatch({ type: 'runUpserted', connectionId: 'ap', runId: id, fields: { title: id, state: 'running', createdAt: Date.now() } });
  }
  for (const id of asking) {
    store.dispatch({ type: 'runEvent', runKey: runKeyOf('ap', id), event: { kind: 'approvalRequested', approvalId: `${id}-1`, title: 'Edit a.ts', detail: {}, options: ['allow_once', 'deny'] } });
  }
  const memento = { get: () => undefined, update: () => Promise.resolve() };
  const provider = new BoardTreeProvider(store, () => false, { count: () => 0, onDidChange: () => ({ dispose: () => undefined }) }, new BoardAcknowledgements(memento));
  const fired: (readonly string[] | 'all')[] = [];
  provider.onDidChangeTreeData((e: BoardNode | BoardNode[] | undefined) => {
    fired.push(e === undefined ? 'all' : (Array.isArray(e) ? e : [e]).map((n) => (n.type === 'run' ? n.key.split('::')[1]! : n.type)));
  });
  const description = (id: string): string => String(provider.getTreeItem(provider.runNode(runKeyOf('ap', id))).description);
  return { store, provider, fired, description };
}

test('a live leaf ticks each second; its neighbour with a request under it is never redrawn by the ticker', async () => {
  const b = board(['leaf', 'asking'], ['asking']);
  b.provider.setVisible(true);
  const waiting = b.description('asking');
  assert.match(waiting, /^waiting since \d\d:\d\d · /);
  assert.match(b.description('leaf'), /^0s · /);
  b.fired.length = 0;
  await census.advance(5_000, 1);
  assert.ok(b.fired.length >= 4, `ticked: ${JSON.stringify(b.fired)}`);
  assert.deepEqual(new Set(b.fired.flat()), new Set(['leaf']), 'only the leaf was redrawn');
  assert.match(b.description('leaf'), /^[45]s · /);
  assert.equal(b.description('asking'), waiting, 'what it shows is still true');
  b.provider.setVisible(false);
  assert.deepEqual(tickers(), [], 'hidden: no timer');
  b.provider.dispose();
});

test('a board whose only live run waits for a decision arms no ticker; decided, the run ticks again', async () => {
  const b = board(['asking'], ['asking']);
  b.provider.setVisible(true);
  assert.deepEqual(tickers(), [], 'nothing on the board ticks: no wake-ups');
  b.fired.length = 0;
  await census.advance(120_000, 1);
  assert.equal(b.fired.length, 0, `two minutes: not one redraw (${JSON.stringify(b.fired)})`);
  b.store.dispatch({ type: 'runEvent', runKey: runKeyOf('ap', 'asking'), event: { kind: 'approvalSettled', approvalId: 'asking-1', decision: 'deny', by: 'board' } });
  await census.advance(61_000, 1);
  assert.deepEqual(b.fired[0], 'all', 'the request left: the board is redrawn');
  assert.ok(b.fired.slice(1).some((f) => f !== 'all' && f.includes('asking')), `ticks again: ${JSON.stringify(b.fired)}`);
  assert.match(b.description('asking'), /^3m · /);
  b.provider.dispose();
  assert.deepEqual(tickers(), [], 'disposed: no timer');
});

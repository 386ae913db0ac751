/**
 * The run board's elapsed-time ticker never redraws a row with requests under it: VS Code redraws a row's children
 * with it, so a tick would redraw their inline Allow / Deny under a click (a CI run lost one). Such a row says since
 * when it waits; leaves keep ticking, and a row ticks again once its requests are decided. The provider runs with
 * bench/vscodeStub.ts as `vscode` (boardProviderKit.ts) and its timers on the bench census's virtual clock (what
 * fired is what a view saw).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TimerCensus } from '../../../../bench/timerCensus';
import type { BoardTreeProvider } from '../../../../extension/ui/board/boardTreeProvider';
import { board, decide, loadBoardProvider } from './boardProviderKit';

const census = new TimerCensus();
let Provider: typeof BoardTreeProvider;
let unload: () => void;

before(async () => {
  ({ Provider, unload } = await loadBoardProvider());
  census.install();
  census.useVirtualTime();
});

after(() => {
  census.uninstall();
  unload();
});

const tickers = (): string[] => census.pendingSites().filter((s) => s.startsWith('extension/ui/board/boardTicker.ts'));

test('a live leaf ticks each second; its neighbour with a request under it is never redrawn by the ticker', async () => {
  const b = board(Provider, ['leaf', 'asking'], ['asking']);
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
  const b = board(Provider, ['asking'], ['asking']);
  b.provider.setVisible(true);
  assert.deepEqual(tickers(), [], 'nothing on the board ticks: no wake-ups');
  b.fired.length = 0;
  await census.advance(120_000, 1);
  assert.equal(b.fired.length, 0, `two minutes: not one redraw (${JSON.stringify(b.fired)})`);
  decide(b.store, 'asking');
  await census.advance(61_000, 1);
  assert.deepEqual(b.fired[0], 'all', 'the request left: the board is redrawn');
  assert.ok(b.fired.slice(1).some((f) => f !== 'all' && f.includes('asking')), `ticks again: ${JSON.stringify(b.fired)}`);
  assert.match(b.description('asking'), /^3m · /);
  b.provider.dispose();
  assert.deepEqual(tickers(), [], 'disposed: no timer');
});

/**
 * The Connections tree's "reconnecting in Ns" countdown ticks each second only while the view is visible: a hidden
 * view arms no timer (idle wake-ups, issue #12). Loaded with bench/vscodeStub.ts as `vscode`; the timers are
 * watched with the bench's census, which attributes each to the line of extension/ code that armed it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TimerCensus } from '../../../bench/timerCensus';
import type { ConnectionsTreeProvider as Provider } from '../../../extension/ui/connectionsTreeProvider';
import { RunStore } from '../../../extension/model/runStore';
import { stubVscodeModule } from './vscodeStubLoader';

const census = new TimerCensus();
let ConnectionsTreeProvider: typeof Provider;
let unload: () => void;

before(async () => {
  ({ unload } = stubVscodeModule());
  ({ ConnectionsTreeProvider } = await import('../../../extension/ui/connectionsTreeProvider'));
  census.install();
});

after(() => {
  census.uninstall();
  unload();
});

const countdowns = (): string[] => census.pendingSites().filter((s) => s.startsWith('extension/ui/connectionsTreeProvider.ts'));

test('a reconnecting connection: the countdown ticks while the view is visible, never while it is hidden', () => {
  const store = new RunStore();
  const tree = new ConnectionsTreeProvider(store, () => []);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'connectionState', connectionId: 'c', state: { kind: 'reconnecting', attempt: 1, retryAt: Date.now() + 30_000, reason: 'ECONNREFUSED' } });
  assert.deepEqual(countdowns(), [], 'hidden (as created): no timer');
  tree.setVisible(true);
  assert.equal(countdowns().length, 1, 'shown: one countdown');
  assert.match(countdowns()[0]!, /every 1000 ms/);
  tree.setVisible(false);
  assert.deepEqual(countdowns(), [], 'hidden again: stopped');
  tree.setVisible(true);
  store.dispatch({ type: 'connectionState', connectionId: 'c', state: { kind: 'connected', since: Date.now() } });
  assert.deepEqual(countdowns(), [], 'connected: stopped');
  tree.dispose();
});

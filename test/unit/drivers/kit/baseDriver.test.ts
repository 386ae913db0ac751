/**
 * The base driver: the reconnect loop's states reach the model, each attempt gets a fresh connection scope that is
 * disposed exactly once (lost, closed by disconnect, a failed attempt, a renewed connection), approval expiry with
 * the connection is an option, and `dispose` runs disconnect → flush → close storage → driver scope, once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toDisposable } from '../../../../extension/base/emitter';
import type { ConnectionProfile } from '../../../../extension/drivers/driver';
import { DriverError } from '../../../../extension/drivers/driver';
import { BaseDriver } from '../../../../extension/drivers/kit/baseDriver';
import type { BaseDriverOptions } from '../../../../extension/drivers/kit/baseDriver';
import type { ConnectionScope } from '../../../../extension/drivers/kit/connectionScope';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import { NotSentError } from '../../../../extension/drivers/kit/errors';
import type { ConnectionState } from '../../../../extension/model/modelTypes';
import { approvalKeyOf, runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { noFrameTap } from '../../../../extension/transport/frameTap';

const CONNECTION = 'scv:probe';
/** Lets the attempt a timer started run to its end (it awaits the driver's connectOnce). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const PROFILE: ConnectionProfile = { name: 'probe', protocol: 'scv' };

class ProbeDriver extends BaseDriver {
  readonly protocol = 'scv' as const;
  protected readonly journaling = 'not journaled' as const;
  readonly scopes: ConnectionScope[] = [];
  readonly calls: string[] = [];
  failWith: unknown;

  constructor(store: RunStore, options: BaseDriverOptions) {
    super({ store, connectionId: CONNECTION, profile: PROFILE, tap: noFrameTap, storageDir: '/nonexistent', log: { info: () => undefined, warn: () => undefined, error: () => undefined } }, options);
    this.driverScope.add(toDisposable(() => this.calls.push('driverScope')));
  }

  protected override async connectOnce(connection: ConnectionScope): Promise<void> {
    this.scopes.push(connection);
    const n = this.scopes.length;
    connection.add(toDisposable(() => this.calls.push(`scope ${n} disposed`)));
    if (this.failWith !== undefined) {
      throw this.failWith;
    }
  }

  protected override loadStorage(): Promise<void> {
    this.calls.push('load');
    return Promise.resolve();
  }

  override flushStorage(): Promise<void> {
    this.calls.push('flush');
    return Promise.resolve();
  }

  protected override closeStorage(): Promise<void> {
    this.calls.push('close');
    return Promise.resolve();
  }

  renew(): ConnectionScope {
    return this.renewConnection();
  }
}

function setup(options: Omit<BaseDriverOptions, 'reconnect'> = {}) {
  const clock = new ManualClock(1_000);
  const store = new RunStore(() => clock.now());
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'probe', protocol: 'scv' } });
  const driver = new ProbeDriver(store, { ...options, reconnect: { baseMs: 10, capMs: 10, random: () => 1, clock: () => clock.now(), timers: clock } });
  const state = (): ConnectionState => store.state.connections.get(CONNECTION)!.state;
  return { clock, store, driver, state };
}

function withPendingApproval(store: RunStore, runId: string, approvalId: string): string {
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId, fields: { title: runId, state: 'running' } });
  const runKey = runKeyOf(CONNECTION, runId);
  store.dispatch({ type: 'runEvent', runKey, event: { kind: 'approvalRequested', approvalId, title: 'Run it?', detail: null, options: ['allow_once', 'deny'] } });
  return approvalKeyOf(runKey, approvalId);
}

test('connect loads storage once, opens a scope and reports connected; a lost scope is disposed and the loop reconnects', async () => {
  const { clock, driver, state } = setup();
  await driver.connect();
  assert.equal(state().kind, 'connected');
  assert.deepEqual(driver.calls, ['load']);
  assert.equal(driver.scopes.length, 1);
  const first = driver.scopes[0]!;
  assert.equal(first.isOpen, true);

  first.lost('socket closed');
  assert.equal(first.isOpen, false);
  assert.deepEqual(driver.calls, ['load', 'scope 1 disposed']);
  const lost = state();
  assert.equal(lost.kind, 'reconnecting');
  assert.equal(lost.kind === 'reconnecting' ? lost.reason : '', 'socket closed');
  first.lost('again'); // an ended scope stays ended: no second reconnect, nothing disposed twice
  assert.deepEqual(driver.calls, ['load', 'scope 1 disposed']);

  clock.advance(10);
  await settle();
  assert.equal(driver.scopes.length, 2);
  assert.equal(state().kind, 'connected');
  await driver.connect(); // already wanted: no second load, no new attempt
  assert.equal(driver.calls.filter((c) => c === 'load').length, 1);
  assert.equal(driver.scopes.length, 2);
  await driver.dispose();
});

test('disconnect closes the scope without reconnecting; a late lost of that scope changes nothing', async () => {
  const { clock, driver, state } = setup();
  await driver.connect();
  await driver.disconnect();
  assert.equal(state().kind, 'disconnected');
  assert.equal(driver.scopes[0]!.isOpen, false);
  driver.scopes[0]!.lost('late close event');
  clock.advance(1_000);
  assert.equal(state().kind, 'disconnected');
  assert.equal(driver.scopes.length, 1);
  await driver.dispose();
});

test('a failed attempt closes its scope and reports the error text; a fatal one stops retrying', async () => {
  const { clock, driver, state } = setup();
  driver.failWith = new NotSentError('the socket refused', 'ECONNREFUSED');
  await driver.connect();
  assert.equal(driver.scopes[0]!.isOpen, false);
  const retrying = state();
  assert.equal(retrying.kind === 'reconnecting' ? retrying.reason : retrying.kind, 'the socket refused');
  driver.failWith = new DriverError('this daemon speaks another protocol', 'fatal');
  clock.advance(10);
  await settle();
  const failed = state();
  assert.equal(failed.kind === 'failed' ? failed.reason : failed.kind, 'this daemon speaks another protocol');
  clock.advance(1_000);
  assert.equal(driver.scopes.length, 2, 'no retry after a fatal failure');
  await driver.dispose();
});

test('with approvalsDieWithConnection, a connection that ends expires every pending approval of its runs', async () => {
  const { store, driver } = setup({ approvalsDieWithConnection: true });
  await driver.connect();
  const approval = withPendingApproval(store, 'r1', 'a1');
  driver.scopes[0]!.lost('dropped');
  assert.equal(store.state.approvals.get(approval)?.status, 'expired');
  assert.equal(store.state.runs.get(runKeyOf(CONNECTION, 'r1'))?.pendingApprovals.length, 0);
  await driver.dispose();
});

test('without the option, approvals outlive the connection (the daemon keeps them)', async () => {
  const { store, driver } = setup();
  await driver.connect();
  const approval = withPendingApproval(store, 'r1', 'a1');
  driver.scopes[0]!.lost('dropped');
  await driver.disconnect();
  assert.equal(store.state.approvals.get(approval)?.status, 'pending');
  await driver.dispose();
});

test('renewConnection closes the open scope (no reconnect) and a lost renewed scope reconnects', async () => {
  const { clock, driver, state } = setup();
  await driver.connect();
  const renewed = driver.renew();
  assert.equal(driver.scopes[0]!.isOpen, false);
  assert.equal(state().kind, 'connected', 'replacing the connection is not a drop');
  renewed.lost('the replacement failed');
  assert.equal(state().kind, 'reconnecting');
  clock.advance(10);
  await settle();
  assert.equal(state().kind, 'connected');
  assert.equal(driver.scopes.length, 2);
  await driver.dispose();
});

test('dispose stops the loop, closes the connection, flushes and closes storage, then the driver scope; once', async () => {
  const { clock, driver, state } = setup();
  await driver.connect();
  const first = driver.dispose();
  assert.equal(driver.dispose(), first, 'the same promise');
  await first;
  assert.deepEqual(driver.calls, ['load', 'scope 1 disposed', 'flush', 'close', 'driverScope']);
  assert.equal(state().kind, 'disconnected');
  await driver.connect(); // a disposed driver never connects again
  clock.advance(1_000);
  assert.equal(driver.scopes.length, 1);
  assert.equal(state().kind, 'disconnected');
});

test('dispose while connect is still loading storage: the loop never starts (no attempt, no timer left)', async () => {
  const { clock, driver, state } = setup();
  const connecting = driver.connect(); // awaits loadStorage: dispose comes in between, as in a reload test
  await driver.dispose();
  await connecting;
  clock.advance(1_000);
  await settle();
  assert.equal(driver.scopes.length, 0, 'no attempt after dispose');
  assert.equal(clock.pendingCount, 0, 'no reconnect timer left behind');
  assert.notEqual(state().kind, 'connecting');
});

test('disconnect while connect is still loading storage: no attempt follows; a later connect connects', async () => {
  const { driver, state } = setup();
  const connecting = driver.connect();
  await driver.disconnect();
  await connecting;
  await settle();
  assert.equal(driver.scopes.length, 0, 'the disconnect won');
  await driver.connect();
  assert.equal(driver.scopes.length, 1);
  assert.equal(state().kind, 'connected');
  await driver.dispose();
});

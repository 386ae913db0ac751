import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../extension/drivers/agencyProxy/client';
import type { EventFrame } from '../../../extension/protocol/agencyProxy';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { assertContiguous, collectUntil, delay, isTerminalEvent, tempDir } from './testSupport';

const REPO = path.resolve(__dirname, '../../..');
const MAIN = path.join(REPO, 'test/fixtures/agencyProxy/main.ts');

function spawnDaemon(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
}

async function connectWithRetry(socketPath: string, timeoutMs = 10_000): Promise<AgencyProxyClient> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await AgencyProxyClient.connect({ socketPath, connectTimeoutMs: 500 });
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await delay(50);
    }
  }
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(child.signalCode ?? child.exitCode);
    } else {
      child.once('exit', (code, signal) => resolve(signal ?? code));
    }
  });
}

const textOf = (events: readonly EventFrame[]): string =>
  events.flatMap((e) => (e.event.type === 'text' ? [e.event.payload] : [])).join('');

describe('reference daemon: durable state across restarts', () => {
  it('SIGKILL mid-run, restart, reattach: sequences are exactly 1..N, nothing lost or duplicated', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'd.sock');
    const args = ['--socket', socketPath, '--state-dir', path.join(dir, 'state'), '--workspace', dir, '--chunk-ms', '3'];
    let child = spawnDaemon(args);
    try {
      const first = await connectWithRetry(socketPath);
      const before: EventFrame[] = [];
      const reached = collectUntil(first, 'durable', (e) => e.sequence >= 30, 10_000);
      first.onEvent((e) => before.push(e));
      await first.startRun('durable', {
        provider: 'claude', prompt: 'long:100 notools', permission: 'edit', approvals: false, interactive: false,
        workspaceRoots: [],
      });
      await first.attachRun('durable', 0);
      await reached;
      const closed = new Promise((resolve) => first.onClose(resolve));
      child.kill('SIGKILL');
      assert.equal(await exited(child), 'SIGKILL');
      await closed;
      assert.ok(before.length >= 30 && before.length < 100, `killed mid-run after ${before.length} events`);
      assert.ok(fs.lstatSync(socketPath).isSocket(), 'a killed daemon leaves its socket behind');

      child = spawnDaemon(args); // unlinks the stale socket, reloads the journal, resumes the script
      const second = await connectWithRetry(socketPath);
      const [run] = await second.listRuns();
      assert.equal(run!.runId, 'durable');
      assert.ok(run!.latestSequence >= before.length);
      const last = before.at(-1)!.sequence;
      const rest = collectUntil(second, 'durable', isTerminalEvent, 10_000);
      await second.attachRun('durable', last);
      const after = await rest;
      const all = [...before, ...after];
      assertContiguous(all, 1);
      assert.equal(all.at(-1)!.event.type, 'finished');
      const expected = Array.from({ length: 100 }, (_, i) => `chunk ${i + 1}${(i + 1) % 10 === 0 ? '\n' : ' '}`).join('');
      assert.equal(textOf(all), expected);
      const [done] = await second.listRuns();
      assert.equal(done!.state, 'completed');
      assert.equal(done!.latestSequence, all.length);
      child.kill('SIGTERM');
      assert.equal(await exited(child), 0, 'SIGTERM is a clean exit');
      assert.equal(fs.existsSync(socketPath), false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a restart keeps pending approvals, acks and injected messages', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'd.sock');
    const stateDir = path.join(dir, 'state');
    const workspace = path.join(dir, 'ws');
    fs.mkdirSync(workspace);
    const options = { socketPath, stateDir, chunkDelayMs: 1, interactiveIdleMs: 200 };
    let daemon = new ReferenceAgencyProxy(options);
    try {
      await daemon.start();
      const a = await AgencyProxyClient.connect({ socketPath });
      const asked = collectUntil(a, 'keep', (e) => e.event.type === 'approval_requested');
      await a.startRun('keep', {
        provider: 'claude', prompt: 'hi', permission: 'edit', approvals: true, interactive: true, workspaceRoots: [workspace],
      });
      await a.attachRun('keep', 0);
      const first = await asked;
      await a.ackEvents('keep', 5);
      a.close();
      await daemon.stop();

      daemon = new ReferenceAgencyProxy(options);
      await daemon.start();
      const b = await AgencyProxyClient.connect({ socketPath });
      let injected = false;
      b.onEvent((e) => {
        if (e.event.type === 'message_boundary' && !injected) {
          injected = true;
          void b.injectMessage('keep', 'finish please', 1);
        }
      });
      const rest = collectUntil(b, 'keep', isTerminalEvent);
      const snap = await b.attachRun('keep', 0);
      assert.equal(snap.state, 'waiting_approval');
      assert.equal(snap.acknowledgedSequence, 5);
      await b.decideApproval('keep', 'ap-1', 'allow_once');
      const after = await rest;
      assertContiguous(after, 6);
      const approvalSeq = first.at(-1)!.sequence;
      assert.ok(after.some((e) => e.sequence === approvalSeq && e.event.type === 'approval_requested'),
        'the unacknowledged approval_requested is replayed after the restart (WIRE.md §6.1 step 5)');
      assert.match(fs.readFileSync(path.join(workspace, 'README.md'), 'utf8'), /edited via Agent Switchboard/);
      assert.match(textOf(after), /finish please/);
      assert.equal((await b.listRuns())[0]!.state, 'completed');
      b.close();
    } finally {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

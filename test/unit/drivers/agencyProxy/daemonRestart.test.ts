import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import type { EventFrame } from '../../../../extension/protocol/agencyProxy';
import { AgencyProxyError } from '../../../../extension/drivers/agencyProxy/agencyProxyError';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { readRecordedHistory } from '../../../fixtures/agencyProxy/runStore';
import { assertContiguous, collectUntil, delay, isTerminalEvent, tempDir } from './agencyProxyKit';

const REPO = path.resolve(__dirname, '../../../..');
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

describe('reference daemon: a restart loses every run, like the real one (WIRE.md §1.9)', () => {
  it('SIGKILL mid-run, restart: list_runs is empty, attach_run is not_found; the record keeps what was published', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'd.sock');
    const recordDir = path.join(dir, 'record');
    const args = ['--socket', socketPath, '--record-dir', recordDir, '--workspace', dir, '--chunk-ms', '3'];
    let child = spawnDaemon(args);
    try {
      const first = await connectWithRetry(socketPath);
      const before: EventFrame[] = [];
      const reached = collectUntil(first, 'doomed', (e) => e.sequence >= 30, 10_000);
      first.onEvent((e) => before.push(e));
      await first.startRun('doomed', {
        provider: 'claude', prompt: 'long:100 notools', permission: 'edit', approvals: false, interactive: false,
        workspaceRoots: [],
      });
      await first.attachRun('doomed', 0);
      await reached;
      const closed = new Promise((resolve) => first.onClose(resolve));
      child.kill('SIGKILL');
      assert.equal(await exited(child), 'SIGKILL');
      await closed;
      assert.ok(before.length >= 30 && before.length < 100, `killed mid-run after ${before.length} events`);
      assert.ok(fs.lstatSync(socketPath).isSocket(), 'a killed daemon leaves its socket behind');
      const recorded = readRecordedHistory(recordDir, 'doomed');
      assert.ok(recorded.length >= before.length, 'the record holds every event a client saw');
      assert.deepEqual(recorded.slice(0, before.length), before.map((e) => e.event));

      child = spawnDaemon(args); // unlinks the stale socket; starts empty although the record dir is the same
      const second = await connectWithRetry(socketPath);
      assert.deepEqual(await second.listRuns(), []);
      await assert.rejects(second.attachRun('doomed', before.at(-1)!.sequence), (error: unknown) =>
        error instanceof AgencyProxyError && error.code === 'not_found');
      assert.ok(second.isOpen, 'not_found keeps the connection open');
      child.kill('SIGTERM');
      assert.equal(await exited(child), 0, 'SIGTERM is a clean exit');
      assert.equal(fs.existsSync(socketPath), false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('a clean restart forgets a waiting approval too; a new run continues the provider session', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'd.sock');
    const workspace = path.join(dir, 'ws');
    fs.mkdirSync(workspace);
    const options = { socketPath, recordDir: path.join(dir, 'record'), chunkDelayMs: 1 };
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
      const opened = first[0]!.event;
      assert.ok(opened.type === 'session_opened');
      a.close();
      await daemon.stop();

      daemon = new ReferenceAgencyProxy(options);
      await daemon.start();
      const b = await AgencyProxyClient.connect({ socketPath });
      assert.deepEqual(await b.listRuns(), []);
      await assert.rejects(b.decideApproval('keep', 'ap-1', 'allow_once'), (error: unknown) =>
        error instanceof AgencyProxyError && error.code === 'not_found');
      const resumed = collectUntil(b, 'keep-2', isTerminalEvent);
      await b.startRun('keep-2', {
        provider: 'claude', prompt: 'go on notools', permission: 'edit', approvals: false, interactive: false,
        workspaceRoots: [workspace], resumeSessionId: opened.payload.provider_session_id,
      });
      await b.attachRun('keep-2', 0);
      const events = await resumed;
      assertContiguous(events, 1);
      const reopened = events[0]!.event;
      assert.ok(reopened.type === 'session_opened');
      assert.equal(reopened.payload.provider_session_id, opened.payload.provider_session_id);
      const [run] = await b.listRuns();
      assert.equal(run!.providerSessionId, opened.payload.provider_session_id);
      assert.equal(run!.state, 'completed');
      b.close();
    } finally {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});

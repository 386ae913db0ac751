/**
 * The reference harness's timing modes and the knobs tests steer it with (harnessPacing.ts, harness.ts): zero
 * latency, holds, a restart as clients see it (WIRE.md 6.3.4), and the CLI flag. Every wait is for a state.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { A3sHttpError } from '../../../extension/drivers/a3s/a3sErrors';
import { A3sClient } from '../../../extension/drivers/a3s/client';
import { pageA3sUntilCaughtUp } from '../../../extension/drivers/a3s/runPoller';
import { A3S_ERROR_CODE, buildRunIdentity } from '../../../extension/protocol/a3s';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { untilAsync } from './driverKit';

const id = (runId: string) => buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId });
const base = mkdtempSync(join(tmpdir(), 'a3sm-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

async function withHarness(harness: A3sHarness, body: (client: A3sClient) => Promise<void>): Promise<void> {
  await harness.start();
  const client = new A3sClient({ baseUrl: harness.url });
  try {
    await body(client);
  } finally {
    client.dispose();
    await harness.stop();
  }
}

function httpCode(code: string): (e: unknown) => boolean {
  return (e) => e instanceof A3sHttpError && e.code === code;
}

describe('reference harness timing', () => {
  it('zero latency: the first page after the receipt already holds the whole run, terminal', () =>
    withHarness(new A3sHarness({ zeroLatency: true }), async (client) => {
      const { receipt } = await client.start('q', id('run-z'), 'many chunks');
      assert.equal(receipt.state, 'planning', 'the receipt is built when the worker is admitted');
      const page = await pageA3sUntilCaughtUp(client, id('run-z'), null);
      assert.equal(page.terminal, true);
      assert.equal(page.state, 'completed');
      assert.equal(page.events.length, 177);
    }));

  it('zero latency excludes any delay option', () => {
    assert.throws(() => new A3sHarness({ zeroLatency: true, stepMs: 5 }), /zeroLatency excludes/);
    assert.throws(() => new A3sHarness({ zeroLatency: true, captureMs: 5 }), /zeroLatency excludes/);
    assert.throws(() => new A3sHarness({ zeroLatency: true, drainMs: 5 }), /zeroLatency excludes/);
  });

  it('holdEventsAt parks a run live at exactly that many events; cancel still reaches it; lifting finishes it', () => {
    const harness = new A3sHarness({ zeroLatency: true });
    return withHarness(harness, async (client) => {
      harness.holdEventsAt(12);
      await client.start('q', id('run-held'), 'many chunks');
      await client.start('q', id('run-cancel'), 'many chunks');
      const held = await pageA3sUntilCaughtUp(client, id('run-held'), null);
      assert.deepEqual([held.events.length, held.terminal, harness.getRun('run-held')?.live], [12, false, true]);
      const cancel = await client.cancel('c', id('run-cancel'), 'stop');
      assert.deepEqual([cancel.replayed, cancel.receipt.state], [false, 'cancelled']);
      harness.holdEventsAt(20);
      const moved = await pageA3sUntilCaughtUp(client, id('run-held'), held.cursor);
      assert.deepEqual([moved.cursor, moved.terminal], [19, false], 'the next page sees the run parked at the new hold');
      harness.holdEventsAt(undefined);
      const done = await pageA3sUntilCaughtUp(client, id('run-held'), moved.cursor);
      assert.deepEqual([done.state, done.cursor], ['completed', 176]);
    });
  });

  it('holdCaptures keeps a finished run at 425 change_set_pending until released', () => {
    const workspace = mkdtempSync(join(base, 'ws-'));
    const harness = new A3sHarness({ zeroLatency: true, workspace, gitInit: true });
    return withHarness(harness, async (client) => {
      harness.holdCaptures(true);
      await client.start('q', id('run-edit'), 'edit');
      assert.equal((await pageA3sUntilCaughtUp(client, id('run-edit'), null)).terminal, true);
      await assert.rejects(client.changeSetRaw(id('run-edit')), httpCode(A3S_ERROR_CODE.changeSetPending));
      harness.holdCaptures(false);
      let body: unknown;
      await untilAsync('the change set is captured', async () => {
        body = await client.changeSetRaw(id('run-edit')).catch((e: unknown) => (httpCode(A3S_ERROR_CODE.changeSetPending)(e) ? undefined : Promise.reject(e)));
        return body !== undefined;
      });
      assert.equal((body as { state?: string }).state, 'completed');
    });
  });

  it('restart(): sessions close (404) until a start reopens them; then a stranded run pages 200, non-terminal, and cancel says run_unavailable', () => {
    const harness = new A3sHarness({ zeroLatency: true });
    return withHarness(harness, async (client) => {
      await client.start('q', id('run-a'), 'wait for me');
      const before = await pageA3sUntilCaughtUp(client, id('run-a'), null);
      await harness.restart();
      await assert.rejects(client.eventPage(id('run-a'), before.cursor), httpCode(A3S_ERROR_CODE.sessionNotFound));
      await client.start('q2', id('run-b'), 'a new run');
      const after = await client.eventPage(id('run-a'), before.cursor);
      assert.deepEqual([after.events.length, after.page.state, after.terminal], [0, 'executing', false], 'indistinguishable from a quiet live run');
      await assert.rejects(client.cancel('c', id('run-a'), 'stop'), httpCode(A3S_ERROR_CODE.runUnavailable));
      assert.equal((await pageA3sUntilCaughtUp(client, id('run-b'), null)).state, 'completed', 'new runs work as before');
    });
  });
});

describe('reference harness CLI', () => {
  /** Starts main.ts; resolves with its URL once it listens (the process is left running) or its exit code. */
  function runCli(args: readonly string[]): Promise<{ code: number | null; err: string; url?: string; stop: () => void }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../../fixtures/a3s/main.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      const stop = (): void => void child.kill('SIGTERM');
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        if (url) {
          resolve({ code: null, err, url, stop });
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, err, stop }));
    });
  }

  it('--zero-latency serves the whole run by the first page; combined with a delay flag it refuses to start', async () => {
    const started = await runCli(['--zero-latency']);
    try {
      assert.ok(started.url, started.err);
      const client = new A3sClient({ baseUrl: started.url });
      try {
        await client.start('q', id('run-cli'), 'hello');
        assert.equal((await pageA3sUntilCaughtUp(client, id('run-cli'), null)).state, 'completed');
      } finally {
        client.dispose();
      }
    } finally {
      started.stop();
    }
    const refused = await runCli(['--zero-latency', '--step-ms', '5']);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /zeroLatency excludes stepMs/);
  });
});

/**
 * Secrets never reach the protocol trace or the log: a start_run carrying an API key in `environment` and an
 * authentication key in `metadata` goes through the AgencyProxy client against the reference daemon (which echoes
 * the metadata back in run snapshots) with a ProtocolTrace tap writing to a file; the file, and every frame as the
 * log would print it, must not contain the secret values — while still showing that the variables were passed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgencyProxyClient } from '../../../extension/drivers/agencyProxy/client';
import { ProtocolTrace, combineTaps } from '../../../extension/transport/protocolTrace';
import { redactSecrets } from '../../../extension/transport/traceRedaction';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';

const API_KEY = 'sk-live-4f9a0c1e7d2b4a8f9e3c5d6a7b8c9d0e';
const AUTH_KEY = 'ak-prod-1b2c3d4e5f60718293a4b5c6d7e8f901';
const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';

test('an API key in environment and an authentication key in metadata never reach the trace file or the log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sec-'));
  const socketPath = join(dir, 'd.sock');
  const traceFile = join(dir, 'trace', 'frames.jsonl');
  // A daemon that echoes `metadata` (one may; WIRE.md 1.5 only says not to depend on it), so "in" frames carry the key.
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir, chunkDelayMs: 1, echoMetadata: true });
  await daemon.start();
  const trace = new ProtocolTrace(traceFile, (error) => assert.fail(String(error)));
  const logLines: string[] = [];
  // The same rendering as the extension's log tap (extension.ts): redacted JSON.
  const logTap = (_dir: 'in' | 'out', frame: unknown): void => void logLines.push(JSON.stringify(redactSecrets(frame)));
  const client = await AgencyProxyClient.connect({ socketPath, frameTap: combineTaps(trace.tap('agency-proxy', 'secure'), logTap) });
  try {
    await client.startRun('secret-run', {
      provider: 'claude',
      prompt: 'hello notools',
      permission: 'edit',
      approvals: false,
      interactive: false,
      workspaceRoots: [dir],
      environment: { API_KEY, GITHUB_TOKEN: TOKEN, HARMLESS: 'visible' },
      metadata: { title: 'secret test', authenticationKey: AUTH_KEY, nested: { api_key: API_KEY } },
    });
    const finished = new Promise<void>((resolve) => client.onEvent((e) => e.event.type === 'finished' && resolve()));
    const snapshot = await client.attachRun('secret-run', 0);
    assert.equal(snapshot.metadata.authenticationKey, AUTH_KEY, 'the daemon really echoes the key back (so "in" frames are covered)');
    await finished;
    await client.listRuns();
  } finally {
    client.close();
    await daemon.stop();
  }
  await trace.flush();
  trace.dispose();
  const text = readFileSync(traceFile, 'utf8');
  try {
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { dir: string; frame: { type?: string } });
    assert.ok(lines.some((l) => l.dir === 'out' && l.frame.type === 'start_run'), 'the start_run frame was traced');
    assert.ok(lines.some((l) => l.dir === 'in' && l.frame.type === 'run'), 'the echoed snapshot was traced');
    for (const secret of [API_KEY, AUTH_KEY, TOKEN]) {
      assert.equal(text.includes(secret), false, 'a secret value is in the trace file');
      assert.equal(logLines.some((l) => l.includes(secret)), false, 'a secret value is in the log');
    }
    assert.match(text, /"API_KEY":"<redacted>"/, 'the variable names stay visible');
    assert.match(text, /"authenticationKey":"<redacted>"/);
    assert.match(text, /"HARMLESS":"<redacted>"/, 'every environment value is redacted, not only secret-looking ones');
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

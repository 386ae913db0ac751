import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ProtocolTrace } from '../../../extension/transport/protocolTrace';
import { REDACTED, redactSecrets } from '../../../extension/transport/traceRedaction';

test('environment values and auth keys are redacted, names kept', () => {
  const frame = {
    requestId: 3,
    type: 'start_run',
    request: { prompt: 'hi', environment: { API_TOKEN: 'sk-secret', HOME: '/h' }, metadata: { authenticationKey: 'k', nested: [{ password: 'p' }] } },
  };
  const out = JSON.stringify(redactSecrets(frame));
  assert.doesNotMatch(out, /sk-secret|"\/h"|"k"|"p"/);
  assert.match(out, /"API_TOKEN":"<redacted>"/);
  assert.match(out, /"HOME":"<redacted>"/);
  assert.equal((redactSecrets({ token: 'x' }) as { token: string }).token, REDACTED);
  assert.deepEqual(redactSecrets({ prompt: 'keep me', input_tokens: 5, access_token: 't' }), { prompt: 'keep me', input_tokens: 5, access_token: REDACTED });
});

test('secrets in command-line arguments are redacted by position', () => {
  const out = redactSecrets({ uncheckedArgs: ['--api-key', 'sk-live-1', '--token=abc', '--verbose', 'file.txt', '-p', 'x'] }) as { uncheckedArgs: string[] };
  assert.deepEqual(out.uncheckedArgs, ['--api-key', REDACTED, `--token=${REDACTED}`, '--verbose', 'file.txt', '-p', 'x']);
});

test('the trace writes one JSON line per frame with the documented fields', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-'));
  try {
    const file = join(dir, 'sub', 'trace.jsonl');
    const trace = new ProtocolTrace(file, (e) => assert.fail(String(e)), () => 42);
    const tap = trace.tap('a3s', 'demo');
    tap('out', { schema: 'x', environment: { SECRET: 'v' } }, { method: 'POST', path: '/v1/agent/commands' });
    tap('in', { ok: true }, { method: 'POST', path: '/v1/agent/commands', status: 200 });
    await trace.flush();
    trace.dispose();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0], { t: 42, protocol: 'a3s', connection: 'demo', dir: 'out', frame: { schema: 'x', environment: { SECRET: REDACTED } }, http: { method: 'POST', path: '/v1/agent/commands' } });
    assert.deepEqual(lines[1]!.http, { method: 'POST', path: '/v1/agent/commands', status: 200 });
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

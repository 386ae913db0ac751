import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ProtocolTrace } from '../../../extension/transport/protocolTrace';
import { SecretValues } from '../../../extension/transport/secretValues';
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

test('secret keys in any spelling are redacted (camelCase, hyphens, upper case); usage counts and flags are kept', () => {
  const secretKeys = ['clientSecret', 'x-api-key', 'X-Api-Key', 'sessionToken', 'privateKey', 'refresh_token', 'bearer', 'Authorization', 'authenticationKey', 'apiKey', 'accessToken', 'AWS_SECRET_ACCESS_KEY', 'Set-Cookie', 'idToken', 'passphrase'];
  const frame = Object.fromEntries(secretKeys.map((k) => [k, `value-of-${k}`]));
  const out = redactSecrets(frame) as Record<string, unknown>;
  for (const key of secretKeys) {
    assert.equal(out[key], REDACTED, key);
  }
  const counts = { input_tokens: 5, output_tokens: 6, max_tokens: 7, tokenCount: 8, cachedInputTokens: 9, totalTokens: 10, token: 11, requiresToken: true, password: null, key: 'name', monkey: 'banana', tokenType: 'bearer' };
  assert.deepEqual(redactSecrets(counts), counts);
});

test('known secret values are redacted inside any string, keys and numbers untouched; short values are not', () => {
  const values = new SecretValues();
  values.add('sk-live-abcdef123456');
  values.add('12345');
  const frame = { result: { content: 'line 1\nKEY=sk-live-abcdef123456\n' }, error: { message: 'bad key sk-live-abcdef123456 (12345)' }, n: 12345, args: ['--x', 'sk-live-abcdef123456'] };
  assert.deepEqual(redactSecrets(frame, values), {
    result: { content: `line 1\nKEY=${REDACTED}\n` },
    error: { message: `bad key ${REDACTED} (12345)` },
    n: 12345,
    args: ['--x', REDACTED],
  });
});

test('ACP MCP servers: env and headers lists keep their names, every value redacted (short ones too)', () => {
  const frame = {
    method: 'session/new',
    params: {
      cwd: '/ws',
      mcpServers: [
        { name: 'tools', command: 'mcp-tools', args: ['--x'], env: [{ name: 'TOOLS_TOKEN', value: 'tok' }, { name: 'MODE', value: 'fast' }] },
        { type: 'http', name: 'tracker', url: 'https://t.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
      ],
    },
  };
  assert.deepEqual(redactSecrets(frame, new SecretValues()), {
    method: 'session/new',
    params: {
      cwd: '/ws',
      mcpServers: [
        { name: 'tools', command: 'mcp-tools', args: ['--x'], env: [{ name: 'TOOLS_TOKEN', value: REDACTED }, { name: 'MODE', value: REDACTED }] },
        { type: 'http', name: 'tracker', url: 'https://t.example/mcp', headers: [{ name: 'Authorization', value: REDACTED }] },
      ],
    },
  });
});

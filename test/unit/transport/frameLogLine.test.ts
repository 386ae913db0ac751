/** The Trace-level log line of a protocol frame: redacted, long strings shortened, HTTP requests named. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frameLogLine, LOG_LINE_LIMIT, LOG_STRING_LIMIT } from '../../../extension/transport/frameLogLine';

test('a frame is logged whole with its connection and direction, secrets redacted', () => {
  const line = frameLogLine('proxy', 'out', { type: 'hello', authentication_key: 'hunter2', environment: { API: 'sk-1' }, nested: [{ apiKey: 'x' }] });
  assert.equal(line, 'proxy → {"type":"hello","authentication_key":"<redacted>","environment":{"API":"<redacted>"},"nested":[{"apiKey":"<redacted>"}]}');
  assert.doesNotMatch(line, /hunter2|sk-1/);
});

test('HTTP frames say method, path and status', () => {
  assert.equal(frameLogLine('a3s', 'in', { ok: true }, { method: 'POST', path: '/v1/runs', status: 201 }), 'a3s ← POST /v1/runs 201 {"ok":true}');
  assert.equal(frameLogLine('a3s', 'out', null, { method: 'GET', path: '/v1/runs' }), 'a3s → GET /v1/runs null');
});

test('long strings are shortened in the log line, saying how much was left out', () => {
  const patch = 'A'.repeat(LOG_STRING_LIMIT + 1234);
  const line = frameLogLine('a3s', 'in', { type: 'change_set', patch_base64: patch, note: 'kept' });
  assert.ok(line.includes(`${'A'.repeat(LOG_STRING_LIMIT)}… (1234 more characters)`));
  assert.ok(line.includes('"note":"kept"'));
  assert.ok(line.length < LOG_STRING_LIMIT + 200);
});

test('a frame of many short strings is still one bounded line; values that are not JSON do not throw', () => {
  const many = Array.from({ length: 5000 }, (_, i) => `item ${i}`);
  const line = frameLogLine('c', 'in', many);
  assert.ok(line.length <= LOG_LINE_LIMIT + 40);
  assert.match(line, /more characters\)$/);
  assert.match(frameLogLine('c', 'in', { n: 1n }), /^c ← <not JSON: /);
});

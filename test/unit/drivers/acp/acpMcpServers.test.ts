/**
 * A profile's MCP servers reach the agent in session/new (and session/resume after a restart) as far as its
 * `mcpCapabilities` allow; the ones it cannot take are not sent and the run says so; env and header values are
 * registered as secrets and redacted from the trace, their names kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpServerNotice, planMcpServers } from '../../../../extension/drivers/acp/acpMcpServers';
import type { ConnectionProfile } from '../../../../extension/protocol/connectionProfile';
import { processSecretValues, SecretValues } from '../../../../extension/transport/secretValues';
import { redactSecrets } from '../../../../extension/transport/traceRedaction';
import { until } from '../driverKit';
import { idle, rig } from './acpDriverKit';
import type { Rig } from './acpDriverKit';

const SERVERS: NonNullable<ConnectionProfile['mcpServers']> = [
  { name: 'files', command: '/usr/bin/mcp-files', args: ['--root', '/ws'], env: { FILES_TOKEN: 'files-token-value-1' } },
  { name: 'tracker', type: 'http', url: 'https://tracker.example/mcp', headers: { Authorization: 'Bearer tracker-header-value-2' } },
];

const requests = (r: Rig, method: string): { mcpServers?: unknown[] }[] =>
  r.frames.flatMap((f) => (f.dir === 'out' && (f.frame as { method?: string }).method === method ? [(f.frame as { params: { mcpServers?: unknown[] } }).params] : []));

test('plan: stdio always, http and sse only as advertised; values registered as secrets; the notice names what was not sent', () => {
  const secrets = new SecretValues();
  const plain = planMcpServers(SERVERS, { http: false, sse: false }, secrets);
  assert.deepEqual(plain.passed, [{ name: 'files', command: '/usr/bin/mcp-files', args: ['--root', '/ws'], env: [{ name: 'FILES_TOKEN', value: 'files-token-value-1' }] }]);
  assert.deepEqual(plain.withheld, [{ name: 'tracker', why: 'the agent does not take http MCP servers' }]);
  assert.deepEqual(mcpServerNotice(plain), {
    text: 'MCP servers passed to the agent: files (stdio); the agent does not confirm them.\nMCP server tracker was not passed: the agent does not take http MCP servers.',
    level: 'warning',
  });
  const http = planMcpServers(SERVERS, { http: true }, secrets);
  assert.deepEqual(http.passed.map((s) => s.name), ['files', 'tracker']);
  assert.deepEqual(http.withheld, []);
  assert.equal(secrets.redact('files-token-value-1 tracker-header-value-2'), '<redacted> <redacted>');
  assert.equal(mcpServerNotice(planMcpServers(undefined, undefined, secrets)), undefined, 'no servers, nothing said');
});

test('a run passes the stdio server in session/new, says the http one was not sent, and the trace hides the values', { timeout: 40_000 }, async () => {
  const r = await rig({ mcpServers: SERVERS });
  const runId = await r.driver.startRun({ prompt: 'which mcp servers?', workspaceRoots: [r.ws.dir] });
  await until('answered', () => idle(r, runId));
  const [created] = requests(r, 'session/new');
  assert.deepEqual(created?.mcpServers, [{ name: 'files', command: '/usr/bin/mcp-files', args: ['--root', '/ws'], env: [{ name: 'FILES_TOKEN', value: 'files-token-value-1' }] }]);
  const items = r.items(runId);
  const notice = items.find((i) => i.kind === 'notice' && i.text.startsWith('MCP servers passed'));
  assert.match(notice?.kind === 'notice' ? notice.text : '', /files \(stdio\); the agent does not confirm them\.\nMCP server tracker was not passed: the agent does not take http/);
  assert.match(items.map((i) => (i.kind === 'text' ? i.text : '')).join(''), /MCP servers: files \(stdio\)\./, 'the agent got it');
  const traced = JSON.stringify(r.frames.map((f) => redactSecrets(f.frame)));
  assert.equal(traced.includes('files-token-value-1'), false, 'the env value is not traced');
  assert.ok(traced.includes('FILES_TOKEN'), 'its name is');
  assert.equal(processSecretValues.redact('x files-token-value-1 y'), 'x <redacted> y', 'the log and stderr redact it by value');
});

test('an agent that takes http servers gets both, also when its sessions are resumed after a crash', { timeout: 40_000 }, async () => {
  const r = await rig({ mcpServers: SERVERS, agentArgs: ['--mcp-http'] });
  const runId = await r.driver.startRun({ prompt: 'crash', workspaceRoots: [r.ws.dir] });
  await until('resumed after the restart', () => requests(r, 'session/resume').length === 1 && r.items(runId).some((i) => i.kind === 'notice' && /resumed/.test(i.text)));
  for (const params of [...requests(r, 'session/new'), ...requests(r, 'session/resume')]) {
    assert.deepEqual(params.mcpServers?.map((s) => (s as { name: string }).name), ['files', 'tracker']);
  }
  await r.driver.sendMessage(runId, 'mcp please');
  await until('answered after the restart', () => r.items(runId).some((i) => i.kind === 'text' && i.text.includes('MCP servers: files (stdio), tracker (http).')));
  assert.ok(!JSON.stringify(r.frames.map((f) => redactSecrets(f.frame))).includes('tracker-header-value-2'), 'the header value is not traced');
});

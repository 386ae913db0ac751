/**
 * The fake model server (test/fixtures/fakeModel) on its own, without an agent: routes, the SSE each scenario step
 * produces for both APIs, how a request's tool results pick the next step, aborts, recording, and its CLI bundle.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, test } from 'node:test';
import { build } from 'esbuild';
import { EDIT_TOOL_ID, MCP_TOOL_ID, READ_TOOL_ID, TOOL_SEARCH_ID } from '../../fixtures/fakeModel/anthropicMessages';
import { FakeModelServer } from '../../fixtures/fakeModel/fakeModelServer';
import { PATCH_CALL_ID } from '../../fixtures/fakeModel/openaiResponses';
import { DEFAULT_FINAL_TEXT, DEFAULT_MCP_FINAL_TEXT, DEFAULT_TEXT, DEFAULT_THOUGHT, SIDE_ANSWER, applyPatchText } from '../../fixtures/fakeModel/scenarios';
import { waitFor } from './acpTestClient';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    await s.close();
  }
});

async function serve(...args: ConstructorParameters<typeof FakeModelServer>): Promise<FakeModelServer> {
  const server = await new FakeModelServer(...args).start();
  servers.push(server);
  return server;
}

interface SseEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

async function post(url: string, body: unknown): Promise<SseEvent[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.trim() !== '').map((block) => {
    const [eventLine, dataLine] = block.split('\n');
    const data = JSON.parse(dataLine!.replace(/^data: /, '')) as SseEvent;
    assert.equal(eventLine, `event: ${data.type}`);
    return data;
  });
}

const joined = (events: SseEvent[], type: string, field: string): string => events.filter((e) => e.type === type).map((e) => String(e[field])).join('');

/** Claude Code offers its tools in every turn's request (a request without tools is one of its side requests). */
const TOOLS = [{ name: 'Read' }, { name: 'Edit' }];
/** What codex offers in a turn (a side request of its own offers none). */
const CODEX_TOOLS = [{ type: 'custom', name: 'apply_patch' }, { type: 'function', name: 'exec_command' }];

test('routes: HEAD / is 200, an unknown path 404, a WebSocket upgrade 426; all recorded', { timeout: 10_000 }, async () => {
  const server = await serve();
  assert.equal((await fetch(`${server.url}/`, { method: 'HEAD' })).status, 200);
  assert.equal((await fetch(`${server.url}/v1/models`)).status, 404);
  const status = await new Promise<number | undefined>((done) => {
    const req = request(`${server.url}/v1/responses`, { headers: { connection: 'Upgrade', upgrade: 'websocket' } });
    req.on('response', (res) => done(res.statusCode));
    req.on('error', () => done(undefined));
    req.end();
  });
  assert.equal(status, 426);
  assert.deepEqual(server.requests.map((r) => `${r.api} ${r.method} ${r.path}`), ['probe HEAD /', 'other GET /v1/models', 'websocket GET /v1/responses']);
});

test('OpenAI Responses: text = reasoning summary + output text + completed with usage', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'text' });
  const events = await post(`${server.url}/v1/responses`, { model: 'gpt-x', stream: true, input: [], tools: CODEX_TOOLS });
  assert.equal(events[0]?.type, 'response.created');
  assert.equal(events.at(-1)?.type, 'response.completed');
  assert.equal(joined(events, 'response.reasoning_summary_text.delta', 'delta'), DEFAULT_THOUGHT);
  assert.equal(joined(events, 'response.output_text.delta', 'delta'), DEFAULT_TEXT);
  assert.ok(events.filter((e) => e.type === 'response.output_text.delta').length > 3);
  assert.deepEqual(server.modelRequests().map((r) => [r.step, (r.body as { model: string }).model]), [['text', 'gpt-x']]);
});

test('OpenAI Responses: edit = apply_patch custom tool call, then the final text once its output is in the input', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'edit', path: '/w/README.md', oldString: 'hello', newString: 'hello, edited' });
  const first = await post(`${server.url}/v1/responses`, { input: [{ type: 'message', role: 'user', content: [] }], tools: CODEX_TOOLS });
  const done = first.find((e) => e.type === 'response.output_item.done')?.item as { type: string; name: string; call_id: string; input: string };
  assert.deepEqual([done.type, done.name, done.call_id], ['custom_tool_call', 'apply_patch', PATCH_CALL_ID]);
  assert.equal(done.input, applyPatchText('/w/README.md', 'hello', 'hello, edited'));
  assert.equal(joined(first, 'response.custom_tool_call_input.delta', 'delta'), done.input);
  const second = await post(`${server.url}/v1/responses`, { input: [{ type: 'custom_tool_call_output', call_id: PATCH_CALL_ID, output: 'ok' }], tools: CODEX_TOOLS });
  assert.equal(joined(second, 'response.output_text.delta', 'delta'), DEFAULT_FINAL_TEXT);
  assert.deepEqual(server.modelRequests().map((r) => r.step), ['tool:apply_patch', 'final']);
});

test('OpenAI Responses: a request offering no tools (codex titling its thread, with the prompt in it) is a side request, not a turn', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'text', text: 'The turn answer.' });
  const titleRequest = { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: "Generate a title. User's first message:\nsecond prompt" }] }], text: { format: { type: 'json_schema' } } };
  const side = await post(`${server.url}/v1/responses`, titleRequest);
  assert.equal(joined(side, 'response.output_text.delta', 'delta'), SIDE_ANSWER);
  assert.equal(side.at(-1)?.type, 'response.completed');
  await post(`${server.url}/v1/responses`, { input: [], tools: CODEX_TOOLS });
  assert.deepEqual(server.requests.map((r) => r.step), ['side', 'text']);
  assert.deepEqual(server.modelRequests().map((r) => r.step), ['text'], 'the side request is not one of the conversation\'s turns');
});

test('Anthropic Messages: text = thinking (with signature) + text; edit = Read, then Edit, then the final text', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'text' });
  const text = await post(`${server.url}/v1/messages?beta=true`, { model: 'claude-x', messages: [], tools: TOOLS });
  assert.deepEqual([text[0]?.type, text.at(-1)?.type], ['message_start', 'message_stop']);
  const deltas = text.filter((e) => e.type === 'content_block_delta').map((e) => e.delta as { type: string; text?: string; thinking?: string });
  assert.equal(deltas.filter((d) => d.type === 'thinking_delta').map((d) => d.thinking).join(''), DEFAULT_THOUGHT);
  assert.ok(deltas.some((d) => d.type === 'signature_delta'));
  assert.equal(deltas.filter((d) => d.type === 'text_delta').map((d) => d.text).join(''), DEFAULT_TEXT);
  server.setScenario({ kind: 'edit', path: '/w/README.md', oldString: 'hello', newString: 'hello, edited' });
  const toolOf = (events: SseEvent[]): { name: string; input: unknown } => {
    const start = events.find((e) => e.type === 'content_block_start')?.content_block as { name: string };
    const json = events.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { partial_json: string }).partial_json).join('');
    return { name: start.name, input: JSON.parse(json) };
  };
  const read = await post(`${server.url}/v1/messages`, { messages: [{ role: 'user', content: 'edit' }], tools: TOOLS });
  assert.deepEqual(toolOf(read), { name: 'Read', input: { file_path: '/w/README.md' } });
  assert.equal((read.find((e) => e.type === 'message_delta')?.delta as { stop_reason: string }).stop_reason, 'tool_use');
  const result = (id: string): unknown => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
  const edit = await post(`${server.url}/v1/messages`, { messages: [result(READ_TOOL_ID)], tools: TOOLS });
  assert.deepEqual(toolOf(edit), { name: 'Edit', input: { file_path: '/w/README.md', old_string: 'hello', new_string: 'hello, edited' } });
  const final = await post(`${server.url}/v1/messages`, { messages: [result(READ_TOOL_ID), result(EDIT_TOOL_ID)], tools: TOOLS });
  assert.equal(final.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { text: string }).text).join(''), DEFAULT_FINAL_TEXT);
  // Claude Code's own side requests (a title, a suggestion) offer no tools: a short text, not a step of the script.
  const side = await post(`${server.url}/v1/messages`, { messages: [{ role: 'user', content: 'a title for this session' }] });
  assert.equal(side.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { text: string }).text).join(''), SIDE_ANSWER);
  assert.deepEqual(server.modelRequests().map((r) => r.step), ['text', 'tool:Read', 'tool:Edit', 'final']);
  assert.equal(server.requests.at(-1)?.step, 'side');
});

test('slow: deltas keep coming until the client aborts; the request is recorded as aborted', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'slow', chunks: 1000, delayMs: 10 });
  const abort = new AbortController();
  const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ tools: TOOLS }), signal: abort.signal });
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes('slow 3 ')) {
    const { value } = await reader.read();
    seen += new TextDecoder().decode(value);
  }
  abort.abort();
  await waitFor('the abort recorded', () => server.modelRequests()[0]?.aborted === true);
  assert.equal(server.modelRequests()[0]?.done, true);
});

test('the CLI bundle prints its URL, takes a scenario over HTTP, lists what it recorded, stops on SIGTERM', { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fake-model-bundle-'));
  try {
    const outfile = join(dir, 'fakeModel.cjs');
    await build({ entryPoints: [resolve(__dirname, '../../fixtures/fakeModel/main.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'warning' });
    const child = spawn(process.execPath, [outfile, '--scenario', '{"kind":"text","text":"from the CLI"}'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const line = await new Promise<string>((done) => createInterface({ input: child.stdout }).once('line', done));
    const { url } = JSON.parse(line) as { url: string };
    assert.equal(joined(await post(`${url}/v1/responses`, { input: [], tools: CODEX_TOOLS }), 'response.output_text.delta', 'delta'), 'from the CLI');
    assert.equal((await fetch(`${url}/_fake/scenario`, { method: 'POST', body: JSON.stringify({ kind: 'text', text: 'changed' }) })).status, 204);
    assert.equal(joined(await post(`${url}/v1/responses`, { input: [], tools: CODEX_TOOLS }), 'response.output_text.delta', 'delta'), 'changed');
    const recorded = (await (await fetch(`${url}/_fake/requests`)).json()) as { api: string }[];
    assert.deepEqual(recorded.map((r) => r.api), ['openai', 'openai']);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A Gemini stream: `data:` lines only, each a GenerateContentResponse. */
async function postGemini(url: string, body: unknown): Promise<{ candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[] }[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  const text = await res.text();
  return text.split('\r\n\r\n').filter((b) => b.trim() !== '').map((block) => {
    assert.ok(block.startsWith('data: ') && !block.includes('event:'), block);
    return JSON.parse(block.slice('data: '.length)) as never;
  });
}

test('gemini: a text stream has a thought part, text parts and a last chunk with finishReason; side questions get their schema filled', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'text' });
  const chunks = await postGemini(`${server.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  const parts = chunks.flatMap((c) => c.candidates[0]!.content.parts);
  assert.equal(parts.filter((p) => p.thought === true).map((p) => p.text).join(''), `**Thinking**\n\n${DEFAULT_THOUGHT}`);
  assert.equal(parts.filter((p) => p.thought !== true).map((p) => p.text).join(''), DEFAULT_TEXT);
  assert.equal(chunks.at(-1)?.candidates[0]?.finishReason, 'STOP');
  const side = await fetch(`${server.url}/v1beta/models/gemini-lite:generateContent`, {
    method: 'POST',
    body: JSON.stringify({ generationConfig: { responseJsonSchema: { properties: { complexity_reasoning: {}, complexity_score: {} } } } }),
  });
  const answer = (await side.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
  assert.deepEqual(Object.keys(JSON.parse(answer.candidates[0]!.content.parts[0]!.text) as object), ['complexity_reasoning', 'complexity_score']);
  assert.deepEqual(server.modelRequests().map((r) => [r.api, r.step]), [['gemini', 'text']]);
});

test('gemini: the edit is a `replace` function call; its functionResponse in the next request brings the final text', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'edit', path: '/w/a.txt', oldString: 'a', newString: 'b' });
  const url = `${server.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`;
  const first = (await postGemini(url, { contents: [] })).flatMap((c) => c.candidates[0]!.content.parts);
  assert.deepEqual(first.find((p) => p.functionCall !== undefined)?.functionCall, { name: 'replace', args: { file_path: '/w/a.txt', old_string: 'a', new_string: 'b', instruction: 'Apply the requested edit.' } });
  const next = await postGemini(url, { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'replace', response: { output: 'ok' } } }] }] });
  assert.equal(next.flatMap((c) => c.candidates[0]!.content.parts).map((p) => p.text ?? '').join(''), DEFAULT_FINAL_TEXT);
  assert.deepEqual(server.modelRequests().map((r) => r.step), ['tool:replace', 'final']);
});

test('mcp: Claude Code gets ToolSearch while it defers the tool, then the tool, then the final text; Gemini CLI the function at once', { timeout: 10_000 }, async () => {
  const server = await serve({ kind: 'mcp', server: 'notes', tool: 'read_note', args: { name: 'alpha' } });
  const toolOf = (events: SseEvent[]): { name: string; input: unknown } => {
    const start = events.find((e) => e.type === 'content_block_start')?.content_block as { name: string };
    return { name: start.name, input: JSON.parse(events.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { partial_json: string }).partial_json).join('')) };
  };
  const deferred = [...TOOLS, { name: 'ToolSearch' }];
  const result = (id: string): unknown => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
  assert.deepEqual(toolOf(await post(`${server.url}/v1/messages`, { messages: [], tools: deferred })), { name: 'ToolSearch', input: { query: 'select:mcp__notes__read_note', max_results: 1 } });
  const loaded = [...deferred, { name: 'mcp__notes__read_note' }];
  assert.deepEqual(toolOf(await post(`${server.url}/v1/messages`, { messages: [result(TOOL_SEARCH_ID)], tools: loaded })), { name: 'mcp__notes__read_note', input: { name: 'alpha' } });
  const final = await post(`${server.url}/v1/messages`, { messages: [result(TOOL_SEARCH_ID), result(MCP_TOOL_ID)], tools: loaded });
  assert.equal(final.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { text: string }).text).join(''), DEFAULT_MCP_FINAL_TEXT);
  assert.deepEqual(server.modelRequests().map((r) => r.step), ['tool:ToolSearch', 'tool:mcp', 'final']);

  const url = `${server.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`;
  const call = (await postGemini(url, { contents: [] })).flatMap((c) => c.candidates[0]!.content.parts);
  assert.deepEqual(call.find((p) => p.functionCall !== undefined)?.functionCall, { name: 'mcp_notes_read_note', args: { name: 'alpha' } });
  const next = await postGemini(url, { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'mcp_notes_read_note', response: { output: 'ok' } } }] }] });
  assert.equal(next.flatMap((c) => c.candidates[0]!.content.parts).map((p) => p.text ?? '').join(''), DEFAULT_MCP_FINAL_TEXT);
});

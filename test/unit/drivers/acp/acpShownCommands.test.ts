/**
 * Commands an agent runs itself and reports in a tool call's `_meta` (acpCommandReports.ts → acpShownCommands.ts),
 * without an agent: the updates claude-agent-acp and codex-acp send, mapped and shown in recorded terminal views.
 * The `_meta` is untrusted: malformed parts are ignored, control characters do not reach the terminal's header,
 * output beyond the limit is cut with a line saying so, reports of an ended command open nothing, and at most
 * `maxRunning` commands are shown running at once. And through the driver against the reference agent (`ownshell`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { commandMetaOf } from '../../../../extension/drivers/acp/acpCommandReports';
import { mapAcpUpdate, newAcpMappingState } from '../../../../extension/drivers/acp/acpEventMapping';
import { AcpShownCommands } from '../../../../extension/drivers/acp/acpShownCommands';
import type { RunEvent } from '../../../../extension/model/modelActions';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { REPORTED_COMMAND, REPORTED_COMMAND_OUTPUT } from '../../../fixtures/acp/reportedCommand';
import { until } from '../driverKit';
import { idle, rig } from './acpDriverKit';
import { RecordingTerminalViews } from './recordingTerminalViews';

function shownRig(limits: { maxBytes?: number; maxRunning?: number } = {}) {
  const views = new RecordingTerminalViews();
  const shown = new AcpShownCommands({ connectionId: 'c', views, runTitle: () => 'Run', sessionCwd: () => '/ws', maxBytes: limits.maxBytes ?? 1024, maxRunning: limits.maxRunning ?? 8 });
  const mapping = newAcpMappingState();
  const events: RunEvent[] = [];
  const send = (update: SessionUpdate): void => {
    const mapped = mapAcpUpdate(mapping, update);
    events.push(...mapped.events);
    if (mapped.effects.command) {
      shown.apply('s1', mapped.effects.command);
    }
  };
  return { views, shown, send, events };
}

/** What claude-agent-acp sends for `Bash`: terminal named while the input streams, then input, output, exit. */
function claudeBash(id: string, command: string, output: string, exitCode: number | null): SessionUpdate[] {
  const terminal = { type: 'terminal' as const, terminalId: id };
  return [
    { sessionUpdate: 'tool_call', toolCallId: id, title: 'Terminal', kind: 'execute', status: 'pending', rawInput: {}, content: [terminal], _meta: { terminal_info: { terminal_id: id } } },
    { sessionUpdate: 'tool_call_update', toolCallId: id, title: command, rawInput: { command, description: 'd' } },
    { sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output: { terminal_id: id, data: output } } },
    { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', content: [terminal], _meta: { terminal_info: { terminal_id: id }, terminal_exit: { terminal_id: id, exit_code: exitCode, signal: null } } },
  ];
}

test('a reported command opens one read-only view once its command line is known: output, exit, linked from the row', () => {
  const r = shownRig();
  const [first, ...rest] = claudeBash('toolu_1', 'ls -la', 'a\nb\n', 0);
  r.send(first!);
  assert.equal(r.views.opened.length, 0, 'not while the input still streams');
  rest.forEach(r.send);
  const [view, ...more] = r.views.opened;
  assert.deepEqual(more, []);
  assert.deepEqual(view?.spec, { connectionId: 'c', runId: 's1', terminalId: 'toolu_1', runTitle: 'Run', command: 'ls -la', args: [], cwd: '/ws', reported: true });
  assert.equal(view?.output, 'a\nb\n');
  assert.deepEqual(view?.exit, { exitCode: 0, signal: null });
  assert.equal(view?.released, true);
  const links = r.events.flatMap((e) => (e.kind === 'toolTerminals' ? [e.terminalIds] : []));
  assert.deepEqual(links.at(-1), ['toolu_1']);
  const result = r.events.find((e) => e.kind === 'toolResult');
  assert.equal(result?.kind === 'toolResult' ? result.output : '', 'a\nb\n', 'the row keeps the output');
});

test('codex-acp: cwd from terminal_info, the command from `command` words, output deltas appended', () => {
  const r = shownRig();
  const id = 'call_9';
  r.send({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Run', kind: 'execute', status: 'in_progress', rawInput: { command: ['bash', '-lc', 'echo hi'] }, content: [{ type: 'terminal', terminalId: id }], _meta: { terminal_info: { terminal_id: id, cwd: '/ws/sub' } } });
  r.send({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output_delta: { terminal_id: id, data: 'h' } } });
  r.send({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output_delta: { terminal_id: id, data: 'i\n' } } });
  r.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed', _meta: { terminal_exit: { terminal_id: id, exit_code: 2, signal: null } } });
  const [view] = r.views.opened;
  assert.equal(view?.spec.command, 'bash -lc echo hi');
  assert.equal(view?.spec.cwd, '/ws/sub');
  assert.equal(view?.output, 'hi\n');
  assert.deepEqual(view?.exit, { exitCode: 2, signal: null });
});

test('untrusted _meta: malformed parts are ignored, another terminal id is not this call\'s, control characters stay out of the header', () => {
  assert.equal(commandMetaOf({ terminal_info: { terminal_id: 7 } }), undefined);
  assert.equal(commandMetaOf({ terminal_output: { terminal_id: 'x' } }), undefined);
  assert.equal(commandMetaOf('terminal_info'), undefined);
  assert.equal(commandMetaOf({ terminal_exit: { terminal_id: 'x', exit_code: 1.5 } }), undefined);
  assert.deepEqual(commandMetaOf({ terminal_exit: { terminal_id: 'x' } }), { exit: { terminalId: 'x', exitCode: null, signal: null } });

  const r = shownRig();
  const id = 'toolu_2';
  r.send({ sessionUpdate: 'tool_call', toolCallId: id, title: 'T', status: 'in_progress', rawInput: { command: 'echo \x1b]0;pwned\x07 ok\nrm' }, _meta: { terminal_info: { terminal_id: id, cwd: '/ws\x1b[2J' } } });
  r.send({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output: { terminal_id: 'someone_else', data: 'not mine' } } });
  const [view] = r.views.opened;
  assert.equal(view?.spec.command, 'echo  ]0;pwned  ok rm', 'each run of control characters becomes a space');
  assert.equal(view?.spec.cwd, '/ws [2J');
  assert.equal(view?.output, '', 'output of another terminal id is not shown here');
});

test('bounded: output over the limit is cut once (at a character), an ended command reopens nothing, at most maxRunning at once', () => {
  const r = shownRig({ maxBytes: 10, maxRunning: 2 });
  const send = (id: string, meta: Record<string, unknown>, status?: 'completed'): void =>
    r.send({ sessionUpdate: 'tool_call_update', toolCallId: id, ...(status ? { status } : {}), _meta: meta });
  for (const id of ['a', 'b', 'c']) {
    r.send({ sessionUpdate: 'tool_call', toolCallId: id, title: id, status: 'in_progress', rawInput: { command: `run ${id}` }, _meta: { terminal_info: { terminal_id: id } } });
  }
  assert.deepEqual(r.views.opened.map((v) => v.spec.terminalId), ['a', 'b'], 'the third is not shown while two run');
  send('a', { terminal_output: { terminal_id: 'a', data: '12345678é€more' } });
  send('a', { terminal_output: { terminal_id: 'a', data: 'and more' } });
  const a = r.views.opened[0]!;
  assert.match(a.output, /^12345678é\n\[The rest of the output is not shown: over 10 bytes\.\]\n$/);
  send('a', { terminal_exit: { terminal_id: 'a', exit_code: 0 } }, 'completed');
  assert.deepEqual(a.exit, { exitCode: 0, signal: null });
  r.shown.apply('s1', { terminalId: 'a', commandLine: 'again', output: 'late' });
  assert.equal(r.views.opened.filter((v) => v.spec.terminalId === 'a').length, 1, 'a late report of an ended command opens nothing');
  send('c', { terminal_output: { terminal_id: 'c', data: 'now' } });
  assert.equal(r.views.opened.at(-1)?.spec.terminalId, 'c', 'shown once a running one ended');
  r.shown.releaseAll();
  assert.ok(r.views.opened.every((v) => v.released), 'the agent gone: every view released');
});

test('through the driver (reference agent `ownshell`): shown in the run\'s terminal view even where no command may run here, linked from the row', { timeout: 30_000 }, async () => {
  const views = new RecordingTerminalViews();
  // An untrusted workspace runs nothing for the agent; showing what the agent ran itself is still right.
  views.refuseWith = 'not trusted';
  const r = await rig({ terminals: views });
  const runId = await r.driver.startRun({ prompt: 'ownshell please', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId) && r.items(runId).some((i) => i.kind === 'turn'));
  const [view, ...more] = views.opened;
  assert.deepEqual(more, []);
  assert.deepEqual([view?.spec.command, view?.spec.cwd, view?.spec.runId, view?.spec.reported], [REPORTED_COMMAND, r.ws.dir, runId, true]);
  assert.equal(view?.output, REPORTED_COMMAND_OUTPUT);
  assert.deepEqual(view?.exit, { exitCode: 0, signal: null });
  const tool = r.items(runId).find((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
  assert.deepEqual(tool?.terminals, [view?.spec.terminalId]);
  assert.equal(tool?.output, REPORTED_COMMAND_OUTPUT);
  assert.equal(tool?.status, 'succeeded');
});

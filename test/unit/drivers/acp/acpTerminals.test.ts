/**
 * The ACP client's terminals against the reference agent as a child process (its `terminal` keyword runs a command
 * the way agents do: create, show in the tool call, wait for the exit, read the output, release): the capability is
 * advertised; the command runs in the session's folder and is shown live (kit/terminalViews.ts); the tool row links
 * to its terminal; the agent reads the output cut to its byte limit; Stop and Disconnect kill a running command; an
 * untrusted workspace, a cwd outside the session's folder and an unknown terminal are refused with a clear error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AcpSession } from '../../../../extension/drivers/acp/acpSessions';
import { AcpClientRefusal, AcpTerminals, MAX_TERMINALS, cwdInside } from '../../../../extension/drivers/acp/acpTerminals';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { TERMINAL_EXIT_CODE, TERMINAL_OUTPUT_LIMIT } from '../../../fixtures/acp/terminalTool';
import { until } from '../driverKit';
import { idle, later, rig, run } from './acpDriverKit';
import { RecordingTerminalViews } from './recordingTerminalViews';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
const tools = (items: readonly TranscriptItem[]): ToolItem[] => items.filter((i): i is ToolItem => i.kind === 'tool');
const answer = (items: readonly TranscriptItem[]): string => items.filter((i) => i.kind === 'text').map((i) => (i.kind === 'text' ? i.text : '')).join('');
const framesOf = (frames: readonly { dir: string; frame: unknown }[], method: string) => frames.filter((f) => (f.frame as { method?: string }).method === method);

test('the client advertises terminals in initialize', { timeout: 30_000 }, async () => {
  const r = await rig({ terminals: new RecordingTerminalViews() });
  const [init] = framesOf(r.frames, 'initialize');
  assert.equal((init?.frame as { params: { clientCapabilities: { terminal?: boolean } } }).params.clientCapabilities.terminal, true);
});

test('a command the agent runs: shown live in its terminal, linked from the tool row, its output read cut to the limit, released', { timeout: 30_000 }, async () => {
  const views = new RecordingTerminalViews();
  const r = await rig({ terminals: views });
  const runId = await r.driver.startRun({ prompt: 'run terminal:300 please', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const [shown] = views.opened;
  assert.ok(shown, 'a terminal was opened');
  assert.deepEqual([shown.spec.command, shown.spec.cwd, shown.spec.runId, shown.spec.runTitle], ['sh', realpathSync(r.ws.dir), runId, 'run terminal:300 please']);
  assert.match(shown.output, /^line 1 of the reference command$/m, 'the view got all of it, from the first line');
  assert.match(shown.output, /^line 300 of the reference command$/m);
  assert.match(shown.output, /failing on purpose/, 'stderr too');
  assert.deepEqual(shown.exit, { exitCode: TERMINAL_EXIT_CODE, signal: null });
  assert.equal(shown.released, true, 'the agent released it');

  const [tool] = tools(r.items(runId));
  assert.deepEqual(tool?.terminals, [shown.spec.terminalId], 'the tool row links to the terminal');
  assert.equal(tool?.status, 'failed', 'exit code 3: the agent reports the call failed');
  assert.match(tool?.output ?? '', /exited with code 3; its output was cut/);
  assert.doesNotMatch(tool?.output ?? '', /Terminal term-/, 'the terminal is a link, not output text');

  const outputAnswer = framesOf(r.frames, 'terminal/output').length;
  assert.equal(outputAnswer, 1, 'the agent read the output once');
  const response = r.frames.find((f) => f.dir === 'out' && typeof (f.frame as { result?: { output?: unknown } }).result?.output === 'string');
  const result = (response?.frame as { result: { output: string; truncated: boolean; exitStatus: unknown } }).result;
  assert.equal(result.truncated, true);
  assert.ok(Buffer.byteLength(result.output) <= TERMINAL_OUTPUT_LIMIT, `${Buffer.byteLength(result.output)} bytes kept`);
  assert.doesNotMatch(result.output, /^line 1 of/m, 'the start was cut');
  assert.deepEqual(result.exitStatus, { exitCode: TERMINAL_EXIT_CODE, signal: null });
  assert.match(answer(r.items(runId)), /The command exited with code 3\. Its last line: `failing on purpose`/, 'the agent read what the command wrote last');
});

test('Stop on the run kills its running command (even when the agent would not); the turn ends cancelled', { timeout: 30_000 }, async () => {
  const views = new RecordingTerminalViews();
  const r = await rig({ terminals: views });
  const runId = await r.driver.startRun({ prompt: 'terminal:stuck', workspaceRoots: [r.ws.dir] });
  const shown = await until('ticking', () => views.opened.find((t) => t.output.includes('tick 3')));
  assert.equal(views.opened[0]?.exit, undefined, 'still running');
  await r.driver.cancelRun(runId);
  await until('cancelled', () => r.items(runId).some((i) => i.kind === 'turn' && i.phase === 'cancelled'));
  await until('killed and released', () => shown.exit !== undefined && shown.released);
  assert.equal(shown.exit?.exitCode, null);
  assert.match(shown.exit?.signal ?? '', /^SIG(TERM|KILL)$/);
  assert.equal(framesOf(r.frames, 'terminal/kill').length, 0, 'the agent did not kill it: Stop did');
  assert.ok(idle(r, runId));
});

test('Disconnect kills every running command and releases its view', { timeout: 30_000 }, async () => {
  const views = new RecordingTerminalViews();
  const r = await rig({ terminals: views });
  const runId = await r.driver.startRun({ prompt: 'terminal:slow', workspaceRoots: [r.ws.dir] });
  const shown = await until('ticking', () => views.opened.find((t) => t.output.includes('tick 2')));
  await r.driver.disconnect();
  await until('killed and released', () => shown.exit !== undefined && shown.released);
  assert.ok(shown.exit?.signal, JSON.stringify(shown.exit));
  assert.notEqual(run(r, runId)?.state, 'running');
});

test('in an untrusted workspace nothing runs: terminal/create is refused with the reason, and the agent says so', { timeout: 30_000 }, async () => {
  const views = new RecordingTerminalViews();
  views.refuseWith = 'This workspace is not trusted: Agent Switchboard runs no commands for an agent in it.';
  const r = await rig({ terminals: views });
  const runId = await r.driver.startRun({ prompt: 'terminal', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  assert.equal(views.opened.length, 0, 'nothing opened, nothing ran');
  const error = r.frames.find((f) => f.dir === 'out' && (f.frame as { error?: unknown }).error !== undefined)?.frame as { error: { code: number; message: string } };
  assert.equal(error.error.code, -32602);
  assert.match(error.error.message, /not trusted/);
  const [tool] = tools(r.items(runId));
  assert.equal(tool?.status, 'failed');
  assert.match(answer(r.items(runId)), /did not run the command: .*not trusted/);
});

test('without a place to show them, the driver runs no commands', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'terminal', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  assert.match(answer(r.items(runId)), /did not run the command: .*runs no commands/);
});

test('the cwd must be absolute, exist, and resolve inside the session folder (links followed)', () => {
  const root = mkdtempSync(join(tmpdir(), 'acp-cwd-'));
  later(() => rmSync(root, { recursive: true, force: true }));
  const session = join(root, 'project');
  mkdirSync(join(session, 'src'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  symlinkSync(join(root, 'elsewhere'), join(session, 'escape'));
  const real = realpathSync(session);
  assert.equal(cwdInside(session, undefined), real);
  assert.equal(cwdInside(session, join(session, 'src')), join(real, 'src'));
  const refused = (cwd: string, why: RegExp) => assert.throws(() => cwdInside(session, cwd), (e: unknown) => e instanceof AcpClientRefusal && e.kind === 'invalidParams' && why.test(e.message));
  refused(join(root, 'elsewhere'), /outside the session's workspace/);
  refused(join(session, 'escape'), /outside the session's workspace/);
  refused(join(session, '..'), /outside the session's workspace/);
  refused('src', /must be an absolute path/);
  refused(join(session, 'missing'), /not a directory/);
});

test('a released terminal, or one of another session, is not found; too many terminals at once are refused', { timeout: 30_000 }, async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-terms-')));
  later(() => rmSync(dir, { recursive: true, force: true }));
  const views = new RecordingTerminalViews();
  const session = (sessionId: string) => ({ sessionId, cwd: dir }) as AcpSession;
  const terminals = new AcpTerminals({ connectionId: 'acp:t', views, session: (id) => (id === 'missing' ? undefined : session(id)), runTitle: () => 'run', baseEnv: process.env });
  later(() => terminals.disposeAll());
  const notFound = (e: unknown) => e instanceof AcpClientRefusal && e.kind === 'notFound';
  assert.throws(() => terminals.create({ sessionId: 'missing', command: 'true' }), notFound);
  const { terminalId } = terminals.create({ sessionId: 's1', command: 'sh', args: ['-c', 'echo hi'] });
  assert.deepEqual(await terminals.waitForExit({ sessionId: 's1', terminalId }), { exitCode: 0, signal: null });
  assert.deepEqual(terminals.output({ sessionId: 's1', terminalId }), { output: 'hi\n', truncated: false, exitStatus: { exitCode: 0, signal: null } });
  assert.throws(() => terminals.output({ sessionId: 's2', terminalId }), notFound, "another session's terminal");
  await terminals.release({ sessionId: 's1', terminalId });
  assert.equal(views.opened[0]?.released, true);
  assert.throws(() => terminals.output({ sessionId: 's1', terminalId }), notFound, 'released');
  await assert.rejects(terminals.kill({ sessionId: 's1', terminalId }), notFound);
  for (let i = 0; i < MAX_TERMINALS; i++) {
    terminals.create({ sessionId: 's1', command: 'sleep', args: ['30'] });
  }
  assert.throws(() => terminals.create({ sessionId: 's1', command: 'true' }), (e: unknown) => e instanceof AcpClientRefusal && /release one first/.test(e.message));
  await terminals.killSession('s1');
  // Killed, each of them (`sleep 30` ends no other way this soon). On a loaded machine one may still be starting
  // when Stop comes, and end by the group's SIGKILL or its supervisor's exit instead of the SIGTERM itself.
  const exits = views.opened.slice(1).map((t) => t.exit);
  assert.ok(exits.every((e) => e !== undefined && (e.signal !== null || e.exitCode !== 0)), `Stop kills every command of the session: ${JSON.stringify(exits)}`);
  assert.ok(exits.some((e) => e?.signal === 'SIGTERM'), 'by SIGTERM first');
});

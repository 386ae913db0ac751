/**
 * A command run for an agent (transport/terminalProcess.ts): its output within the byte limit, its exit code or the
 * signal that ended it, a kill that ends everything it started (one process group), and a command that cannot start.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { NOT_STARTED_EXIT_CODE, TerminalProcess } from '../../../extension/transport/terminalProcess';
import type { TerminalCommand } from '../../../extension/transport/terminalProcess';
import { isAlive, processGroupMembers } from '../../fixtures/acp/processTree';
import { waitFor } from '../fixtures/acp/acpTestClient';

const started: TerminalProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.kill(200)));
});

function run(spec: Partial<TerminalCommand> & { readonly command: string }): TerminalProcess {
  const terminal = new TerminalProcess({ args: [], cwd: process.cwd(), env: process.env, outputByteLimit: 1 << 20, ...spec });
  started.push(terminal);
  return terminal;
}

test('stdout and stderr are kept, and the exit code once it ended', { timeout: 20_000 }, async () => {
  const t = run({ command: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'] });
  const exit = await t.exited;
  assert.deepEqual(exit, { exitCode: 3, signal: null });
  const snapshot = t.snapshot();
  assert.match(snapshot.output, /^out\n/m);
  assert.match(snapshot.output, /^err\n/m);
  assert.equal(snapshot.truncated, false);
  assert.deepEqual(snapshot.exitStatus, { exitCode: 3, signal: null });
});

test('args, env and cwd reach the command as given (no shell in between)', { timeout: 20_000 }, async () => {
  const t = run({ command: process.execPath, args: ['-e', 'console.log(process.argv[1], process.env.TERMINAL_TEST, process.cwd())', 'a b; $HOME'], cwd: '/tmp', env: { ...process.env, TERMINAL_TEST: 'given' } });
  await t.exited;
  assert.equal(t.snapshot().output, 'a b; $HOME given /tmp\n');
});

test('a long output keeps only its last outputByteLimit bytes and says it was truncated', { timeout: 20_000 }, async () => {
  const t = run({ command: 'sh', args: ['-c', 'i=1; while [ $i -le 500 ]; do echo "line $i"; i=$((i+1)); done'], outputByteLimit: 100 });
  await t.exited;
  const { output, truncated } = t.snapshot();
  assert.equal(truncated, true);
  assert.ok(Buffer.byteLength(output) <= 100, `${Buffer.byteLength(output)} bytes`);
  assert.ok(output.endsWith('line 499\nline 500\n'), output);
  assert.ok(!output.includes('line 1\n'));
});

test('live output is streamed as it comes', { timeout: 20_000 }, async () => {
  const t = run({ command: 'sh', args: ['-c', 'echo first; sleep 0.2; echo second'] });
  let seen = '';
  t.onOutput((text) => (seen += text));
  await t.exited;
  assert.equal(seen, 'first\nsecond\n');
});

test('kill ends the command and the children it started (one process group); the exit says which signal', { timeout: 20_000 }, async () => {
  // The background sleep ignores SIGTERM: only the group's SIGKILL reaches it.
  const t = run({ command: 'sh', args: ['-c', "trap '' TERM; (trap '' TERM; exec sleep 300) & echo child $!; wait"] });
  const child = await waitFor('the child pid', () => /child (\d+)/.exec(t.snapshot().output)?.[1]);
  assert.ok(isAlive(Number(child)));
  assert.ok(t.isRunning);
  await t.kill(300);
  assert.equal(t.isRunning, false);
  const exit = await t.exited;
  assert.equal(exit.exitCode, null);
  assert.match(exit.signal ?? '', /^SIG(TERM|KILL)$/);
  await waitFor('the background child to be gone', () => !isAlive(Number(child)));
  assert.deepEqual(processGroupMembers(t.pid!), []);
});

test('a command that exits on SIGTERM reports SIGTERM', { timeout: 20_000 }, async () => {
  const t = run({ command: 'sleep', args: ['300'] });
  await waitFor('running', () => t.pid !== undefined && processGroupMembers(t.pid).length >= 2);
  await t.kill();
  assert.deepEqual(await t.exited, { exitCode: null, signal: 'SIGTERM' });
});

test('a command that cannot be started exits 127 with the reason as its output', { timeout: 20_000 }, async () => {
  const t = run({ command: 'no-such-command-for-terminal-test' });
  assert.deepEqual(await t.exited, { exitCode: NOT_STARTED_EXIT_CODE, signal: null });
  assert.match(t.snapshot().output, /no-such-command-for-terminal-test: could not be started \(ENOENT\)/);
});

test('kill after the exit changes nothing', { timeout: 20_000 }, async () => {
  const t = run({ command: 'sh', args: ['-c', 'exit 0'] });
  await t.exited;
  await t.kill();
  assert.deepEqual(t.snapshot().exitStatus, { exitCode: 0, signal: null });
});

/**
 * An agent process through `StdioProcess` (transport/stdioProcess.ts) and its supervisor (agentSupervisor.ts): the
 * agent and its children die with the host even when the host is SIGKILLed; `stop` ends the whole group; stdout comes
 * through in complete lines however it is chunked; a line without end stops the agent with the reason, at a cost
 * linear in its length; a failed spawn says why; the host's ELECTRON_RUN_AS_NODE does not reach the agent.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { FrameDirection } from '../../../extension/transport/frameTap';
import { supervisorLaunch } from '../../../extension/transport/agentSupervisor';
import { StdioProcess } from '../../../extension/transport/stdioProcess';
import { isAlive } from '../../fixtures/acp/processTree';
import { waitFor } from '../fixtures/acp/acpTestClient';

const started: StdioProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop(200)));
});

function agent(script: string, options: { maxLineBytes?: number; env?: NodeJS.ProcessEnv } = {}): { process: StdioProcess; frames: { dir: FrameDirection; frame: unknown }[] } {
  const frames: { dir: FrameDirection; frame: unknown }[] = [];
  const process_ = new StdioProcess({
    command: process.execPath,
    args: ['-e', script],
    cwd: process.cwd(),
    env: options.env ?? process.env,
    tap: (dir, frame) => frames.push({ dir, frame }),
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
  });
  started.push(process_);
  return { process: process_, frames };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) {
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts).toString('utf8');
}

test('a SIGKILLed host takes the agent and its grandchild with it (the supervisor sees the pipe close)', { timeout: 30_000 }, async () => {
  const host = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'stdioHostFixture.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  host.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const pids = await waitFor('the host to report the pids', () => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]!) as Record<string, number>) : undefined), 20_000);
  const others = [pids.supervisor!, pids.agent!, pids.grandchild!];
  assert.ok(others.every((pid) => Number.isInteger(pid) && isAlive(pid)), `all running: ${JSON.stringify(pids)}`);
  host.kill('SIGKILL');
  await waitFor('the agent, its grandchild and the supervisor to be gone', () => others.every((pid) => !isAlive(pid)), 15_000);
});

test('stop ends the agent and everything it started (one process group)', { timeout: 20_000 }, async () => {
  const { process: p } = agent(`
    const { spawn } = require('child_process');
    const g = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
    process.stdout.write(JSON.stringify({ agent: process.pid, grandchild: g.pid }) + '\\n');
    setInterval(() => {}, 1e6);`);
  const reader = p.readable.getReader();
  const pids = JSON.parse(Buffer.from((await reader.read()).value!).toString('utf8')) as { agent: number; grandchild: number };
  assert.ok(isAlive(pids.agent) && isAlive(pids.grandchild));
  await p.stop(300);
  assert.ok(!p.isRunning);
  await waitFor('the group to be gone', () => !isAlive(pids.agent) && !isAlive(pids.grandchild));
  assert.equal((await p.exited).signal, 'SIGTERM', "the agent's own end is forwarded");
});

test('the exit code and stderr tail are the agent’s; a cut first stderr line is not shown', { timeout: 20_000 }, async () => {
  const { process: p } = agent(`process.stderr.write('x'.repeat(70000) + '\\nsecond\\nlast words\\n', () => process.exit(3));`);
  assert.deepEqual(await p.exited, { code: 3, signal: null });
  assert.equal(p.stderrTail(5), 'second\nlast words');
});

test('stdout in odd chunks comes out as complete lines, each tapped once', { timeout: 20_000 }, async () => {
  const { process: p, frames } = agent(`
    const parts = ['{"jsonrpc":"2.0","method":"a","params":{"t":"é', 'x"}}\\n{"jsonrpc":"2.0",', '"method":"b"}\\n', 'not json\\n{"last":true}'];
    let i = 0;
    const next = () => (i < parts.length ? process.stdout.write(parts[i++], () => setTimeout(next, 5)) : process.exit(0));
    next();`);
  const text = await readAll(p.readable);
  assert.equal(text, '{"jsonrpc":"2.0","method":"a","params":{"t":"éx"}}\n{"jsonrpc":"2.0","method":"b"}\nnot json\n{"last":true}');
  assert.deepEqual(frames, [
    { dir: 'in', frame: { jsonrpc: '2.0', method: 'a', params: { t: 'éx' } } },
    { dir: 'in', frame: { jsonrpc: '2.0', method: 'b' } },
    { dir: 'in', frame: { unparsed: 'not json' } },
    { dir: 'in', frame: { last: true } },
  ]);
});

test('a line longer than the limit stops the agent and says why; the stream ends', { timeout: 20_000 }, async () => {
  const { process: p } = agent(`process.stdout.write('{"ok":1}\\n' + 'x'.repeat(3 * 1024 * 1024)); setInterval(() => {}, 1e6);`, { maxLineBytes: 1024 * 1024 });
  assert.equal(await readAll(p.readable), '{"ok":1}\n', 'only the complete line went on');
  const exit = await p.exited;
  assert.equal(exit.stoppedBecause, 'the agent wrote a line longer than 1 MiB without a newline; it was stopped');
  assert.ok(!p.isRunning);
});

/** The host's CPU time (ms) to take `bytes` without a newline, then one, from an agent. */
async function cpuFor(bytes: number): Promise<number> {
  const before = process.cpuUsage();
  const { process: p } = agent(`const b = Buffer.alloc(${bytes}, 0x61); process.stdout.write(b); process.stdout.write('\\n', () => process.exit(0));`);
  const text = await readAll(p.readable);
  assert.equal(text.length, bytes + 1);
  await p.exited;
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

test('32 MiB without a newline costs the host about 32 times what 1 MiB does, not 1000 times (linear, not quadratic)', { timeout: 60_000 }, async () => {
  await cpuFor(1024 * 1024); // warm-up: module loading and JIT are not part of either measurement
  const small = await cpuFor(1024 * 1024);
  const large = await cpuFor(32 * 1024 * 1024);
  // Linear: up to ~32× (less, with the fixed cost of a process); quadratic: ~1000×, seconds of CPU.
  assert.ok(large < Math.max(small, 5) * 64, `1 MiB: ${small.toFixed(0)} ms, 32 MiB: ${large.toFixed(0)} ms of CPU`);
});

test('a command that does not exist: the exit says ENOENT', { timeout: 20_000 }, async () => {
  const p = new StdioProcess({ command: '/nonexistent/agent-switchboard-agent', args: [], cwd: process.cwd(), env: process.env, tap: () => undefined });
  started.push(p);
  const exit = await p.exited;
  assert.equal(exit.spawnError, 'ENOENT');
});

test("the host's ELECTRON_RUN_AS_NODE is not the agent's; one the agent was given is", { timeout: 20_000 }, async () => {
  const hostEnv = { ELECTRON_RUN_AS_NODE: '1' };
  const config = (env: Record<string, string>) => JSON.parse(supervisorLaunch('a', [], env, 100, hostEnv).args[2]!) as { electronRunAsNode: string | null };
  assert.equal(config({ ELECTRON_RUN_AS_NODE: '1' }).electronRunAsNode, null);
  assert.equal(config({}).electronRunAsNode, null);
  assert.equal(config({ ELECTRON_RUN_AS_NODE: '0' }).electronRunAsNode, '0');
  assert.equal(supervisorLaunch('a', [], {}, 100, hostEnv).env.ELECTRON_RUN_AS_NODE, '1', 'the supervisor itself runs as Node');
  // A real agent, with the variable inherited from a host that has it.
  const saved = process.env.ELECTRON_RUN_AS_NODE;
  process.env.ELECTRON_RUN_AS_NODE = '1';
  try {
    const { process: p } = agent(`process.stdout.write(JSON.stringify({ v: process.env.ELECTRON_RUN_AS_NODE ?? null }) + '\\n', () => process.exit(0));`);
    assert.equal(await readAll(p.readable), '{"v":null}\n');
  } finally {
    if (saved === undefined) {
      delete process.env.ELECTRON_RUN_AS_NODE;
    } else {
      process.env.ELECTRON_RUN_AS_NODE = saved;
    }
  }
});

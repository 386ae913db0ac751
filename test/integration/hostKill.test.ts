/**
 * An ACP agent dies with the extension host, however the host ends (transport/agentSupervisor.ts). This suite runs
 * in a window of its own (test/harness/hostKill.mjs): it starts the reference agent through a shell that also leaves
 * a `sleep` behind in the agent's process group, writes the extension host's pid and every pid of that group to the
 * state file the runner gave it, and waits. The runner then SIGKILLs this very extension host — nothing of ours runs
 * after that — and passes only when every one of those processes is gone.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import { descendantsOf, processGroupMembers, processGroupOf } from '../fixtures/acp/processTree';
import { addConnections, commandLine, fixturePath } from './acpSupport';
import { api, waitFor } from './support';

const NAME = 'ACP host kill';

suite('Host kill', () => {
  test('an agent (and a process it started) is running under its supervisor; the runner kills this host next', async function () {
    this.timeout(180000);
    const stateFile = process.env.SWITCHBOARD_HOST_KILL_STATE;
    assert.ok(stateFile, 'SWITCHBOARD_HOST_KILL_STATE: this suite is run by the runner, which kills the host');
    // Started once: a host VS Code brings back after the kill must not start a second agent for the runner to miss.
    if (fs.existsSync(stateFile)) {
      return;
    }
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-host-kill-'));
    const agent = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(fixturePath('acp'))} --state-dir ${JSON.stringify(stateDir)}`;
    await addConnections([{ name: NAME, protocol: 'acp', command: '/bin/sh', args: ['-c', `sleep 600 & ${agent}`] }]);
    const a = await api();
    await waitFor('the agent connected', () => a.store.state.connections.get(`acp:${NAME}`)?.state.kind === 'connected', 60000);
    // The agent's group, found from the process it started (whoever leads it): the agent, its sleep and — with the
    // supervisor — the supervisor.
    const sleeper = await waitFor('the agent\'s sleep', () => descendantsOf(process.pid).find((pid) => commandLine(pid).trim() === 'sleep 600'));
    const pgid = processGroupOf(sleeper)!;
    const pids = await waitFor('the agent and its sleep in one group', () => {
      const members = processGroupMembers(pgid);
      return members.length >= 2 && members;
    });
    fs.writeFileSync(`${stateFile}.tmp`, JSON.stringify({ hostPid: process.pid, pids }));
    fs.renameSync(`${stateFile}.tmp`, stateFile);
    // The runner SIGKILLs this process now; this promise never settles.
    await new Promise<never>(() => undefined);
  });
});

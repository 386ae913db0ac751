import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { classifyHiveSocketPath, discoverHiveSockets } from '../../../../extension/drivers/hive/socketLayout';
import { withHive } from './hiveKit';

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hvl-'));
  try {
    await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function listen(socketPath: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return server;
}

describe('hive socket layout', () => {
  it('lists the manager and agents of a hive directory', () =>
    withHive(async ({ hive }) => {
      // Noise: an agent dir without a socket, and a regular file posing as a socket.
      await fs.mkdir(path.join(hive.dir, 'agents', 'ghost'));
      await fs.mkdir(path.join(hive.dir, 'agents', 'bogus'));
      await fs.writeFile(path.join(hive.dir, 'agents', 'bogus', 'mcp.sock'), '');
      const layout = await discoverHiveSockets(hive.dir);
      assert.deepEqual(
        layout.sockets.map((s) => [s.role, s.name, s.socketPath]),
        [
          ['manager', 'manager', hive.managerSocket],
          ['agent', 'iris', hive.agentSocket('iris')],
          ['agent', 'otto', hive.agentSocket('otto')],
          ['agent', 'ruth', hive.agentSocket('ruth')],
        ],
      );
      assert.equal(layout.problems.length, 1);
      assert.match(layout.problems[0] ?? '', /bogus.*not a socket/);
    }));

  it('describes a single socket path', () =>
    withHive(async ({ hive }) => {
      const layout = await discoverHiveSockets(hive.agentSocket('ruth'));
      assert.deepEqual(layout.sockets, [{ role: 'agent', name: 'ruth', socketPath: hive.agentSocket('ruth') }]);
      assert.deepEqual(layout.problems, []);
    }));

  it('finds the lone in-container socket with an unknown role', () =>
    withTempDir(async (dir) => {
      const runHive = path.join(dir, 'hive');
      await fs.mkdir(runHive);
      const server = await listen(path.join(runHive, 'mcp.sock'));
      try {
        const layout = await discoverHiveSockets(runHive);
        assert.deepEqual(layout.sockets, [{ role: 'unknown', name: 'hive', socketPath: path.join(runHive, 'mcp.sock') }]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }));

  it('reports a missing or empty directory as a problem, never throws', () =>
    withTempDir(async (dir) => {
      const missing = await discoverHiveSockets(path.join(dir, 'nope'));
      assert.deepEqual(missing.sockets, []);
      assert.match(missing.problems[0] ?? '', /does not exist/);
      const empty = await discoverHiveSockets(dir);
      assert.deepEqual(empty.sockets, []);
      assert.match(empty.problems[0] ?? '', /no mcp\.sock found/);
      await fs.writeFile(path.join(dir, 'file'), '');
      assert.match((await discoverHiveSockets(path.join(dir, 'file'))).problems[0] ?? '', /neither a socket nor a directory/);
    }));

  it('classifies paths', () => {
    assert.deepEqual(classifyHiveSocketPath('/run/hyperhive/manager/mcp.sock').role, 'manager');
    assert.deepEqual(classifyHiveSocketPath('/run/hyperhive/agents/iris/mcp.sock'), { role: 'agent', name: 'iris', socketPath: '/run/hyperhive/agents/iris/mcp.sock' });
    assert.deepEqual(classifyHiveSocketPath('/run/hive/mcp.sock').role, 'unknown');
  });
});

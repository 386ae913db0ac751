/**
 * A stand-in for the extension host (run by stdioProcess.test.ts as its own process): starts a `StdioProcess` for a
 * long-lived fake agent that starts a grandchild, prints `{"host","supervisor","agent","grandchild"}` once the agent
 * has said its pids, and then waits to be killed.
 */
import { StdioProcess } from '../../../extension/transport/stdioProcess';

const AGENT = `
const { spawn } = require('child_process');
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
process.stdout.write(JSON.stringify({ agent: process.pid, grandchild: grandchild.pid }) + '\\n');
setInterval(() => {}, 1e6);
`;

async function main(): Promise<void> {
  const agent = new StdioProcess({ command: process.execPath, args: ['-e', AGENT], cwd: process.cwd(), env: process.env, tap: () => undefined });
  const { value } = await agent.readable.getReader().read();
  const pids = JSON.parse(Buffer.from(value ?? new Uint8Array()).toString('utf8')) as Record<string, number>;
  process.stdout.write(`${JSON.stringify({ host: process.pid, supervisor: agent.pid, ...pids })}\n`);
  setInterval(() => undefined, 1e6);
}

void main();

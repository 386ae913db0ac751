/**
 * A stored API key never reaches the protocol trace or the log, wherever it shows up: the ACP driver against the
 * reference agent, signed in with a key (kept through the driver's secret store, which registers the value), with
 * the real trace writer and the extension's log wrapper (ui/redactingLog.ts) behind the driver's tap and log. The key
 * is planted in a file the agent reads (`fs/read_text_file`: the response carries it, and the agent's diff echoes
 * it), in an error text (a read of a missing file whose name holds it), in a prompt, and in a crashing agent's stderr
 * (the crash reason the driver logs and shows). Each place is checked to have really carried the key (so the test
 * fails without redaction by value), then the trace file and the log lines are searched for it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type * as vscode from 'vscode';
import { AcpDriver } from '../../../extension/drivers/acp/acpDriver';
import { memorySecrets } from '../../../extension/drivers/acp/acpEditorAccess';
import { storeAuthChoice } from '../../../extension/drivers/acp/acpLaunch';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import { frameLogLine } from '../../../extension/transport/frameLogLine';
import { combineTaps, ProtocolTrace } from '../../../extension/transport/protocolTrace';
import { MIN_SECRET_LENGTH, processSecretValues, SecretValues } from '../../../extension/transport/secretValues';
import { redactingLog } from '../../../extension/ui/redactingLog';
import { AUTH_ENV_VAR, AUTH_METHOD_ID } from '../../fixtures/acp/referenceAgent';
import { referenceAgentBundle } from '../../fixtures/acp/referenceAgentProcess';
import { makeWorkspace } from '../drivers/acp/acpWorkspace';
import { diskWorkspace } from '../drivers/acp/diskWorkspace';
import { driverSetup, until } from '../drivers/driverKit';

const KEY = 'sk-ref-7f3a9c2e1b4d5a6f';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) {
    await c();
  }
});

/** A LogOutputChannel that keeps its lines (what the Output view would show), wrapped as extension.ts wraps it. */
function capturedLog(): { log: vscode.LogOutputChannel; lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: unknown, ...args: unknown[]) => void lines.push(`${level} ${String(message)} ${args.map(String).join(' ')}`);
  const channel = { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), appendLine: write('line') } as unknown as vscode.LogOutputChannel;
  return { log: redactingLog(channel, processSecretValues), lines };
}

/** The ACP driver as extension.ts wires it: the trace file and the (wrapped) log behind its tap and log. */
async function wiredDriver(profile: ConnectionProfile, workspace: string, secrets = memorySecrets()) {
  const dir = mkdtempSync(join(tmpdir(), 'sec-values-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  const traceFile = join(dir, 'trace.jsonl');
  const trace = new ProtocolTrace(traceFile, (error) => assert.fail(String(error)));
  const { log, lines } = capturedLog();
  const raw: unknown[] = [];
  const tap = combineTaps(trace.tap('acp', profile.name), (dir_, frame) => log.trace(frameLogLine(profile.name, dir_, frame)), (_d, frame) => void raw.push(frame));
  const setup = driverSetup(profile, join(dir, 'storage'), {
    tap,
    workspaceFolder: workspace,
    log: { info: (m) => log.info(`[${profile.name}] ${m}`), warn: (m) => log.warn(`[${profile.name}] ${m}`), error: (m) => log.error(`[${profile.name}] ${m}`) },
  });
  const driver = new AcpDriver({ ...setup.ctx, workspace: diskWorkspace([workspace]), secrets });
  cleanups.push(() => driver.dispose());
  const traced = async (): Promise<string> => {
    await trace.flush();
    return readFileSync(traceFile, 'utf8');
  };
  cleanups.push(() => trace.dispose());
  return { driver, setup, lines, raw, traced };
}

test('a signed-in key planted in a read file, an error text and a prompt is in neither the trace nor the log', { timeout: 60_000 }, async () => {
  const ws = makeWorkspace();
  cleanups.push(ws.remove);
  writeFileSync(ws.readme, `# Config\n\nOPENAI_API_KEY=${KEY}\n`);
  const stateDir = mkdtempSync(join(tmpdir(), 'sec-state-'));
  cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
  const profile: ConnectionProfile = { name: 'ref', protocol: 'acp', command: process.execPath, args: [await referenceAgentBundle(), '--state-dir', stateDir, '--chunk-ms', '0', '--auth'] };
  const { driver, setup, lines, raw, traced } = await wiredDriver(profile, ws.dir);
  await driver.connect();
  const target = { connectionId: setup.connectionId };
  await driver.performAction('agentSwitchboard.acp.signIn', target, { method: AUTH_METHOD_ID, [AUTH_ENV_VAR]: KEY });

  // The file the agent reads holds the key; the agent's diff echoes it back.
  await driver.startRun({ prompt: 'edit', workspaceRoots: [ws.dir] });
  // An error text: the read of a missing file whose name holds the key fails with that name.
  await driver.startRun({ prompt: `edit:notes-${KEY}.md`, workspaceRoots: [ws.dir] });
  // The user pasted the key into a prompt.
  await driver.startRun({ prompt: `why does ${KEY} not work?`, workspaceRoots: [ws.dir] });
  const carried = (pattern: RegExp): boolean => raw.some((f) => pattern.test(JSON.stringify(f)) && JSON.stringify(f).includes(KEY));
  await until('the read file went out', () => carried(/"content":"# Config/));
  await until('the diff came back', () => carried(/"oldText"/));
  await until('the failed read went out', () => carried(/"error"/));
  await until('the prompt went out', () => carried(/session\/prompt/));

  const text = await traced();
  assert.ok(text.length > 0 && text.includes('<redacted>'), 'the trace has the frames, redacted');
  assert.equal(text.includes(KEY), false, 'the key is in the trace file');
  assert.ok(lines.length > 0 && lines.some((l) => l.includes('<redacted>')), 'the log has the frames, redacted');
  assert.deepEqual(lines.filter((l) => l.includes(KEY)), [], 'the key is in the log');
});

test("a crashing agent's stderr with the key: not in the log, nor in the reason the UI shows", { timeout: 30_000 }, async () => {
  const ws = makeWorkspace();
  cleanups.push(ws.remove);
  const secrets = memorySecrets();
  const KEY2 = `${KEY}-crash`;
  await storeAuthChoice(secrets, { id: 'api-key', name: 'API key', kind: 'env_var', vars: [{ name: 'CRASH_API_KEY', label: 'key', secret: true }] }, { CRASH_API_KEY: KEY2 });
  // The agent prints the key it was given, as a real one does in "invalid API key …".
  const script = `process.stderr.write('Error: invalid API key ' + process.env.CRASH_API_KEY + '\\n', () => process.exit(1));`;
  const { driver, setup, lines } = await wiredDriver({ name: 'crashy', protocol: 'acp', command: process.execPath, args: ['-e', script] }, ws.dir, secrets);
  await driver.connect().catch(() => undefined);
  const failed = await until('failed', () => {
    const state = setup.store.state.connections.get(setup.connectionId)?.state;
    return state?.kind === 'failed' && state;
  });
  await until('the crash logged', () => lines.some((l) => l.includes('invalid API key')));
  assert.match(failed.reason, /invalid API key <redacted>/, 'the stderr tail is shown, redacted');
  assert.deepEqual(lines.filter((l) => l.includes(KEY2)), []);
});

test('short values are not redacted by value; a longer secret containing a shorter one is replaced whole', () => {
  const values = new SecretValues();
  values.add('abc12');
  assert.equal(values.size, 0, `under ${MIN_SECRET_LENGTH} characters`);
  values.add('token-123456');
  values.add('token-123456-extended');
  assert.equal(values.redact('a token-123456-extended b token-123456 c'), 'a <redacted> b <redacted> c');
  assert.equal(values.redactedPrefix('xxxxtoken-123456', 8), 'xxxx<red', 'a cut through a secret leaves none of it');
});

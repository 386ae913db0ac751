/**
 * The real-agent tests, written once for Claude Code, Codex and Gemini CLI (claudeAcp / codexAcp / geminiAcp .test.ts
 * pass what differs), through the extension's own ACP driver (AcpDriver against the real agent process, its store
 * mirrored into the webview's): a text turn, an edit in the middle of a 200-line file whose approval shows exactly
 * that edit and is allowed (the file changes) or denied (it does not), Stop mid-stream, and a mode chosen for the new
 * run still in force after a reload (a second driver on the same storage restores the run; the next edit asks
 * again). Each test gets its own fake model server, workspace (a temp git repo) and agent HOME; the rig stops every
 * agent after the test. Each test prints its wall time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { proposedFiles } from '../../../../extension/model/editProposal';
import type { ConnectionProfile } from '../../../../extension/drivers/driver';
import type { TerminalViews } from '../../../../extension/drivers/kit/terminalViews';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import type { RealAgentKind } from '../../../fixtures/acp/realAgents';
import { realAgentLaunch } from '../../../fixtures/acp/realAgents';
import { FakeModelServer } from '../../../fixtures/fakeModel/fakeModelServer';
import type { RecordedRequest } from '../../../fixtures/fakeModel/fakeModelServer';
import type { FakeScenario } from '../../../fixtures/fakeModel/scenarios';
import { DEFAULT_FINAL_TEXT, DEFAULT_TEXT, DEFAULT_THOUGHT } from '../../../fixtures/fakeModel/scenarios';
import { until } from '../driverKit';
import type { Rig, RigOptions } from './acpDriverKit';
import { idle, later, rig, run } from './acpDriverKit';
import type { TempWorkspace } from './acpWorkspace';
import { makeWorkspace } from './acpWorkspace';

/** What differs between the agents (observed against the pinned releases). */
export interface RealAgentSpec {
  readonly kind: RealAgentKind;
  /** The agent's mode that asks before edits (Claude Code `default`, Codex `read-only`, Gemini CLI `default`). */
  readonly askingMode: string;
  /** How it names that mode with the run (the run's model field reads "<model> · <mode>"). */
  readonly askingModeName: string;
  /** How the turn ends after the person denied the edit. */
  readonly deniedTurn: 'completed' | 'cancelled';
  /** Per test. */
  readonly timeoutMs: number;
  /** The thought as the agent passes it on (Gemini CLI re-formats a thought's bold subject line). */
  readonly thoughtText?: string;
  /** Where its edits are written: through the editor (fs/write_text_file: undoable, unsaved edits seen) or by the
   *  agent itself on disk. */
  readonly writes: 'editor' | 'disk';
  /** How a restored session comes back in a new agent process: reliably, or racy (Gemini CLI 0.61's session/load
   *  sometimes finds no previous session: then the run must say so, not fail silently). */
  readonly reload?: 'racy';
  /** Whether it lists its sessions (session/list; Gemini CLI 0.61 does not). Default: true. */
  readonly lists?: boolean;
}

/** 200 lines; the edit is in the middle: an agent's diff is only the changed region, the rest must stay. */
export const LONG_FILE = `${Array.from({ length: 200 }, (_, i) => (i === 99 ? 'line 100 is the one to edit' : `line ${i + 1} stays as it is`)).join('\n')}\n`;
export const LONG_FILE_EDITED = LONG_FILE.replace('line 100 is the one to edit', 'line 100 is the one to edit, edited');

/** How a driver on the agent is set up: the profile's start mode and MCP servers, where commands are shown. */
export interface RealConnectOptions {
  readonly startMode?: string;
  /** Where the driver shows commands (none by default). */
  readonly terminals?: TerminalViews;
  readonly mcpServers?: ConnectionProfile['mcpServers'];
  /** More of the profile's environment (over the launch's). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface RealSetup {
  readonly fake: FakeModelServer;
  readonly ws: TempWorkspace;
  readonly home: string;
  readonly storage: string;
  readonly rig: Rig;
  /** The 200-line file in the workspace. */
  readonly file: string;
  /** The paths the agent wrote through the editor (fs/write_text_file). */
  readonly editorWrites: string[];
}

/** The text of the transcript's items of `kind` (answer or thinking), in order. */
export function itemText(items: readonly TranscriptItem[], kind: 'text' | 'reasoning'): string {
  return items.flatMap((i) => (i.kind === kind ? [i.text] : [])).join('');
}

export class RealAgentHarness {
  constructor(private readonly spec: RealAgentSpec) {}

  /** A fake model with `scenario`, a git workspace with the long file, the agent's HOME and the driver connected. */
  async setup(scenario: FakeScenario | ((file: string) => FakeScenario), options: RealConnectOptions = {}): Promise<RealSetup> {
    const ws = makeWorkspace({ git: true, prefix: `acp-${this.spec.kind}-` });
    const home = mkdtempSync(join(tmpdir(), `acp-${this.spec.kind}-home-`));
    const storage = mkdtempSync(join(tmpdir(), `acp-${this.spec.kind}-storage-`));
    later(ws.remove);
    later(() => rmSync(home, { recursive: true, force: true, maxRetries: 5 }));
    later(() => rmSync(storage, { recursive: true, force: true, maxRetries: 5 }));
    const file = join(ws.dir, 'long.txt');
    writeFileSync(file, LONG_FILE);
    const fake = await new FakeModelServer(typeof scenario === 'function' ? scenario(file) : scenario).start();
    later(() => fake.close());
    const editorWrites: string[] = [];
    const r = await this.connect(fake, ws, home, storage, { ...options, editorWrites });
    return { fake, ws, home, storage, rig: r, file, editorWrites };
  }

  /** A driver (a window) on this agent, its storage and HOME: a second one is the window after a reload. */
  connect(fake: FakeModelServer, ws: TempWorkspace, home: string, storage: string, options: RealConnectOptions & { readonly editorWrites?: string[] } = {}): Promise<Rig> {
    const { startMode, terminals, mcpServers, env, editorWrites = [] } = options;
    const rigOptions: RigOptions = {
      ws,
      ...(terminals ? { terminals } : {}),
      storage,
      workspace: (disk) => ({ ...disk, roots: () => disk.roots(), readText: (...a) => disk.readText(...a), writeText: (path, content) => (editorWrites.push(path), disk.writeText(path, content)) }),
      agent: (w) => {
        const launch = realAgentLaunch(this.spec.kind, fake.url, w.dir, home);
        return { ...launch, args: [...launch.args], env: { ...launch.env, ...env }, ...(startMode !== undefined ? { startMode } : {}), ...(mcpServers ? { mcpServers } : {}) };
      },
    };
    return rig(rigOptions);
  }
}

/** The scripted edit of the long file's line 100. */
export const middleEdit = (file: string): FakeScenario => ({ kind: 'edit', path: file, oldString: 'line 100 is the one to edit', newString: 'line 100 is the one to edit, edited' });

async function approvalOf(r: Rig, runId: string): Promise<{ id: string; detail: unknown; hasDiff: boolean; options: readonly string[] }> {
  const id = await until('an approval', () => run(r, runId)?.pendingApprovals[0], 60_000);
  const approval = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, runId)}::${id}`);
  assert.ok(approval, 'the approval is in the model');
  const card = r.items(runId).find((i) => i.kind === 'approval' && i.approvalId === id);
  return { id, detail: approval.detail, hasDiff: card?.kind === 'approval' && card.hasDiff === true, options: approval.options };
}

/**
 * Whether the agent has written `text` to a file under its HOME (its session store). A window that closes stops the
 * agent at once; a test that then reopens the session waits for the turn to be stored first, as a person would
 * have (the agents write their session files a moment after the turn ends).
 */
function stored(home: string, text: string): boolean {
  const walk = (dir: string, depth: number): boolean =>
    depth < 8 &&
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        return walk(path, depth + 1);
      }
      return entry.isFile() && statSync(path).size < 8 * 1024 * 1024 && readFileSync(path, 'utf8').includes(text);
    });
  return walk(home, 0);
}

/**
 * The last model request of the turn that carried `prompt`: not simply the last request, since a turn may take
 * several (a tool call, then its result). An agent's own questions to the model are not turns (`modelRequests()`
 * leaves them out): Codex titles a thread it takes up again with the new prompt in the request and none of the
 * conversation, sent while or after the turn runs — taken for the turn, it read as "the model never saw the history".
 */
const turnRequest = (fake: FakeModelServer, prompt: string): RecordedRequest | undefined => fake.modelRequests().findLast((r) => JSON.stringify(r.body).includes(prompt));

const turnEnded = (r: Rig, runId: string, phase: 'completed' | 'cancelled'): boolean => idle(r, runId) && r.items(runId).some((i) => i.kind === 'turn' && i.phase === phase);

/** Registers the shared tests for one agent; prints each test's wall time. */
export function defineRealAgentTests(spec: RealAgentSpec): RealAgentHarness {
  const harness = new RealAgentHarness(spec);
  const timed = (name: string, body: () => Promise<void>): void => {
    test(`${spec.kind}: ${name}`, { timeout: spec.timeoutMs }, async () => {
      const started = Date.now();
      await body();
      process.stdout.write(`# ${spec.kind} timing: ${name}: ${Date.now() - started} ms\n`);
    });
  };

  timed('a text turn streams thinking and the answer into the run, in the start mode the profile names', async () => {
    const s = await harness.setup({ kind: 'text' }, { startMode: spec.askingMode });
    const runId = await s.rig.driver.startRun({ prompt: 'say hello to the fake model', workspaceRoots: [s.ws.dir] });
    await until('the turn ended', () => turnEnded(s.rig, runId, 'completed'), spec.timeoutMs);
    const items = s.rig.items(runId);
    assert.equal(itemText(items, 'text'), DEFAULT_TEXT);
    assert.equal(itemText(items, 'reasoning').trim(), spec.thoughtText ?? DEFAULT_THOUGHT);
    assert.match(run(s.rig, runId)?.model ?? '', new RegExp(`${spec.askingModeName}$`), 'the run shows the mode it is in');
    assert.ok(JSON.stringify(s.fake.modelRequests().map((r) => r.body)).includes('say hello to the fake model'), 'the prompt reached the model');
  });

  timed('an edit in the middle of a long file: the approval shows exactly that edit; allowed from the notification, the file changes', async () => {
    const s = await harness.setup(middleEdit, { startMode: spec.askingMode });
    const runId = await s.rig.driver.startRun({ prompt: 'edit line 100', workspaceRoots: [s.ws.dir] });
    const approval = await approvalOf(s.rig, runId);
    assert.ok(approval.hasDiff, 'offered in the diff editor');
    const [proposed, ...more] = await proposedFiles(approval.detail, async (p) => readFileSync(p, 'utf8'));
    assert.deepEqual(more, []);
    assert.equal(proposed?.path, s.file);
    assert.equal(proposed?.original, LONG_FILE);
    assert.equal(proposed?.proposed, LONG_FILE_EDITED, 'the other 199 lines stay in the proposal');
    assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE, 'nothing written before the decision');
    await s.rig.driver.decideApproval(runId, approval.id, 'allow_once', 'notification');
    await until('the turn ended', () => turnEnded(s.rig, runId, 'completed'), spec.timeoutMs);
    assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE_EDITED);
    assert.deepEqual(s.editorWrites, spec.writes === 'editor' ? [s.file] : [], `written ${spec.writes === 'editor' ? 'through the editor' : 'by the agent itself'}`);
    assert.match(itemText(s.rig.items(runId), 'text'), new RegExp(`${DEFAULT_FINAL_TEXT.replace('.', '\\.')}$`));
  });

  timed('an edit denied: the file is unchanged and the turn ends', async () => {
    const s = await harness.setup(middleEdit, { startMode: spec.askingMode });
    const runId = await s.rig.driver.startRun({ prompt: 'edit line 100', workspaceRoots: [s.ws.dir] });
    const approval = await approvalOf(s.rig, runId);
    await s.rig.driver.decideApproval(runId, approval.id, 'deny', 'notification');
    await until('the turn ended', () => turnEnded(s.rig, runId, spec.deniedTurn), spec.timeoutMs);
    assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE);
  });

  timed('Stop mid-stream ends the turn cancelled and aborts the model request', async () => {
    const s = await harness.setup({ kind: 'slow', chunks: 400, delayMs: 25 }, { startMode: spec.askingMode });
    const runId = await s.rig.driver.startRun({ prompt: 'stream slowly', workspaceRoots: [s.ws.dir] });
    await until('three slow chunks', () => itemText(s.rig.items(runId), 'text').includes('slow 3 '), spec.timeoutMs / 2);
    await s.rig.driver.cancelRun(runId);
    await until('cancelled', () => turnEnded(s.rig, runId, 'cancelled'), spec.timeoutMs / 2);
    assert.ok(!itemText(s.rig.items(runId), 'text').includes('slow 400 '));
    await until('the model stream aborted', () => s.fake.modelRequests().at(-1)?.aborted === true, 10_000);
  });

  timed('a mode picked in New Run is still in force after a reload: the restored run asks before the next edit', async () => {
    // No start mode in the profile: the agent's own default may not ask (Claude Code `auto`, Codex `agent`).
    const s = await harness.setup({ kind: 'text', text: 'First answer.' });
    const runId = await s.rig.driver.startRun({ prompt: 'first prompt', permission: spec.askingMode, workspaceRoots: [s.ws.dir] });
    await until('the first turn ended', () => turnEnded(s.rig, runId, 'completed'), spec.timeoutMs);
    assert.match(run(s.rig, runId)?.model ?? '', new RegExp(`${spec.askingModeName}$`));
    await until('the agent stored the turn', () => stored(s.home, 'First answer.'), spec.timeoutMs);
    await s.rig.driver.flushStorage();
    await s.rig.driver.dispose();

    s.fake.setScenario(middleEdit(s.file));
    const reloaded = await harness.connect(s.fake, s.ws, s.home, s.storage);
    await until('the run restored', () => run(reloaded, runId) !== undefined, 30_000);
    const sent = await reloaded.driver.sendMessage(runId, 'now edit line 100').then(
      () => true,
      (error: unknown) => {
        // The one outcome besides success: the agent could not restore the session, and the person is told why.
        assert.equal(spec.reload, 'racy', `the restored session took the message: ${String(error)}`);
        assert.match(String(error), /No previous sessions found/);
        return false;
      },
    );
    process.stdout.write(`# ${spec.kind} reload: ${sent ? 'restored' : 'the agent lost the session (said)'}\n`);
    if (!sent) {
      return;
    }
    const approval = await approvalOf(reloaded, runId);
    assert.match(run(reloaded, runId)?.model ?? '', new RegExp(`${spec.askingModeName}$`), 'the mode came back after the load');
    await reloaded.driver.decideApproval(runId, approval.id, 'allow_once', 'notification');
    await until('the second turn ended', () => reloaded.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length >= 2 && idle(reloaded, runId), spec.timeoutMs);
    assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE_EDITED);
    const body = JSON.stringify(turnRequest(s.fake, 'now edit line 100')?.body);
    assert.ok(body.includes('first prompt') && body.includes('First answer.'), 'the model saw the earlier turn');
  });
  if (spec.lists !== false) {
    timed('a session started in another editor is listed, opened with its history, and continues', async () => {
      const s = await harness.setup({ kind: 'text', text: 'First answer.' }, { startMode: spec.askingMode });
      const runId = await s.rig.driver.startRun({ prompt: 'first prompt elsewhere', workspaceRoots: [s.ws.dir] });
      await until('the first turn ended', () => turnEnded(s.rig, runId, 'completed'), spec.timeoutMs);
      await until('the agent stored the turn', () => stored(s.home, 'First answer.'), spec.timeoutMs);
      await s.rig.driver.flushStorage();
      await s.rig.driver.dispose();
      // Another editor (storage of its own) on the same agent HOME: it has no run of that session.
      const storage = mkdtempSync(join(tmpdir(), `acp-${spec.kind}-other-`));
      later(() => rmSync(storage, { recursive: true, force: true, maxRetries: 5 }));
      const other = await harness.connect(s.fake, s.ws, s.home, storage, { startMode: spec.askingMode });
      assert.equal(run(other, runId), undefined);
      const pick = await other.driver.agentSessions.nextPick({});
      assert.ok(pick?.kind === 'pick' && pick.choices.some((c) => c.value === runId), `listed: ${JSON.stringify(pick)}`);
      assert.deepEqual(await other.driver.agentSessions.open({ [pick.name]: runId }), { runId });
      await until('opened with its history', () => other.items(runId).some((i) => i.kind === 'user' && i.text.includes('first prompt elsewhere')), spec.timeoutMs);
      s.fake.setScenario({ kind: 'text', text: 'Second answer.' });
      await other.driver.sendMessage(runId, 'second prompt');
      await until('the second turn ended', () => other.items(runId).some((i) => i.kind === 'text' && i.text.includes('Second answer.')) && idle(other, runId), spec.timeoutMs);
      const body = JSON.stringify(turnRequest(s.fake, 'second prompt')?.body);
      assert.ok(body.includes('first prompt elsewhere') && body.includes('First answer.'), 'the model saw the earlier turn');
    });
  }
  return harness;
}

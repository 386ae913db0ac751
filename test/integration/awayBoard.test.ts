/**
 * "What happened while you were away" (issue #26) in a real VS Code, with the reference ACP agent: one session edits
 * two files while the user looks at another; its board row says "2 files changed" (the files in its tooltip, which
 * names them from the agent's own reports); selecting the row shows the run and marks it seen, which clears it, and
 * it stays clear when the user goes back to the other session.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { EDIT_LINE } from '../fixtures/acp/editTool';
import { connectReferenceAgent, endedTurns, itemsOf, pendingApproval, removeConnections } from './acpSupport';
import { api, screenshot, testHooks, ui, waitFor, workspaceDir } from './support';
import { wideSidebarScreenshot } from './screenshotFraming';

const NAME = 'Away agent';
const CONNECTION = `acp:${NAME}`;
const BOARD_ROWS = '.pane:has(.pane-header:has-text("Runs")) .monaco-list-row';
const FILES = ['away-one.md', 'away-two.md'];

type Api = Awaited<ReturnType<typeof api>>;

function rowOf(a: Api, runKey: string) {
  return a.board.provider
    .snapshot()
    .flatMap((g) => g.rows)
    .find((r) => r.runKey === runKey);
}

async function newSession(a: Api, prompt: string): Promise<string> {
  const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt })) as string;
  assert.equal(typeof runKey, 'string');
  await waitFor(`${prompt}: its first turn`, () => endedTurns(a, runKey, 'completed').length === 1, 30000);
  return runKey;
}

/** What a row's summary is computed from, for a failure to say (a timed-out wait alone does not). */
function whatTheRowSaw(a: Api, hooks: Awaited<ReturnType<typeof testHooks>>, runKey: string): string {
  const run = a.store.state.runs.get(runKey);
  const tools = itemsOf(a, runKey).filter((i) => i.kind === 'tool');
  return JSON.stringify({
    away: rowOf(a, runKey)?.away,
    looking: hooks.selection.runKey,
    seen: hooks.board.seen.get(runKey),
    reportedEdits: run?.reportedEdits,
    changeSet: a.store.state.changeSets.get(runKey)?.status,
    lastTool: tools.at(-1),
  });
}

/** Sends an edit, allows it from the board, and waits for the turn to end. */
async function edit(a: Api, runKey: string, file: string, turns: number): Promise<void> {
  await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, `edit:${file} please`);
  const approvalKey = await pendingApproval(a, runKey);
  assert.equal(await vscode.commands.executeCommand('agentSwitchboard.board.allow', approvalKey), true);
  await waitFor(`the edit of ${file}`, () => endedTurns(a, runKey, 'completed').length === turns, 30000);
}

suite('While you were away', () => {
  let stateDir: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-away-'));
    await connectReferenceAgent(NAME, stateDir);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
  });

  suiteTeardown(async () => {
    await removeConnections([NAME]);
    for (const file of FILES) {
      fs.rmSync(path.join(workspaceDir(), file), { force: true });
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a run that changes files while another is looked at says how many on its row; selecting it clears that', async () => {
    const a = await api();
    const hooks = await testHooks();
    const worker = await newSession(a, 'Hello from the worker');
    const watched = await newSession(a, 'Hello from the watched one');
    // The user looks at the second session; the first works meanwhile.
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', watched);
    await waitFor('the watched session marked seen', () => hooks.board.seen.get(watched) !== undefined);
    const before = hooks.board.seen.get(worker)?.at ?? 0;
    await edit(a, worker, FILES[0]!, 2);
    await edit(a, worker, FILES[1]!, 3);
    assert.deepEqual(Object.keys(a.store.state.runs.get(worker)?.reportedEdits ?? {}).map((p) => path.basename(p)).sort(), FILES, 'the agent reported both edits');

    const row = await waitFor('the worker row says 2 files changed', () => (rowOf(a, worker)?.away?.count === 2 ? rowOf(a, worker) : undefined), 30000);
    assert.deepEqual(row.away!.files.map((f) => f.path).sort(), FILES, 'named as paths inside the workspace');
    assert.equal(rowOf(a, watched)?.away, undefined, 'the run looked at has nothing waiting');
    const text = await waitFor('the row in the view', async () => {
      const rows = await ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
      return rows.find((r) => r.includes('Hello from the worker') && r.includes('2 files changed'));
    });
    assert.match(text, /\u25CF 2 files changed/);
    // Wide enough for the rows' descriptions (the narrow sidebar cuts them after the title).
    await wideSidebarScreenshot('away-board-changed.png');

    // Selecting the row on the board shows the run in the Transcript view: seen, the summary goes.
    await hooks.board.view.reveal(hooks.board.provider.runNode(worker), { select: true, focus: true });
    await waitFor('the worker row cleared', () => rowOf(a, worker) !== undefined && rowOf(a, worker)!.away === undefined);
    assert.ok((hooks.board.seen.get(worker)?.at ?? 0) > before, 'marked seen');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', watched);
    await waitFor('the view without the summary', async () => {
      const rows = await ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
      return rows.some((r) => r.includes('Hello from the worker')) && !rows.some((r) => r.includes('files changed'));
    });
    assert.equal(rowOf(a, worker)?.away, undefined, 'still clear once the user looks elsewhere again');
    await screenshot('away-board-seen.png');
  });

  test('Mark All Runs Seen clears every row from the palette', async () => {
    const a = await api();
    const worker = a.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.title.includes('Hello from the worker'))!.runKey;
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', worker);
    const watched = a.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.title.includes('Hello from the watched one'))!.runKey;
    const hooks = await testHooks();
    assert.equal(hooks.selection.runKey, worker, 'the worker is the run looked at');
    await edit(a, watched, FILES[0], 2);
    // Its change set is computed again after the turn (git snapshots, the session's start to now): it then also holds
    // the file the worker made in the shared tree, which the row names with its author. Until then the row has only
    // the reported edit — a state a fast machine may never show, so the settled one is waited for.
    const settled = await waitFor('the watched session changed a file', () => {
      const away = rowOf(a, watched)?.away;
      return a.store.state.changeSets.get(watched)?.patch?.includes(EDIT_LINE) === true && away?.count === 2 ? away : undefined;
    }, 30000).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${whatTheRowSaw(a, hooks, watched)}`);
    });
    assert.deepEqual(
      settled.files.map((f) => [f.path, f.by?.kind === 'run' ? f.by.runKey : f.by?.kind]),
      [[FILES[0], undefined], [FILES[1], worker]],
      'its own edit, and the file the worker made in the tree they share, named by who made it',
    );
    const shown = (): Promise<string[]> => ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
    await waitFor('its row in the view', async () => (await shown()).some((r) => r.includes('Hello from the watched one') && /\u25CF \d+ files? changed/.test(r))).catch(async (error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(await shown())}`);
    });
    await wideSidebarScreenshot('away-board.png');
    await vscode.commands.executeCommand('agentSwitchboard.board.markAllSeen');
    assert.equal(rowOf(a, watched)?.away, undefined);
  });
});

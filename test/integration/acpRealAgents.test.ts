/**
 * The real ACP agents in a real VS Code, offline, at the releases pinned in package.json: codex-acp 2.6 (a Node
 * adapter over `codex app-server`; CODEX_HOME with a config.toml whose provider is the fake model), claude-agent-acp
 * 0.101 (Claude Code through its agent SDK; HOME a temp dir, ANTHROPIC_BASE_URL the fake model) and Gemini CLI 0.61
 * (`--acp`; it reads and writes the file through the editor's fs/* methods), each spawned by the extension from an
 * `acp` profile that names the agent's asking mode as its start mode (as the presets do), against the scripted fake
 * model server (test/fixtures/fakeModel) this suite runs in the extension host on 127.0.0.1. Per agent: a text turn
 * streamed into the transcript webview with the mode shown in the run header, an edit in the middle of a file that
 * asks permission — its diff opened in the native diff editor and checked — allowed from the notification (the file
 * changes) and one denied (it does not), a shell command Claude Code or Codex runs itself shown in an editor terminal
 * of the run (its output and exit, revealed from the tool row), Stop mid-stream (the model's stream is aborted), and Disconnect leaves no
 * process of the agent (its whole process group is gone). See test/fixtures/acp/realAgents.ts for what each needs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { proposedFiles } from '../../extension/model/editProposal';
import { decisionLabel } from '../../extension/protocol/transcriptTypes';
import { claudeAgentAcpEntry, codexAcpEntry, geminiCliEntry, realAgentLaunch } from '../fixtures/acp/realAgents';
import type { RealAgentKind } from '../fixtures/acp/realAgents';
import { processGroupMembers } from '../fixtures/acp/processTree';
import { FakeModelServer } from '../fixtures/fakeModel/fakeModelServer';
import { DEFAULT_TEXT, DEFAULT_THOUGHT } from '../fixtures/fakeModel/scenarios';
import { api, screenshot, ui, waitFor, workspaceDir } from './support';
import {
  addConnections,
  agentProcess,
  answerText,
  clearNotifications,
  decideFromNotification,
  endedTurns,
  groupGone,
  itemsOf,
  pendingApproval,
  removeConnections,
  setViewExpanded,
  traceOf,
  webviewTexts,
} from './acpSupport';

interface AgentSpec {
  readonly kind: RealAgentKind;
  readonly name: string;
  /** What identifies its process in /proc/<pid>/cmdline. */
  readonly needle: () => string;
  /** Its mode that asks before edits (the profile's start mode), and how the run header names it. */
  readonly askingMode: string;
  readonly askingModeName: string;
  /** How the turn ends after the user denied the edit (codex's reject option cancels the turn). */
  readonly deniedTurn: 'completed' | 'cancelled';
  /** The thought as the agent passes it on, when it differs from what the fake model sent. */
  readonly thoughtText?: string;
}

const AGENTS: readonly AgentSpec[] = [
  { kind: 'codex', name: 'Codex (fake model)', needle: () => codexAcpEntry(), askingMode: 'read-only', askingModeName: 'Read-only', deniedTurn: 'cancelled' },
  { kind: 'claude', name: 'Claude Code (fake model)', needle: () => claudeAgentAcpEntry(), askingMode: 'default', askingModeName: 'Manual', deniedTurn: 'completed' },
  {
    kind: 'gemini',
    name: 'Gemini CLI (fake model)',
    needle: () => geminiCliEntry(),
    askingMode: 'default',
    askingModeName: 'Default',
    deniedTurn: 'completed',
    thoughtText: `**Thinking**\n${DEFAULT_THOUGHT}`,
  },
];

/** The edit is in the middle of the file: an agent's diff is only the changed region (the lines around must stay). */
const FILE_TEXT = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1} before`).join('\n')}\nhello\n${Array.from({ length: 20 }, (_, i) => `line ${i + 1} after`).join('\n')}\nThis file is edited by a real agent in the integration suite.\n`;
const EDITED_TEXT = FILE_TEXT.replace('hello', 'hello, edited');

suite('ACP real agents', () => {
  for (const spec of AGENTS) {
    suite(spec.name, () => {
      const connection = `acp:${spec.name}`;
      let fake: FakeModelServer;
      let home: string;
      let file: string;
      const timed = (name: string, body: () => Promise<void>): void => {
        test(name, async function () {
          this.timeout(150000);
          const t0 = Date.now();
          await body();
          console.log(`ACP ${spec.kind} timing: ${name}: ${Date.now() - t0} ms`);
        });
      };
      const newRun = async (prompt: string): Promise<string> => {
        const key = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: connection, model: '', permission: '', prompt });
        assert.equal(typeof key, 'string', `the run started (see the log): ${String(key)}`);
        return key as string;
      };
      const editScenario = (): void => fake.setScenario({ kind: 'edit', path: file, oldString: 'hello', newString: 'hello, edited' });

      suiteSetup(async function () {
        this.timeout(120000);
        const t0 = Date.now();
        fake = await new FakeModelServer({ kind: 'text' }).start();
        home = fs.mkdtempSync(path.join(os.tmpdir(), `sb-acp-${spec.kind}-home-`));
        file = path.join(workspaceDir(), `acp-${spec.kind}.txt`);
        fs.writeFileSync(file, FILE_TEXT);
        const a = await api();
        await addConnections([{ name: spec.name, protocol: 'acp', ...realAgentLaunch(spec.kind, fake.url, workspaceDir(), home), startMode: spec.askingMode }]);
        await waitFor(`${spec.name} connected`, () => a.store.state.connections.get(connection)?.state.kind === 'connected', 90000);
        await setViewExpanded('Connections', false);
        console.log(`ACP ${spec.kind} timing: connect (spawn + initialize): ${Date.now() - t0} ms`);
      });

      suiteTeardown(async () => {
        await setViewExpanded('Connections', true);
        await removeConnections([spec.name]);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await fake?.close();
        fs.rmSync(file, { force: true });
        fs.rmSync(home, { recursive: true, force: true, maxRetries: 5 });
      });

      timed('a text turn streams thought and answer into the transcript', async () => {
        const a = await api();
        const runKey = await newRun('say hello to the fake model');
        await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 90000);
        assert.equal(endedTurns(a, runKey, 'completed')[0]!.code, undefined, 'end_turn: the usual end, said without a code');
        assert.equal(answerText(a, runKey), DEFAULT_TEXT);
        const thought = itemsOf(a, runKey).flatMap((i) => (i.kind === 'reasoning' ? [i.text] : [])).join('');
        assert.equal(thought.trim(), spec.thoughtText ?? DEFAULT_THOUGHT);
        assert.ok(JSON.stringify(fake.modelRequests()[0]?.body).includes('say hello to the fake model'), 'the prompt reached the model');
        const texts = await waitFor('the answer in the webview', async () => {
          const t = await webviewTexts('[data-kind="text"]');
          return t.some((x) => x.includes('Hello from the fake model. Markdown works: code.')) && t;
        });
        assert.ok(texts.length > 0);
        // The run header names the mode the session is in (the profile's start mode, applied after session/new).
        assert.match(a.store.state.runs.get(runKey)?.model ?? '', new RegExp(`${spec.askingModeName}$`));
        await ui({ action: 'waitFor', selector: '.run-header', hasText: spec.askingModeName, webview: true });
        await screenshot(`acp-${spec.kind}-text.png`);
      });

      timed('an edit that asks permission, allowed from the notification, changes the file', async () => {
        const a = await api();
        editScenario();
        await clearNotifications();
        const runKey = await newRun('edit the file for me');
        const approvalKey = await pendingApproval(a, runKey, 90000);
        const approval = a.store.state.approvals.get(approvalKey)!;
        assert.ok(approval.options.includes('allow_once') && approval.options.includes('deny'), approval.options.join(','));
        assert.equal(a.store.state.runs.get(runKey)?.state, 'waiting_approval');
        assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'nothing written before the decision');
        // What Show diff shows: the agent's region applied to the file, the other lines kept.
        const card = itemsOf(a, runKey).find((i) => i.kind === 'approval' && i.approvalId === approval.approvalId);
        const hasDiff = card?.kind === 'approval' && card.hasDiff;
        assert.ok(hasDiff, 'Show diff offered');
        assert.doesNotMatch(approval.title, /does not match/);
        const proposed = await proposedFiles(approval.detail, async (p) => fs.readFileSync(p, 'utf8'));
        assert.deepEqual(proposed.map((f) => [f.path, f.proposed]), [[file, EDITED_TEXT]], 'the proposal is the edited file, nothing else changed');
        // The native diff editor shows the file against the proposal: only the middle line differs.
        await vscode.commands.executeCommand('agentSwitchboard.showApprovalDiff', approvalKey);
        const diffTab = await waitFor('the diff tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.fsPath === file));
        const modified = (diffTab.input as vscode.TabInputTextDiff).modified;
        assert.equal((await vscode.workspace.openTextDocument(modified)).getText(), EDITED_TEXT);
        await ui({ action: 'waitFor', selector: '.editor .line-insert, .editor .char-insert' });
        await screenshot(`acp-${spec.kind}-diff.png`);
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        await ui({ action: 'waitFor', selector: '.approval-card .approval-decide', webview: true });
        await vscode.commands.executeCommand('notifications.showList');
        await ui({ action: 'waitFor', selector: '.notification-list-item', hasText: 'Approval needed in' });
        await screenshot(`acp-${spec.kind}-approval.png`);
        await decideFromNotification(decisionLabel('allow_once', approval.options));
        await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 90000);
        assert.equal(a.store.state.approvals.get(approvalKey)?.decision, 'allow_once');
        await waitFor('the edited file', () => fs.readFileSync(file, 'utf8') === EDITED_TEXT, 10000);
        await waitFor('the local change set of the session', () => a.store.state.changeSets.get(runKey)?.patch?.includes(`acp-${spec.kind}.txt`), 15000);
        const writes = (await traceOf(spec.name)).filter((l) => l.dir === 'in' && l.frame.method === 'fs/write_text_file');
        // Claude Code and Codex write the disk themselves; Gemini CLI through the editor (undoable there).
        assert.equal(writes.length, spec.kind === 'gemini' ? 1 : 0, 'who wrote the file');
        // The agent's edit taken back from the run's change set (what the person has for agents that bypass the
        // editor): the file is as before, and the change set is computed again.
        const reverted = (await vscode.commands.executeCommand('agentSwitchboard.revertChangeSetFile', runKey, `acp-${spec.kind}.txt`, true)) as { applied: string[] } | undefined;
        assert.deepEqual(reverted?.applied, [`acp-${spec.kind}.txt`]);
        assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'reverted');
        await waitFor('the change set without the file', () => !a.store.state.changeSets.get(runKey)?.patch?.includes(`acp-${spec.kind}.txt`), 15000);
        await vscode.commands.executeCommand('notifications.hideList');
      });

      timed('an edit denied from the notification leaves the file unchanged', async () => {
        const a = await api();
        fs.writeFileSync(file, FILE_TEXT);
        editScenario();
        await clearNotifications();
        const runKey = await newRun('edit the file once more');
        const approvalKey = await pendingApproval(a, runKey, 90000);
        await decideFromNotification(decisionLabel('deny', a.store.state.approvals.get(approvalKey)!.options));
        await waitFor('the turn', () => endedTurns(a, runKey, spec.deniedTurn).length === 1, 90000);
        assert.equal(a.store.state.approvals.get(approvalKey)?.decision, 'deny');
        assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'denied: unchanged');
        await waitFor('idle', () => a.store.state.runs.get(runKey)?.state === 'idle', 10000);
        await vscode.commands.executeCommand('notifications.hideList');
      });

      if (spec.kind !== 'gemini') {
        // Claude Code and Codex run a shell command themselves and report it (`_meta.terminal_*`): shown read-only.
        timed('a shell command the agent runs itself shows in a terminal named after the run; the tool row reveals it', async () => {
          const a = await api();
          fake.setScenario({ kind: 'command' });
          await clearNotifications();
          const runKey = await newRun('print five lines');
          for (;;) {
            const next = await waitFor('the turn, or a permission', () => (endedTurns(a, runKey, 'completed').length === 1 ? 'ended' : a.store.state.runs.get(runKey)?.pendingApprovals[0]), 90000);
            if (next === 'ended') {
              break;
            }
            await decideFromNotification(decisionLabel('allow_once', a.store.state.approvals.get(`${runKey}::${next}`)!.options));
            await waitFor('decided', () => a.store.state.runs.get(runKey)?.pendingApprovals[0] !== next);
          }
          const shown = await waitFor('the command\'s terminal', () => a.agentTerminals.list().find((t) => t.runKey === runKey));
          assert.match(shown.name, /^print five lines · printf /, 'named after the run and the command');
          assert.match(shown.text, /\$ printf 'line %s\\n' 1 2 3 4 5/, 'the command line first');
          assert.match(shown.text, /^line 1\nline 2\nline 3\nline 4\nline 5$/m, 'its output');
          assert.match(shown.text, /Exited with code 0\s*$/, 'ends with how it exited');
          assert.ok(vscode.window.terminals.some((t) => t.name === shown.name), 'a VS Code terminal');
          const tool = itemsOf(a, runKey).find((i) => i.kind === 'tool' && (i.terminals ?? []).length > 0);
          assert.deepEqual(tool?.kind === 'tool' && tool.terminals, [shown.terminalId], 'the tool row links to it');
          await vscode.commands.executeCommand('workbench.action.closePanel');
          await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
          // The tool row is above the fold once the turn's checkpoint marker follows the answer in the narrow sidebar,
          // and the list follows the run's end: go to the top first, as a person would (Home), then click.
          await ui({ action: 'press', selector: '#transcript', value: 'Home', webview: true });
          await ui({ action: 'click', selector: '.tool-terminal-link', webview: true });
          await waitFor('the terminal revealed', () => vscode.window.activeTerminal?.name === shown.name);
          await ui({ action: 'waitFor', selector: '.part.panel .xterm-screen' });
          await screenshot(`acp-${spec.kind}-command-terminal.png`);
          await vscode.commands.executeCommand('notifications.hideList');
          // The panel's first terminal screen must be the next agent's own.
          vscode.window.terminals.find((t) => t.name === shown.name)?.dispose();
          await waitFor('the terminal closed', () => !vscode.window.terminals.some((t) => t.name === shown.name));
        });
      }

      timed('Stop mid-stream cancels the turn and aborts the model stream', async () => {
        const a = await api();
        fake.setScenario({ kind: 'slow', chunks: 400, delayMs: 25 });
        const runKey = await newRun('stream slowly');
        await waitFor('three slow chunks', () => answerText(a, runKey).includes('slow 3 '), 90000);
        const stopAt = Date.now();
        await ui({ action: 'click', selector: '#composer-stop', webview: true });
        await waitFor('the turn cancelled', () => endedTurns(a, runKey, 'cancelled').length === 1, 15000);
        const took = Date.now() - stopAt;
        assert.equal(endedTurns(a, runKey, 'cancelled')[0]!.code, 'cancelled');
        assert.ok(!answerText(a, runKey).includes('slow 400 '));
        await waitFor('the model stream aborted', () => fake.modelRequests().at(-1)?.aborted === true, 10000);
        console.log(`ACP ${spec.kind}: Stop → cancelled in ${took} ms`);
      });

      timed('Disconnect stops the agent: no process of its group is left', async () => {
        const a = await api();
        const pid = await agentProcess(spec.needle());
        const group = processGroupMembers(pid);
        assert.ok(group.includes(pid), `the agent leads its own process group (${group.join(', ')})`);
        await vscode.commands.executeCommand('agentSwitchboard.disconnect', connection);
        await waitFor('disconnected', () => a.store.state.connections.get(connection)?.state.kind !== 'connected');
        await groupGone(pid);
        const lines = await traceOf(spec.name);
        assert.ok(lines.length > 0 && lines.every((l) => l.protocol === 'acp'), 'every line of the agent is in the trace as "acp"');
        console.log(`ACP ${spec.kind}: process group of ${group.length} gone after Disconnect`);
      });
    });
  }
});

/**
 * ACP session reports in a real VS Code, with the reference agent shaping them as claude-agent-acp does: the context
 * use and cost on the run board's row (several reports a turn, replaced in place, the cost from the last) and in the
 * run header; a subagent as a child run under its parent on the board and in the Connections tree, whose transcript
 * opens with its own updates; and an agent's question (elicitation/create) answered through VS Code's own quick pick
 * and input box — at once for the run in focus, from a notification otherwise — with the answer reaching the agent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { api, CONNECTIONS_ROWS, screenshot, ui, waitFor, testHooks } from './support';
import {
  answerText,
  clearNotifications,
  connectReferenceAgent,
  endedTurns,
  itemsOf,
  NOTIFICATION_BUTTON,
  removeConnections,
  setViewExpanded,
  webviewTexts,
} from './acpSupport';

const NAME = 'ACP updates';
const CONNECTION = `acp:${NAME}`;
/** The board's rows in the workbench (its pane is the one headed "Runs"). */
const BOARD_ROWS = '.pane:has(.pane-header:has-text("Runs")) .monaco-list-row';
const QUICK_ROWS = '.quick-input-widget .monaco-list-row';
const QUICK_BOX = '.quick-input-widget .quick-input-box input';

type Api = Awaited<ReturnType<typeof api>>;

async function newRun(prompt: string): Promise<string> {
  const key = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt });
  assert.equal(typeof key, 'string', 'the command returns the new run');
  return key as string;
}

function boardRow(a: Api, runKey: string) {
  const rows = a.board.provider.snapshot().flatMap((g) => g.rows);
  return rows.find((r) => r.runKey === runKey) ?? rows.flatMap((r) => r.children ?? []).find((r) => r.runKey === runKey);
}

suite('ACP session reports', () => {
  let stateDir: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acpu-'));
    await connectReferenceAgent(NAME, stateDir);
  });

  suiteTeardown(async () => {
    (await testHooks()).setWindowFocused(undefined);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await clearNotifications();
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('usage: on the board row and in the header, replaced in place; no transcript row', async () => {
    const a = await api();
    const runKey = await newRun('Hello usage');
    await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    assert.deepEqual(a.store.state.runs.get(runKey)?.usage?.cost, { amount: 0.01, currency: 'USD' }, 'the cost of the turn\'s last report');
    assert.ok(!itemsOf(a, runKey).some((i) => i.kind === 'usage'), 'no row per report');
    const row = boardRow(a, runKey);
    assert.ok(row?.usage && row.usage.size === 200_000, JSON.stringify(row));
    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
    const text = await waitFor('the usage on the board row', async () => {
      const texts = await ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
      return texts.find((t) => t.includes('Hello usage') && /\/200k \(\d+%\) · \$0\.01/.test(t));
    });
    assert.match(text, /ACP updates/);
    await screenshot('acp-usage-board.png');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    const header = await waitFor('the usage in the header', async () => (await webviewTexts('#run-usage')).find((t) => t.includes('$0.01')));
    assert.match(header, /^\d+(\.\d)?k\/200k \(\d+%\) · \$0\.01$/);

    const used = a.store.state.runs.get(runKey)!.usage!.used;
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'again');
    await waitFor('the second turn', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    assert.ok(a.store.state.runs.get(runKey)!.usage!.used > used);
    await waitFor('the header replaced in place', async () => (await webviewTexts('#run-usage')).some((t) => t.endsWith('$0.02')));
    assert.equal((await webviewTexts('#run-usage')).length, 1);
    await screenshot('acp-usage-header.png');
  });

  test('a subagent: a child run under its parent on the board and in the tree; its transcript opens with its own updates', async () => {
    const a = await api();
    const parentKey = await newRun('Delegate with a subagent');
    await waitFor('the turn', () => endedTurns(a, parentKey, 'completed').length === 1, 30000);
    const child = [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.parentRunId === a.store.state.runs.get(parentKey)?.runId);
    assert.ok(child, 'a child run linked to its parent');
    assert.equal(child.title, 'Explore the workspace');
    const parentRow = boardRow(a, parentKey);
    assert.deepEqual(parentRow?.children?.map((c) => c.runKey), [child.key], 'under its parent on the board');
    assert.ok(!a.board.provider.snapshot().some((g) => g.rows.some((r) => r.runKey === child.key)), 'not in a group of its own');

    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
    // On the board: the child row sits one level below its parent's.
    const levels = await waitFor('the child row on the board', async () => {
      const texts = await ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
      const parentIndex = texts.findIndex((t) => t.includes('Delegate with a subagent'));
      const childIndex = texts.findIndex((t) => t.includes('Explore the workspace'));
      if (parentIndex < 0 || childIndex < 0) {
        return false;
      }
      // Read in a second call: the tree may have re-rendered in between (a tick, an update), so the two lists must
      // still line up, or this look is taken again (it once read a level of a row that was gone: NaN).
      const aria = await ui<(string | null)[]>({ action: 'attribute', selector: BOARD_ROWS, value: 'aria-level' });
      const found = [Number(aria[parentIndex]), Number(aria[childIndex]), childIndex - parentIndex] as const;
      return aria.length === texts.length && found.every(Number.isFinite) ? found : false;
    });
    assert.equal(levels[1], levels[0] + 1, 'one level deeper');
    assert.ok(levels[2] > 0, 'after its parent');
    await screenshot('acp-subagent-board.png');

    // In the Connections tree too.
    await setViewExpanded('Connections', true);
    const treeLevels = await waitFor('the child row in the tree', async () => {
      const texts = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS }).catch((): string[] => []);
      const p = texts.findIndex((t) => t.includes('Delegate with a subagent'));
      const c = texts.findIndex((t) => t.includes('Explore the workspace'));
      if (p < 0 || c < 0) {
        return false;
      }
      const aria = await ui<(string | null)[]>({ action: 'attribute', selector: CONNECTIONS_ROWS, value: 'aria-level' });
      return [Number(aria[p]), Number(aria[c])] as const;
    });
    assert.equal(treeLevels[1], treeLevels[0] + 1);
    await screenshot('acp-subagent-tree.png');

    // Opening it from the tree (a click on its row) shows its own transcript.
    await setViewExpanded('Connections', false);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', child.key);
    const texts = await waitFor('the child transcript', async () => {
      const t = await webviewTexts('[data-kind="text"]');
      return t.some((x) => x.includes('Found README.md')) && t;
    });
    assert.ok(!texts.some((t) => t.includes('Reference answer')), 'not the parent\'s answer');
    assert.deepEqual(await webviewTexts('#run-parent'), ['↳ Delegate with a subagent']);
    assert.ok((await webviewTexts('[data-kind="tool"]')).some((t) => t.includes('Glob')));
    // What the parent told it: a message row naming the parent, its markdown rendered, not raw data.
    const received = await waitFor('the instructions', async () => (await webviewTexts('[data-kind="message"]')).find((t) => t.includes('From Delegate with a subagent')));
    assert.ok(received.includes('List the markdown files of the workspace.'), received);
    assert.equal((await ui<string[]>({ action: 'text', selector: '[data-kind="message"] .message-body strong', webview: true })).join(), 'markdown');
    assert.deepEqual(await webviewTexts('[data-kind="raw"]'), []);
    await screenshot('acp-subagent-transcript.png');

    // In the parent's: the instructions it sent and the subagent's report, each a row naming the subagent.
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', parentKey);
    const sent = await waitFor('the parent\'s messages', async () => {
      const t = await webviewTexts('[data-kind="message"]');
      return t.length === 2 && t;
    });
    assert.ok(sent[0]!.includes('To subagent Explore the workspace'), sent[0]);
    assert.ok(sent[1]!.includes('From subagent Explore the workspace') && sent[1]!.includes('README.md: the only markdown file.'), sent[1]);
    assert.deepEqual(await webviewTexts('[data-kind="raw"]'), []);
    await screenshot('acp-subagent-messages.png');
  });

  test('a question of the run in focus opens as a quick pick and an input box; the answer reaches the agent', async () => {
    const a = await api();
    (await testHooks()).setWindowFocused(true);
    await setViewExpanded('Connections', false);
    const runKey = await newRun('Pick a database: elicit');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await ui({ action: 'waitFor', selector: QUICK_ROWS, hasText: 'SQLite', timeout: 30000 });
    const title = await ui<string[]>({ action: 'text', selector: '.quick-input-widget .quick-input-title' });
    assert.match(title.join(' '), /asks \(1\/2\): Which database should the service use\?/);
    await screenshot('acp-elicitation-pick.png');
    await ui({ action: 'click', selector: QUICK_ROWS, hasText: 'SQLite' });
    // Step 2: the optional "Other" text, with its description as the prompt.
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: 'Other' });
    await ui({ action: 'fill', selector: QUICK_BOX, value: 'for the tests only' });
    await screenshot('acp-elicitation-input.png');
    await ui({ action: 'press', selector: QUICK_BOX, value: 'Enter' });
    await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    assert.match(answerText(a, runKey), /You answered: `\{"question_0":"SQLite","question_0_custom":"for the tests only"\}`/);
    const notices = itemsOf(a, runKey).flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    assert.ok(notices.includes('You answered.'), notices.join(' | '));
  });

  test('a question of a run not in focus comes as a notification; Answer… opens it, a number is checked before it is sent', async () => {
    const a = await api();
    (await testHooks()).setWindowFocused(false);
    await clearNotifications();
    const runKey = await newRun('Prepare: elicit:settings');
    await waitFor('the question', () => itemsOf(a, runKey).some((i) => i.kind === 'notice' && i.text.includes('How should I prepare the branch?')), 30000);
    // The run is blocked on the answer while it shows as running: the board puts it under Needs you.
    await waitFor('the run under Needs you, waiting for an answer', () => a.board.provider.groupOf(runKey) === 'needsYou' && boardRow(a, runKey)?.need === 'question', 10000);
    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
    await waitFor('the board row says so', async () => {
      const labels = await ui<(string | null)[]>({ action: 'attribute', selector: BOARD_ROWS, value: 'aria-label' }).catch((): (string | null)[] => []);
      return labels.some((l) => l?.includes('waiting for your answer'));
    });
    await screenshot('acp-elicitation-board.png');
    // The test window shows no toasts (as in the approval suites): the notification is read in the center.
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notification-list-item', hasText: 'asks: How should I prepare the branch?' });
    await screenshot('acp-elicitation-notification.png');
    assert.equal(await ui<number>({ action: 'count', selector: '.quick-input-widget:visible' }).catch(() => 0), 0, 'nothing opened by itself');
    (await testHooks()).setWindowFocused(true);
    await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Answer…' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: 'Branch name' });
    await ui({ action: 'fill', selector: QUICK_BOX, value: 'Bad Name' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: 'It must match' });
    await ui({ action: 'press', selector: QUICK_BOX, value: 'Enter' });
    assert.equal(itemsOf(a, runKey).some((i) => i.kind === 'text' && i.text.includes('You answered')), false, 'refused: still asking');
    await ui({ action: 'fill', selector: QUICK_BOX, value: 'feature-x' });
    await ui({ action: 'press', selector: QUICK_BOX, value: 'Enter' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: 'Retries' });
    await ui({ action: 'fill', selector: QUICK_BOX, value: '9' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: 'At most 5' });
    await screenshot('acp-elicitation-number.png');
    await ui({ action: 'fill', selector: QUICK_BOX, value: '3' });
    await ui({ action: 'press', selector: QUICK_BOX, value: 'Enter' });
    await ui({ action: 'click', selector: QUICK_ROWS, hasText: 'Yes' });
    await waitFor('the turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    assert.match(answerText(a, runKey), /You answered: `\{"branch":"feature-x","retries":3,"push":true\}`/);
    assert.notEqual(boardRow(a, runKey)?.need, 'question', 'answered: no longer waiting for an answer');
  });
});

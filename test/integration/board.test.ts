/**
 * The run board in a real VS Code, with the reference AgencyProxy daemon and the reference ACP agent: a run that
 * asks for approval appears under *Needs you*, *Next Approval* reveals and selects its request, a click on the row's
 * inline Allow decides it (recorded as "from the run board"), and the run moves to *Working*, then *Done*. Next
 * Approval walks several requests oldest first and wraps; Enter on a request decides it through a quick pick, a
 * click on its row's Deny denies it. An ACP session waiting for the next message is under Needs you and answered
 * with a click on its row's Reply. In the light and the dark theme the rows' icons are drawn in that theme's values
 * of their colour tokens.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { BoardGroupId } from '../../extension/model/boardRows';
import { addConnections, endedTurns, fixturePath, removeConnections, setViewExpanded, webviewTexts } from './acpSupport';
import { ACP, ACP_NAME, AP, AP_NAME, BOARD_ROWS, boardTexts, iconColour, newApRun, OTHER_VIEWS, rowOf } from './boardSupport';
import { actionableNeed, api, testHooks, screenshot, startFixture, ui, waitFor, workspaceDir } from './support';

suite('Run board', () => {
  let daemon: ChildProcess | undefined;
  let dir: string;
  let startDaemon: () => ChildProcess;
  /** Every group each run was in, in order, as the board projected it after each model change. */
  const journeys = new Map<string, BoardGroupId[]>();
  let watch: vscode.Disposable | undefined;

  suiteSetup(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-board-'));
    const socketPath = path.join(dir, 'run', 'runtime.sock');
    // Chunks 30 ms apart: a run spends a moment in each state, as a real one does.
    startDaemon = () => startFixture('agencyProxy', ['--socket', socketPath, '--record-dir', path.join(dir, 'state'), '--workspace', workspaceDir(), '--chunk-ms', '30']);
    daemon = startDaemon();
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
    const a = await api();
    await addConnections([
      { name: AP_NAME, protocol: 'agency-proxy', socketPath },
      { name: ACP_NAME, protocol: 'acp', command: process.execPath, args: [fixturePath('acp'), '--state-dir', path.join(dir, 'acp')] },
    ]);
    await waitFor('both connected', () => a.store.state.connections.get(AP)?.state.kind === 'connected' && a.store.state.connections.get(ACP)?.state.kind === 'connected', 30000);
    watch = a.store.onDidChange((state) => {
      for (const key of state.runs.keys()) {
        const group = a.board.provider.groupOf(key);
        const journey = journeys.get(key) ?? [];
        if (group && journey.at(-1) !== group) {
          journey.push(group);
          journeys.set(key, journey);
        }
      }
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
  });

  suiteTeardown(async () => {
    watch?.dispose();
    await removeConnections([AP_NAME, ACP_NAME]);
    daemon?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a run needing approval is under Needs you, allowed from the board, then Working, then Done', async () => {
    const a = await api();
    const hooks = await testHooks();
    const runKey = await newApRun('Tidy up the README');
    const approval = await waitFor('the request on the board', () => rowOf(a, runKey)?.approvals[0]);
    assert.equal(a.board.provider.groupOf(runKey), 'needsYou');
    assert.equal(rowOf(a, runKey)!.need, 'approval');
    const rows = await waitFor('the row under Needs you in the view', async () => {
      const t = await boardTexts();
      return t.some((x) => x.includes('Needs you')) && t.some((x) => x.includes('Tidy up the README')) && t.some((x) => x.startsWith('Edit')) && t;
    });
    assert.ok(rows.indexOf(rows.find((x) => x.startsWith('Edit'))!) === rows.indexOf(rows.find((x) => x.includes('Tidy up the README'))!) + 1, `the request is the row below its run: ${rows.join(' | ')}`);
    assert.equal(hooks.board.view.badge?.value, 1, 'the badge counts the runs that need you');

    // Next Approval reveals the request's row (selected and focused) and shows the run in the transcript.
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.nextApproval'), approval.key);
    await waitFor('the request selected', () => {
      const node = hooks.board.view.selection[0];
      return node?.type === 'approval' && node.key === approval.key;
    });
    assert.equal(a.selection.runKey, runKey, 'the transcript shows the run');
    await waitFor('the card in the transcript', async () => (await webviewTexts('[data-kind="approval"]')).length === 1);
    // A click on the row's inline Allow, as a user would.
    await ui({ action: 'click', selector: `${BOARD_ROWS}.selected .action-label[aria-label="Allow"]` });
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    const decided = a.store.state.approvals.get(approval.key)!;
    assert.equal(decided.decision, 'allow_once');
    assert.equal(decided.decidedBy, 'board');
    await waitFor('Done', () => a.board.provider.groupOf(runKey) === 'done');
    assert.deepEqual(journeys.get(runKey), ['working', 'needsYou', 'working', 'done'], 'started working, needed the user, worked on, ended');
    const card = await waitFor('the card says where it was decided', async () => (await webviewTexts('[data-kind="approval"]')).find((x) => x.includes('from the run board')));
    assert.ok(card.includes('Allowed once'), card);
    assert.equal(hooks.board.view.badge, undefined, 'nothing needs the user any more');
  });

  test('Next Approval walks every waiting request, oldest first, and wraps; Enter or Deny on a request decides it', async () => {
    const a = await api();
    const hooks = await testHooks();
    const first = await newApRun('Rename the config loader');
    await waitFor('the first request', () => rowOf(a, first)?.approvals[0]);
    const second = await newApRun('Split the parser module');
    await waitFor('the second request', () => rowOf(a, second)?.approvals[0]);
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const key = (await vscode.commands.executeCommand('agentSwitchboard.nextApproval')) as string;
      await waitFor('the request selected', () => {
        const node = hooks.board.view.selection[0];
        return node?.type === 'approval' && node.key === key;
      });
      order.push(key.split('::')[1]!);
      assert.equal(a.selection.runKey, key.split('::').slice(0, 2).join('::'));
    }
    assert.deepEqual(order, [first, second, first].map((k) => k.split('::')[1]!));
    // Keyboard: Enter on the selected request asks for the decision in a quick pick.
    const firstApproval = rowOf(a, first)!.approvals[0]!.key;
    await ui({ action: 'press', selector: `${BOARD_ROWS}.selected`, value: 'Enter' });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Deny' });
    await waitFor('denied from the keyboard', () => a.store.state.approvals.get(firstApproval)?.status === 'decided');
    assert.equal(a.store.state.approvals.get(firstApproval)?.decidedBy, 'board');
    // A click on the second request's inline Deny, as a user would, once the first run's end has been drawn.
    await waitFor('the first completed', () => a.store.state.runs.get(first)?.state === 'completed' && hooks.board.provider.groupOf(first) === 'done', 30000);
    const secondApproval = rowOf(a, second)!.approvals[0]!.key;
    await hooks.board.view.reveal(hooks.board.provider.approvalNode(secondApproval, second), { select: true, focus: true });
    await waitFor('the second request selected', () => {
      const node = hooks.board.view.selection[0];
      return node?.type === 'approval' && node.key === secondApproval;
    });
    // One click: a run with requests under it is never redrawn on a timer (its row says since when it waits).
    assert.match(String(hooks.board.provider.getTreeItem(hooks.board.provider.runNode(second)).description), /^waiting since \d/);
    await screenshot('board-request-selected.png');
    await ui({ action: 'click', selector: `${BOARD_ROWS}.selected .action-label[aria-label="Deny"]` });
    await waitFor('denied from its row', () => a.store.state.approvals.get(secondApproval)?.status === 'decided');
    assert.deepEqual([a.store.state.approvals.get(secondApproval)?.decision, a.store.state.approvals.get(secondApproval)?.decidedBy], ['deny', 'board']);
    await waitFor('both completed', () => [first, second].every((k) => a.store.state.runs.get(k)?.state === 'completed'), 30000);
    assert.ok([first, second].every((k) => [...a.store.state.approvals.values()].find((x) => x.runKey === k)?.decision === 'deny'));
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.nextApproval'), undefined, 'nothing waits');
  });

  test('an ACP session waiting for the next message is under Needs you; Reply from its row answers it', async () => {
    const a = await api();
    const hooks = await testHooks();
    const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: ACP, model: '', permission: 'edit', prompt: 'Explain the build setup' })) as string;
    await waitFor('the first turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    const row = await waitFor('the session under Needs you', () => a.board.provider.groupOf(runKey) === 'needsYou' && rowOf(a, runKey));
    assert.equal(row.need, 'message');
    assert.equal(row.daemon, 'ACP');
    assert.equal(row.canReply, true);
    assert.ok(row.lastLine, 'the row has the last line of the answer');
    // A click on the row's inline Reply, as a user would (once the debounced board has drawn the row): it asks for
    // the message, which goes to this session.
    await ui({ action: 'waitFor', selector: BOARD_ROWS, hasText: row.title });
    await hooks.board.view.reveal(hooks.board.provider.runNode(runKey), { select: true, focus: true });
    await waitFor('the session selected', () => {
      const node = hooks.board.view.selection[0];
      return node?.type === 'run' && node.key === runKey;
    });
    await ui({ action: 'click', selector: `${BOARD_ROWS}.selected .action-label[aria-label^="Send Message"]` });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-message', hasText: `Message to "${a.store.state.runs.get(runKey)!.title}"` });
    await ui({ action: 'fill', selector: '.quick-input-widget .quick-input-box input', value: 'And the release steps?' });
    await ui({ action: 'press', selector: '.quick-input-widget .quick-input-box input', value: 'Enter' });
    await waitFor('the second turn', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    const prompts = a.store.transcript(runKey)!.snapshot().flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    assert.deepEqual(prompts, ['Explain the build setup', 'And the release steps?'], 'the reply went to this session');
    await waitFor('waiting again', () => a.board.provider.groupOf(runKey) === 'needsYou');
    assert.deepEqual(journeys.get(runKey)?.slice(-3), ['needsYou', 'working', 'needsYou']);
  });

  test('after a daemon restart Needs you holds only what the user can act on, and the badge counts exactly those rows', async function () {
    this.timeout(120000);
    const a = await api();
    const hooks = await testHooks();
    const lost = await newApRun('Edit the contributing guide');
    await waitFor('its request', () => rowOf(a, lost)?.approvals[0], 30000);
    // The real daemon keeps runs in memory only (WIRE.md 1.9): a restart loses the run and the request with it.
    const socketPath = path.join(dir, 'run', 'runtime.sock');
    const exited = new Promise((resolve) => daemon!.once('exit', resolve));
    daemon!.kill('SIGKILL');
    await exited;
    fs.rmSync(socketPath, { force: true });
    daemon = startDaemon();
    await waitFor('lost', () => a.store.state.runs.get(lost)?.state === 'lost', 60000);
    const row = await waitFor('the lost run under Needs you, to continue', () => a.board.provider.groupOf(lost) === 'needsYou' && rowOf(a, lost));
    assert.equal(row.need, 'failed');
    assert.deepEqual(row.approvals, [], 'its request died with the daemon');
    assert.match(row.lastLine ?? '', /^Approval expired: /, 'not "Approval: Edit" as if it still asked');
    // Continue in a New Run (offered on the row): acted on, the lost run leaves Needs you for good.
    await waitFor('connected again', () => a.store.state.connections.get(AP)?.state.kind === 'connected', 30000);
    const next = (await vscode.commands.executeCommand('agentSwitchboard.agencyProxy.continueRun', lost, { prompt: 'Pick up where you stopped notools' })) as unknown;
    if (typeof next !== 'string') {
      await vscode.commands.executeCommand('notifications.showList');
      const said = await ui<string[]>({ action: 'text', selector: '.notifications-center .notification-list-item-message' }).catch((): string[] => []);
      assert.fail(`Continue in a New Run gave ${String(next)}: ${said.join(' | ')}`);
    }
    await waitFor('the lost run in Done', () => a.board.provider.groupOf(lost) === 'done', 30000);
    await waitFor('the continuation answered', () => a.store.state.runs.get(next)?.state === 'idle', 30000);
    await vscode.commands.executeCommand('agentSwitchboard.endRun', next);
    await waitFor('the continuation ended', () => a.store.state.runs.get(next)?.state === 'canceled', 30000);
    const needsYou = await waitFor('the board settled', () => {
      const group = a.board.provider.snapshot()[0]!;
      return group.rows.every((r) => r.runKey !== lost && r.runKey !== next) && group;
    });
    // Whatever else the suite left there is something to act on now: a request the daemon waits for, a message the
    // connected daemon takes, or a run that ended badly and was not looked at yet.
    for (const r of needsYou.rows) {
      assert.ok(actionableNeed(r), `${r.title}: ${r.need} / ${r.state}`);
      assert.notEqual(r.state, 'interrupted');
    }
    assert.equal(hooks.board.view.badge?.value ?? 0, needsYou.rows.length, 'the badge counts the rows of Needs you, no more');
    await vscode.commands.executeCommand('agentSwitchboard.board.focus');
    await screenshot('board-after-daemon-restart.png');
  });

  test('the board in the dark and light themes', async () => {
    const a = await api();
    const hooks = await testHooks();
    // Something in every group: a request waiting, a run working, a failed one, the finished ones of the tests above.
    const waiting = await newApRun('Add a changelog entry');
    await waitFor('the request', () => rowOf(a, waiting)?.approvals[0]);
    const failed = await newApRun('Migrate the database schema\nfail noedit');
    await waitFor('failed', () => a.board.provider.groupOf(failed) === 'needsYou' && rowOf(a, failed)?.state === 'failed', 30000);
    const working = await newApRun('Write the release notes\nslow long:400 noedit');
    await waitFor('working with output', () => a.board.provider.groupOf(working) === 'working' && rowOf(a, working)?.lastLine);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    // The board gets the sidebar's height: the other views folded (and put back as they were afterwards). Earlier
    // suites leave the views sized as they used them; the tree draws only the rows that fit.
    const folded = new Map<string, boolean>();
    try {
      for (const title of OTHER_VIEWS) {
        folded.set(title, await setViewExpanded(title, false));
      }
      // Wide enough for the rows' descriptions (the default 300 px shows the titles); put back afterwards. "View
      // width" is the editor's: a narrower editor is a wider sidebar.
      for (let i = 0; i < 4; i++) {
        await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
      }
      await hooks.board.view.reveal(hooks.board.provider.groupNode('done'), { expand: true, focus: false, select: false });
      await vscode.commands.executeCommand('agentSwitchboard.board.focus');
      await waitFor('every group in the view', async () => {
        const t = await boardTexts();
        return ['Needs you', 'Working', 'Done', 'Tidy up the README'].every((s) => t.some((x) => x.includes(s)));
      });
      const config = vscode.workspace.getConfiguration('workbench');
      const themed = (cls: string) => waitFor(`the ${cls} theme`, async () => ((await ui<(string | null)[]>({ action: 'attribute', selector: '.monaco-workbench', value: 'class' }))[0] ?? '').split(/\s+/).includes(cls));
      // The rows' icons take their colours from the theme's tokens: the request's shield charts.yellow, the failed
      // run's mark testing.iconFailed — in each theme the icon is drawn in that theme's value of its token.
      const coloured = async (theme: string): Promise<{ shield: string; failed: string }> => {
        const shield = await waitFor(`the shield in the ${theme} theme's charts.yellow`, async () => {
          const c = await iconColour('Add a changelog entry', 'charts.yellow');
          return c.icon === c.token && c.icon;
        });
        const failedMark = await waitFor(`the failed mark in the ${theme} theme's testing.iconFailed`, async () => {
          const c = await iconColour('Migrate the database schema', 'testing.iconFailed');
          return c.icon === c.token && c.icon;
        });
        return { shield, failed: failedMark };
      };
      let light: { shield: string; failed: string };
      try {
        await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
        await themed('vs');
        light = await coloured('light');
        await screenshot('board-light.png');
      } finally {
        await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
      }
      await themed('vs-dark');
      const dark = await coloured('dark');
      assert.notEqual(light.shield, dark.shield, `the shield changes with the theme (${light.shield} / ${dark.shield})`);
      await screenshot('board-dark.png');
      // A failed run needs the user until they have looked at it and moved on.
      const selected = (key: string) => () => {
        const node = hooks.board.view.selection[0];
        return node?.type === 'run' && node.key === key;
      };
      await hooks.board.view.reveal(hooks.board.provider.runNode(failed), { select: true, focus: true });
      await waitFor('the failed run selected', selected(failed));
      assert.equal(a.selection.runKey, failed, 'its transcript is shown');
      assert.equal(a.board.provider.groupOf(failed), 'needsYou', 'it stays while selected');
      await hooks.board.view.reveal(hooks.board.provider.runNode(working), { select: true, focus: true });
      await waitFor('the working run selected', selected(working));
      await waitFor('the failed run in Done once looked at', () => a.board.provider.groupOf(failed) === 'done');
    } finally {
      for (let i = 0; i < 4; i++) {
        await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
      }
      for (const [title, expanded] of folded) {
        await setViewExpanded(title, expanded);
      }
      await vscode.commands.executeCommand('agentSwitchboard.cancelRun', working);
      await hooks.approvals.decide(rowOf(a, waiting)!.approvals[0]!.key, 'deny', 'board');
    }
    await waitFor('the working run ended', () => a.store.state.runs.get(working)?.state === 'canceled', 30000);
  });
});

/**
 * Checkpoints and rewind (issue #26) in a real VS Code with the reference ACP agent: a run edits a long file in the
 * middle in two turns; the transcript shows a checkpoint marker per turn; *Rewind files to here* on the first turn's
 * marker opens the preview diff (both sides from the checkpoint's git objects), asks (answered by the test hook, as
 * the modal would be), and puts the file back as after turn 1; *Redo Rewind* from the palette puts it back as after
 * turn 2. *Continue from here* on the first turn's marker: the new run's first message (the conversation up to turn
 * 1, as a context block) shown to edit (answered by the test hook), the file rewound to turn 1 again, and a new run
 * on the same agent whose first prompt is that message. From the newest turn, the agent's own fork carries the
 * conversation (`session/fork`) and the message is only what comes next. Screenshots of the markers, the preview and
 * the continued runs, looked at.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { DEFAULT_CONTINUATION, EARLIER_CONVERSATION_TAG } from '../../extension/model/earlierConversation';
import type { FirstMessageDraft } from '../../extension/ui/checkpoints/firstMessageEditor';
import type { RewindAsk } from '../../extension/ui/checkpoints/rewindPrompt';
import { REWIND_SCHEME } from '../../extension/ui/checkpoints/rewindPreviewDocuments';
import { api, screenshot, tabWebview, testHooks, traceOf, ui, waitFor, workspaceDir } from './support';
import { clearNotifications, connectReferenceAgent, endedTurns, itemsOf, pendingApproval, removeConnections, setViewExpanded } from './acpSupport';

const NAME = 'ACP checkpoints';
const CONNECTION = `acp:${NAME}`;
const LONG_FILE = 'checkpoint-long-file.ts';
const LINES = Array.from({ length: 240 }, (_, i) => `export const w${i + 1} = ${i + 1};\n`);
/** What the reference agent puts in place of line n (test/fixtures/acp/editTool.ts replacedLine). */
const replaced = (n: number): string => `Edited line ${n} by the reference ACP agent.\n`;
const AFTER_TURN_1 = [...LINES.slice(0, 99), replaced(100), ...LINES.slice(100)].join('');
const AFTER_TURN_2 = [...LINES.slice(0, 99), replaced(100), ...LINES.slice(100, 149), replaced(150), ...LINES.slice(150)].join('');

type Marker = Extract<TranscriptItem, { kind: 'checkpoint' }>;

/** The file's text, or undefined while it is briefly absent (git's checkout-index writes it anew: unlink, create). */
function textOf(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

suite('Checkpoints and rewind', () => {
  let stateDir: string;
  let file: string;
  let runKey: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ckpt-'));
    file = path.join(workspaceDir(), LONG_FILE);
    fs.writeFileSync(file, LINES.join(''));
    await connectReferenceAgent(NAME, stateDir);
    await setViewExpanded('Connections', false);
  });

  suiteTeardown(async () => {
    (await testHooks()).setRewindConfirmation(undefined);
    (await testHooks()).setFirstMessageAnswer(undefined);
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const tabLabels = (): Promise<string[]> =>
    ui<string[]>({ action: 'text', selector: '.item-checkpoint .checkpoint-label', webview: true, frame: tabWebview() }).catch((): string[] => []);
  const markers = async (): Promise<Marker[]> => itemsOf(await api(), runKey).filter((i): i is Marker => i.kind === 'checkpoint');

  async function turn(prompt: string, ended: number, first = false): Promise<void> {
    const a = await api();
    if (first) {
      runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt })) as string;
    } else {
      await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, prompt);
    }
    await vscode.commands.executeCommand('agentSwitchboard.decideApproval', await pendingApproval(a, runKey), 'allow_once');
    await waitFor(`turn ${ended}`, () => endedTurns(a, runKey, 'completed').length === ended, 30000);
  }

  test('two turns edit a long file in the middle: a checkpoint marker per turn', async () => {
    await turn(`edit:${LONG_FILE}:100 please`, 1, true);
    await waitFor('the file after turn 1', () => textOf(file) === AFTER_TURN_1);
    // The next message once turn 1's marker is there, as a person's would be: the snapshot ends whenever git is done,
    // and its marker goes where the transcript is then (fileCheckpointRows.ts), mid-answer if the next turn runs.
    await waitFor('the marker of turn 1', async () => (await markers()).some((m) => m.turn === 1), 30000);
    await turn(`edit:${LONG_FILE}:150 please`, 2);
    await waitFor('the file after turn 2', () => textOf(file) === AFTER_TURN_2);
    const shown = await waitFor('three markers', async () => ((await markers()).length === 3 ? markers() : undefined));
    assert.deepEqual(shown.map((m) => [m.mark, m.turn, m.files]), [['turn', 0, 0], ['turn', 1, 1], ['turn', 2, 1]]);

    // In an editor tab: room for the transcript (the sidebar's is a few rows under the change-set panel).
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    const labels = await waitFor('the turn markers in the tab', async () => {
      const shownLabels = await tabLabels();
      return shownLabels.includes('Checkpoint · turn 1 · files: 1 changed') && shownLabels.includes('Checkpoint · turn 2 · files: 1 changed') ? shownLabels : undefined;
    });
    // Rows are mounted as far as they are seen (a windowed list): the start's marker may be above the window.
    assert.deepEqual(labels.filter((l) => !l.includes('start of the run')), ['Checkpoint · turn 1 · files: 1 changed', 'Checkpoint · turn 2 · files: 1 changed']);
    await screenshot('checkpoints-markers.png');
  });

  test('Rewind files to here on turn 1: the preview diff, the question, the file as after turn 1; Redo: as after turn 2', async () => {
    const hooks = await testHooks();
    const asked: RewindAsk[] = [];
    let preview: { now: string; target: string } | undefined;
    hooks.setRewindConfirmation(async (ask) => {
      asked.push(ask);
      // The preview diff is open before the question: both sides of the long file, read from the git objects.
      const sides = await waitFor('the preview documents', () => {
        const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === REWIND_SCHEME && d.uri.path === `/${LONG_FILE}`);
        const now = docs.find((d) => d.uri.query.includes('side=now'));
        const target = docs.find((d) => d.uri.query.includes('side=target'));
        return now && target ? { now: now.getText(), target: target.getText() } : undefined;
      });
      preview ??= sides;
      await ui({ action: 'waitFor', selector: '.multiDiffEditor, .monaco-diff-editor' });
      await screenshot(asked.length === 1 ? 'checkpoints-rewind-preview.png' : 'checkpoints-redo-preview.png');
      return ask.questions.map((q) => ({ top: q.top, path: q.path, decision: 'keep' as const }));
    });
    await clearNotifications();
    const turnOne = (await markers()).find((m) => m.turn === 1)!;
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    // From the keyboard: scrolled into view, the marker of turn 1 can sit under the tab's sticky run header.
    await ui({ action: 'press', selector: `[data-item-id="${turnOne.id}"] .checkpoint-rewind`, value: 'Enter', webview: true, frame: tabWebview() });
    await waitFor('the rewind', () => textOf(file) === AFTER_TURN_1, 30000);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /Rewind the files of .* to turn 1\?/);
    assert.deepEqual(asked[0]!.questions, [], 'nothing changed since the last checkpoint: nothing to ask');
    assert.equal(preview?.now, AFTER_TURN_2, 'the left side: the file now');
    assert.equal(preview?.target, AFTER_TURN_1, 'the right side: the file at the checkpoint');
    const rewound = await waitFor('the rewind marker', async () => (await markers()).find((m) => m.mark === 'rewound'));
    assert.equal(rewound.summary, 'to turn 1: 1 file restored');
    assert.equal(rewound.redo, true);
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    await waitFor('the rewind in the tab', async () => (await tabLabels()).some((t) => t.includes('Files rewound · to turn 1: 1 file restored')));
    // The tab stayed where the rewind was pressed (turn 1's marker): to the end, where the rewind and its Redo are.
    const inTab = { webview: true, frame: tabWebview() } as const;
    if ((await ui<number>({ action: 'count', selector: '#jump-to-latest:visible', ...inTab })) > 0) {
      await ui({ action: 'click', selector: '#jump-to-latest', ...inTab });
    }
    await ui({ action: 'waitFor', selector: '.item-checkpoint', hasText: 'Files rewound', ...inTab });
    await screenshot('checkpoints-rewound.png');

    const redo = await vscode.commands.executeCommand('agentSwitchboard.redoRewind', runKey);
    assert.equal((redo as { status?: string } | undefined)?.status, 'rewound');
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER_TURN_2, 'redo: the file as after turn 2');
    assert.equal(asked.length, 2, 'the redo was previewed and asked too');
    assert.match(asked[1]!.message, /^Redo:/);
    const all = await waitFor('the redo marker', async () => ((await markers()).filter((m) => m.mark === 'rewound').length === 2 ? markers() : undefined));
    assert.deepEqual(all.filter((m) => m.mark === 'rewound').map((m) => m.redo === true), [false, true], 'Redo only on the newest');
  });

  test('Continue from here on turn 1: the conversation up to it to edit, the file rewound, a new run started with it', async () => {
    const a = await api();
    const hooks = await testHooks();
    const drafts: FirstMessageDraft[] = [];
    const asked: RewindAsk[] = [];
    const NEXT = 'Now say what you changed so far.';
    hooks.setFirstMessageAnswer(async (draft) => {
      drafts.push(draft);
      return draft.draft.replace(DEFAULT_CONTINUATION, NEXT); // the person's edit: what to do next
    });
    hooks.setRewindConfirmation(async (ask) => {
      asked.push(ask);
      return ask.questions.map((q) => ({ top: q.top, path: q.path, decision: 'restore' as const }));
    });
    await clearNotifications();
    const turnOne = (await markers()).find((m) => m.mark === 'turn' && m.turn === 1)!;
    const runsBefore = new Set(a.store.state.runs.keys());
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    const button = `[data-item-id="${turnOne.id}"] .checkpoint-continue`;
    await ui({ action: 'waitFor', selector: button, webview: true, frame: tabWebview() });
    await screenshot('checkpoints-continue-marker.png');
    // From the keyboard, as Rewind above: scrolled into view, the marker can sit under the sticky header or a row.
    await ui({ action: 'press', selector: button, value: 'Enter', webview: true, frame: tabWebview() });
    // New Run asks the agent's model and mode, as for any new run: the plan mode keeps the carried prompt from editing.
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Reference small' });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Reference small' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    const newKey = await waitFor('the new run', () => [...a.store.state.runs.keys()].find((k) => !runsBefore.has(k)), 30000);

    // The draft: the conversation up to turn 1 only, marked as a block.
    assert.equal(drafts.length, 1);
    assert.equal(drafts[0]!.upTo, 'turn 1');
    const draft = drafts[0]!.draft;
    assert.ok(draft.startsWith(`Continued from “`), draft.slice(0, 200));
    assert.ok(draft.includes(`\n<${EARLIER_CONVERSATION_TAG} run="`), draft.slice(0, 300));
    assert.ok(draft.includes(`<user>\nedit:${LONG_FILE}:100 please\n</user>`), 'the first prompt');
    assert.match(draft, /<tool name="[^"]+" status="succeeded">/, 'the edit, summarized');
    assert.ok(!draft.includes(`:150 please`), 'not the second turn');
    assert.ok(draft.endsWith(`</${EARLIER_CONVERSATION_TAG}>\n\n${DEFAULT_CONTINUATION}`));
    // The files: back as after turn 1, previewed and asked like any rewind.
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /Rewind the files of .* to turn 1\?/);
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER_TURN_1);
    // The new run: on the same agent, its first prompt the edited message.
    assert.equal(a.store.state.runs.get(newKey)?.connectionId, CONNECTION);
    await waitFor('its first turn', () => endedTurns(a, newKey, 'completed').length === 1, 30000);
    const firstPrompt = itemsOf(a, newKey).find((i) => i.kind === 'user');
    assert.equal(firstPrompt?.kind === 'user' ? firstPrompt.text : undefined, draft.replace(DEFAULT_CONTINUATION, NEXT));
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER_TURN_1, 'the plan mode edited nothing');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', newKey);
    await ui({ action: 'waitFor', selector: '.item-user', hasText: NEXT, webview: true, frame: tabWebview() });
    await screenshot('checkpoints-continued-run.png');
  });

  test('Continue from here on the newest turn: the agent forks its own session, the message is only what comes next', async () => {
    const a = await api();
    const hooks = await testHooks();
    const drafts: FirstMessageDraft[] = [];
    const NEXT = 'Say hello from the fork.';
    hooks.setFirstMessageAnswer(async (draft) => {
      drafts.push(draft);
      return NEXT;
    });
    hooks.setRewindConfirmation(async (ask) => ask.questions.map((q) => ({ top: q.top, path: q.path, decision: 'restore' as const })));
    await clearNotifications();
    const turnTwo = (await markers()).find((m) => m.mark === 'turn' && m.turn === 2)!;
    const runsBefore = new Set(a.store.state.runs.keys());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', runKey);
    const button = `[data-item-id="${turnTwo.id}"] .checkpoint-continue`;
    await ui({ action: 'waitFor', selector: button, webview: true, frame: tabWebview() });
    await ui({ action: 'press', selector: button, value: 'Enter', webview: true, frame: tabWebview() });
    const forkKey = await waitFor('the forked run', () => [...a.store.state.runs.keys()].find((k) => !runsBefore.has(k)), 30000);

    assert.equal(drafts.length, 1);
    const { upTo, draft, carriedBy, how } = drafts[0]!;
    assert.deepEqual({ upTo, draft, carriedBy, how }, { upTo: 'turn 2', draft: DEFAULT_CONTINUATION, carriedBy: 'agent', how: 'Fork Run' });
    await waitFor('the file as after turn 2', () => textOf(file) === AFTER_TURN_2, 30000);
    await waitFor('the message in the fork', () => itemsOf(a, forkKey).some((i) => i.kind === 'user' && i.text === NEXT), 30000);
    await waitFor("the fork's turn", () => endedTurns(a, forkKey, 'completed').length >= 1, 30000);
    assert.equal(a.store.state.runs.get(forkKey)?.connectionId, CONNECTION);
    assert.ok(
      itemsOf(a, forkKey).every((i) => i.kind !== 'user' || !i.text.includes(EARLIER_CONVERSATION_TAG)),
      'the agent has the conversation: nothing is quoted',
    );
    const forks = (await traceOf(NAME)).filter((l) => l.dir === 'out' && l.frame.method === 'session/fork');
    assert.equal(forks.length, 1, 'one session/fork');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.openInEditor', forkKey);
    await ui({ action: 'waitFor', selector: '.item-user', hasText: NEXT, webview: true, frame: tabWebview() });
    await screenshot('checkpoints-continued-fork.png');
  });
});

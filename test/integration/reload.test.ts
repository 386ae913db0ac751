/**
 * A window reload with three live runs. Phase 1 (one VS Code window) starts three long runs on a daemon that lives
 * outside VS Code and leaves while they stream; phase 2 (a new window on the same profile) must show the runs from
 * storage, re-attach all three after what it stored, and end with transcripts equal to the daemon's journal: no
 * event lost, none doubled. Two more runs ask for approval: one decided in phase 1 (it must stay decided, with who
 * decided, and never be announced again) and one still waiting at the daemon (announced once more, and decidable).
 * Phase 2 also finds what a user left open: the run shown last selected again, the finished run with its model and
 * closing line, the change-set tab opened in phase 1 showing its files (not "No Changed Files"), and a run long
 * enough to be checkpointed back from its checkpoint, whole.
 * The runner (test/harness/runIntegration.mjs) launches the two phases.
 */
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import { addConnections } from './acpSupport';
import { actionableNeed, api, EXTENSION_ID, screenshot, sentFrames, setConnections, ui, waitFor, testHooks } from './support';
import { CHANGES_SCHEME } from '../../extension/ui/changeSets/changeSetDocuments';
import { checkIdleChatBackQuiet, checkLongRunFromCheckpoint, CONNECTION, daemonJournal, env, LONG, opened, startIdleChat, startStepsRun } from './reloadLongRuns';

const TITLES = ['reload run 1', 'reload run 2', 'reload run 3'];
const DECIDED = 'reload approval decided';
const WAITING = 'reload approval waiting';

async function startApprovalRun(title: string): Promise<string> {
  return (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
    connectionId: CONNECTION,
    provider: 'claude',
    model: '',
    permission: 'edit',
    prompt: `${title} notes`,
    approvals: true,
    interactive: false,
  })) as string;
}

/** The workbench's stored values of `key` (what a later launch on the same browser profile restores). */
function storedState(key: string): Promise<string[]> {
  return ui<string[]>({ action: 'storedState', selector: '', value: key });
}

/** The README edit the decided approval applied (test/fixtures/agencyProxy/scriptedProvider.ts). */
const EDIT_MARK = '(edited via Agent Switchboard)';

// Root-level (before every suite of every file): what the new window selected by itself, before the ACP reload
// suite (acpReload.test.ts, which sorts first) selects a run of its own.
let restoredSelection: Promise<string> | undefined;
suiteSetup(() => {
  if (process.env.SWITCHBOARD_INTEGRATION_GREP === 'Reload phase 2') {
    restoredSelection = api().then(async (a) => {
      const key = await waitFor('the run selected in the earlier window, selected again', () => a.selection.runKey, 60000);
      await screenshot('reload-phase2-selection.png');
      return key;
    });
    // Handled: an unhandled rejection would end the extension host before the test reports it.
    restoredSelection.catch(() => undefined);
  }
});

suite('Reload phase 1', () => {
  test('three long runs start streaming, then the window goes away', async function () {
    this.timeout(240000);
    const a = await api();
    const hooks = await testHooks();
    // Added beside the ACP reload suite's profile (acpReload.test.ts), which phase 2 needs too.
    await addConnections([{ name: 'Reload daemon', protocol: 'agency-proxy', socketPath: env('SWITCHBOARD_RELOAD_SOCKET') }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    const keys: string[] = [];
    for (const title of TITLES) {
      const key = vscode.commands.executeCommand('agentSwitchboard.newRun', {
        connectionId: CONNECTION,
        provider: 'claude',
        model: '',
        permission: 'read_only',
        prompt: `${title} long:1500 slow notools`,
        approvals: false,
        interactive: false,
      });
      keys.push((await key) as string);
    }
    for (const key of keys) {
      await waitFor(`${key} streaming`, () => (a.store.state.runs.get(key)?.lastSequence ?? 0) > 40, 60000);
    }
    const long = await startStepsRun(LONG, false);
    await waitFor('the long run completed', () => a.store.state.runs.get(long)?.state === 'completed', 120000);
    await startIdleChat(a, hooks.storageDir);
    const decided = await startApprovalRun(DECIDED);
    const decidedApproval = await waitFor('the first approval', () => a.store.state.runs.get(decided)?.pendingApprovals[0], 30000);
    assert.equal(await hooks.approvals.decide(`${decided}::${decidedApproval}`, 'allow_once', 'notification'), true);
    await waitFor('the decided run completed', () => a.store.state.runs.get(decided)?.state === 'completed', 60000);
    await waitFor('the closing line', () => a.store.transcript(decided)!.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'), 30000);
    await waitFor('the decided run named its model', () => a.store.state.runs.get(decided)?.model === 'sonnet');
    await waitFor('the decided run\'s change set', () => a.store.state.changeSets.get(decided)?.status === 'ready', 60000);
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.openAllChanges', decided), 1, 'its multi-diff tab is open when the window goes away');
    const waiting = await startApprovalRun(WAITING);
    await waitFor('the second approval', () => a.store.state.runs.get(waiting)?.pendingApprovals.length === 1, 30000);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', keys[0]);
    // Phase 2 is another launch on this browser profile: it restores what the workbench has stored. The workbench
    // stores its open editors when idle and when its page unloads (a real reload), and a launch that ends has no
    // unload: without this wait the window could go away before the change-set tab was ever stored.
    const runId = a.store.state.runs.get(decided)!.runId;
    await waitFor('the workbench stored the change-set tab', async () =>
      (await storedState('memento/workbench.parts.editor')).some((v) => v.includes(CHANGES_SCHEME) && v.includes(runId)), 60000);
    await waitFor('the workspace state stored the selected run', async () =>
      (await storedState(EXTENSION_ID)).some((v) => (JSON.parse(v) as Record<string, unknown>)['agentSwitchboard.selectedRun'] === keys[0]), 60000);
    await screenshot('reload-phase1.png');
  });
});

suite('Reload phase 2', () => {
  test('after the reload every run is re-attached and its transcript equals the daemon journal', async function () {
    this.timeout(240000);
    const a = await api();
    const runs = await waitFor('the three runs, restored from storage', () => {
      const found = [...a.store.state.runs.values()].filter((r) => r.connectionId === CONNECTION && TITLES.some((t) => r.title.startsWith(t)));
      return found.length === 3 && found;
    });
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    assert.equal(await restoredSelection, runs.find((r) => r.title.startsWith(TITLES[0]!))!.key, 'the run shown last in phase 1 is selected again');
    await checkRestoredWhatWasOpen(a);
    await checkRestoredApprovals(a);
    await checkLongRunFromCheckpoint(a);
    await checkIdleChatBackQuiet(a);
    for (const run of runs) {
      await waitFor(`${run.title} completed`, () => a.store.state.runs.get(run.key)?.state === 'completed', 180000);
    }
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runs[0]!.key);
    await screenshot('reload-phase2.png');
    // Each run was re-attached after what this window restored from storage (not replayed from the start).
    const attaches = (await sentFrames('Reload daemon')).filter((f) => f.type === 'attach_run');
    for (const run of runs) {
      const after = Math.max(...attaches.filter((f) => f.run_id === run.runId).map((f) => (typeof f.after_sequence === 'number' ? f.after_sequence : 0)));
      assert.ok(after > 40, `${run.title} was re-attached after its stored sequence (after_sequence ${after})`);
    }
    for (const run of runs) {
      const journal = daemonJournal(run.runId);
      const items = a.store.transcript(run.key)!.snapshot();
      const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
      const expected = journal.filter((e) => e.type === 'text').map((e) => String(e.payload)).join('');
      assert.equal(text, expected, `${run.title}: the text equals the daemon journal`);
      assert.equal(a.store.state.runs.get(run.key)!.lastSequence, journal.length, `${run.title}: every sequence folded once`);
      assert.equal(items.filter((i) => i.kind === 'gap').length, 0, `${run.title}: no gap`);
      assert.equal(items.filter((i) => i.kind === 'user').length, 1, `${run.title}: the prompt once`);
    }
    await setConnections([]);
  });
});

/** After the reload: the run that finished in phase 1 reads as it did, and its change-set tab shows its files. */
async function checkRestoredWhatWasOpen(a: Awaited<ReturnType<typeof api>>): Promise<void> {
  const decided = [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.title.startsWith(DECIDED))!;
  assert.equal(decided.model, 'sonnet', 'the model the daemon named is kept');
  const items = (await opened(a, decided.key)).snapshot();
  const closing = items.filter((i) => i.kind === 'notice' && i.state === 'completed');
  assert.equal(closing.length, 1, 'the closing "Run completed" line is restored, once');
  // The terminal event's file checkpoint marker (issue #26) follows it: the closing line is the last line of the run's own.
  const lines = items.filter((i) => i.kind !== 'checkpoint');
  assert.equal(lines[lines.length - 1], closing[0], 'and it is the last line (file checkpoint markers aside)');
  // The reopened multi-diff resolves its documents through the content provider (a stale tab resolves none).
  await waitFor('the change-set tab shows the edited file', () =>
    vscode.workspace.textDocuments.some((d) => d.uri.scheme === CHANGES_SCHEME && new URLSearchParams(d.uri.query).get('run') === decided.key && d.getText().includes(EDIT_MARK)), 60000);
  const changeTabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith(`Changes of "${decided.title}"`));
  const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
  assert.equal(changeTabs.length, 1, `one change-set tab: the stale one was replaced (tabs: ${labels.join(' | ')})`);
  await screenshot('reload-phase2-changes.png');
}

/** After the reload: the decided request stays decided and silent; the waiting one is announced once and decidable. */
async function checkRestoredApprovals(a: Awaited<ReturnType<typeof api>>): Promise<void> {
  const hooks = await testHooks();
  const byTitle = (title: string) => [...a.store.state.runs.values()].find((r) => r.connectionId === CONNECTION && r.title.startsWith(title));
  const decidedRun = await waitFor('the decided run, restored', () => byTitle(DECIDED));
  const waitingRun = await waitFor('the waiting run, restored', () => byTitle(WAITING));
  const approvalsOf = (runKey: string) => [...a.store.state.approvals.values()].filter((x) => x.runKey === runKey);
  const waiting = await waitFor('the waiting request confirmed by the daemon', () => approvalsOf(waitingRun.key).find((x) => x.live && x.status === 'pending'), 30000);
  await waitFor('the waiting request announced', () => hooks.approvals.announcedKeys.includes(waiting.key));
  // After the reload Needs you holds only what the user can act on now, the waiting request among it, and the view's
  // badge counts exactly those rows (model/boardGroups.ts needOf).
  const needsYou = await waitFor('the waiting run under Needs you', () => {
    const group = a.board.provider.snapshot()[0]!;
    return group.rows.some((r) => r.runKey === waitingRun.key && r.need === 'approval') && group;
  });
  for (const r of needsYou.rows) {
    assert.ok(actionableNeed(r), `${r.title}: ${String(r.need)} / ${r.state}`);
  }
  assert.ok(!needsYou.rows.some((r) => r.runKey === decidedRun.key), 'the decided run needs nothing');
  await waitFor('the badge counts the rows of Needs you', () => (hooks.board.view.badge?.value ?? 0) === a.board.provider.snapshot()[0]!.rows.length);
  const decided = approvalsOf(decidedRun.key)[0]!;
  assert.equal(decided.status, 'decided', 'the decided request is still shown decided');
  assert.equal(decided.decision, 'allow_once');
  assert.equal(decided.decidedBy, 'notification');
  assert.deepEqual(hooks.approvals.announcedKeys, [waiting.key], 'only the request the daemon still waits for is announced');
  assert.equal(await hooks.approvals.decide(decided.key, 'deny', 'notification'), false, 'a stale click sends nothing');
  assert.equal(await hooks.approvals.decide(waiting.key, 'deny', 'transcript'), true);
  await waitFor('the waiting run completed', () => a.store.state.runs.get(waitingRun.key)?.state === 'completed', 60000);
  assert.equal(a.store.state.approvals.get(waiting.key)?.decision, 'deny');
}

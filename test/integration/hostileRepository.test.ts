/**
 * A hostile repository in a real VS Code: a window on the workspace test/harness/hostileWorkspace.mjs prepares, whose
 * committed .vscode/settings.json defines an ACP profile with a relative command, one with NODE_OPTIONS, one with an
 * absolute script, an A3S profile with a "remote" URL and allowRemote, a trace file outside the workspace and
 * approvals.allowWorkspaceRules. Every program it names writes a marker file when it runs; a listener stands in for
 * the remote harness. At window open nothing runs, nothing is written, nothing is reached, and one notification says
 * so; the refused profiles stay refused when connected by hand; the allowed-shape one asks first (the test workbench
 * drops modal dialogs, so the test answers the prompt through the API's hook and checks what it shows), Don't Allow
 * leaves nothing, and Allow and Connect spawns exactly the resolved command.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { workspaceRulesAllowed } from '../../extension/ui/approvals/approvalRules';
import { traceFile } from '../../extension/ui/settings';
import type { ConsentRequest } from '../../extension/ui/workspaceConnections/workspaceConnections';
import { api, CONNECTIONS_ROWS, screenshot, ui, waitFor, workspaceDir, testHooks } from './support';

interface Hostile {
  readonly markers: string;
  readonly hits: string;
  readonly agent: string;
  readonly trace: string;
  /** The command of the user's own "Claude Code" profile. */
  readonly userCommand: string;
}

const RELATIVE = 'acp:Relative agent';
const PRELOADING = 'acp:Preloading agent';
const REPO_AGENT = 'acp:Repo agent';
const REMOTE = 'a3s:Remote harness';
/** The user's own profile (user settings), whose name the repository reuses with a program of its own. */
const USERS = 'acp:Claude Code';

function hostile(): Hostile {
  const raw = process.env.SWITCHBOARD_HOSTILE;
  if (!raw) {
    throw new Error('the Hostile repository suite runs in its own launch (test/harness/runIntegration.mjs)');
  }
  return JSON.parse(raw) as Hostile;
}

/** What ran: the marker files the repository's programs write when they start. */
function markers(h: Hostile): string[] {
  return fs.readdirSync(h.markers).sort();
}

/** The Connections tree's row of `name`, as shown. */
async function rowText(name: string): Promise<string> {
  const rows = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS, hasText: name }).catch((): string[] => []);
  return rows.join('\n');
}

function agentProcesses(h: Hostile): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(h.agent) || line.includes('tools/agent'));
}

suite('Hostile repository', () => {
  const asked: ConsentRequest[] = [];
  let answer = false;

  suiteSetup(async () => {
    const a = await api();
    (await testHooks()).setConsentPrompt(async (request) => {
      asked.push(request);
      return answer;
    });
    await waitFor('the four workspace profiles', () => [RELATIVE, PRELOADING, REPO_AGENT, REMOTE].every((id) => a.store.state.connections.has(id)));
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
  });

  suiteTeardown(async () => {
    const hooks = await testHooks();
    hooks.setConsentPrompt(undefined);
    await hooks.connections.disconnect(REPO_AGENT);
  });

  test('at window open nothing runs, nothing is reached, and one notification asks for a review', async () => {
    const h = hostile();
    const a = await api();
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'This workspace\'s settings define the connection "Repo agent"' });
    await screenshot('hostile-repository-notification.png');
    await vscode.commands.executeCommand('notifications.hideList');
    for (const id of [RELATIVE, PRELOADING, REPO_AGENT, REMOTE]) {
      assert.equal(a.store.state.connections.get(id)?.state.kind, 'idle', id);
    }
    assert.deepEqual(markers(h), [], 'no program of the repository ran');
    assert.deepEqual(agentProcesses(h), []);
    assert.equal(fs.existsSync(h.hits), false, 'the "remote" harness was not contacted');
    assert.deepEqual(asked, [], 'no prompt at window open');
    await waitFor('the rows', async () => /not allowed yet · workspace settings/.test(await rowText('Repo agent')));
    for (const name of ['Relative agent', 'Preloading agent', 'Remote harness']) {
      assert.match(await rowText(name), /refused · workspace settings/, name);
    }
    await screenshot('hostile-repository-tree.png');
  });

  test("a workspace profile with the name of one of yours is not used: yours stays, and you are told", async () => {
    const h = hostile();
    const a = await api();
    assert.equal(a.connections.originOf(USERS), 'user');
    assert.equal(a.connections.profile(USERS)?.command, h.userCommand, "the user's command, not the repository's");
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'has the name of one in your user settings' });
    await vscode.commands.executeCommand('notifications.hideList');
    assert.deepEqual(markers(h), []);
  });

  test('refused profiles are not connected by hand either, and say why', async () => {
    const h = hostile();
    const hooks = await testHooks();
    await assert.rejects(hooks.connections.connect(RELATIVE), /relative path/);
    await assert.rejects(hooks.connections.connect(PRELOADING), /NODE_OPTIONS/);
    await assert.rejects(hooks.connections.connect(REMOTE), /allowRemote/);
    assert.deepEqual(asked, [], 'a refused profile is never offered for consent');
    assert.deepEqual(markers(h), []);
    assert.equal(fs.existsSync(h.hits), false);
  });

  test("the repository's trace file and workspace approval rules are not in effect", async () => {
    const h = hostile();
    const settings = JSON.parse(fs.readFileSync(path.join(workspaceDir(), '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(settings['agentSwitchboard.trace.file'], h.trace, 'the repository does set it');
    assert.equal(settings['agentSwitchboard.approvals.allowWorkspaceRules'], true, 'the repository does set it');
    // Machine scope: VS Code itself does not apply a workspace's value of either…
    const config = vscode.workspace.getConfiguration('agentSwitchboard');
    assert.equal(config.get('trace.file'), '');
    assert.equal(config.get('approvals.allowWorkspaceRules'), false);
    // …and the extension reads the user's value only.
    assert.equal(traceFile(), undefined);
    assert.equal(workspaceRulesAllowed(), false);
    const a = await api();
    await a.flushTrace();
    assert.equal(fs.existsSync(h.trace), false);
  });

  test("the consent prompt names the resolved command; Don't Allow leaves nothing", async () => {
    const h = hostile();
    const a = await api();
    answer = false;
    await vscode.commands.executeCommand('agentSwitchboard.connect', REPO_AGENT);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.name, 'Repo agent');
    assert.match(asked[0]!.detail, new RegExp(`^Run: ${h.agent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --from-settings$`, 'm'));
    assert.match(asked[0]!.detail, /^Environment: DEBUG=repo$/m);
    assert.equal(a.store.state.connections.get(REPO_AGENT)?.state.kind, 'idle');
    assert.deepEqual(markers(h), []);
    assert.deepEqual(agentProcesses(h), []);
    await waitFor('the row says it is not allowed', async () => /not allowed · workspace settings/.test(await rowText('Repo agent')));
    // Reading the settings again (auto-connect) neither connects it nor asks again.
    await a.reloadProfiles();
    assert.equal(asked.length, 1);
    assert.equal(a.store.state.connections.get(REPO_AGENT)?.state.kind, 'idle');
    assert.deepEqual(markers(h), []);
  });

  test('Allow and Connect spawns exactly the resolved command, and the consent is kept', async () => {
    const h = hostile();
    const a = await api();
    answer = true;
    await vscode.commands.executeCommand('agentSwitchboard.reviewWorkspaceConnections', REPO_AGENT);
    assert.equal(asked.length, 2);
    await waitFor('connected', () => a.store.state.connections.get(REPO_AGENT)?.state.kind === 'connected', 30000);
    assert.deepEqual(markers(h), ['repo-agent'], 'only the allowed program ran');
    assert.deepEqual(fs.readFileSync(`${h.markers}/repo-agent`, 'utf8').split('\n').filter(Boolean), [h.agent, '--from-settings'], 'what ran is the absolute path shown');
    await waitFor('the row says connected', async () => /connected/.test(await rowText('Repo agent')));
    await screenshot('hostile-repository-allowed.png');
    // Frames flowed; the repository's trace file is still not written.
    await a.flushTrace();
    assert.equal(fs.existsSync(h.trace), false, "the repository's trace.file was not written");
    await a.reloadProfiles();
    assert.equal(asked.length, 2, 'allowed once: not asked again');
    assert.equal(a.store.state.connections.get(REPO_AGENT)?.state.kind, 'connected');
    assert.equal(fs.existsSync(h.hits), false);
  });

  test('Forget Workspace Connection Consent disconnects it; neither Restart nor Connect runs it again without asking', async () => {
    const h = hostile();
    const a = await api();
    await vscode.commands.executeCommand('agentSwitchboard.forgetWorkspaceConnectionConsent');
    await waitFor('disconnected', () => a.store.state.connections.get(REPO_AGENT)?.state.kind !== 'connected');
    fs.rmSync(`${h.markers}/repo-agent`);
    // The driver's own Restart does not pass the connect prompt: it must still not start the agent.
    await vscode.commands.executeCommand('agentSwitchboard.acp.restart', REPO_AGENT);
    assert.deepEqual(markers(h), [], 'Restart did not run the agent');
    assert.notEqual(a.store.state.connections.get(REPO_AGENT)?.state.kind, 'connected');
    assert.equal(asked.length, 2);
    answer = false;
    await vscode.commands.executeCommand('agentSwitchboard.connect', REPO_AGENT);
    assert.equal(asked.length, 3);
    assert.notEqual(a.store.state.connections.get(REPO_AGENT)?.state.kind, 'connected');
  });
});

suite('Untrusted repository', () => {
  const asked: ConsentRequest[] = [];

  suiteSetup(async () => {
    (await testHooks()).setConsentPrompt(async (request) => {
      asked.push(request);
      return true;
    });
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
  });

  suiteTeardown(async () => {
    (await testHooks()).setConsentPrompt(undefined);
  });

  test("in an untrusted workspace the repository's settings are not used at all: nothing listed, run, asked or written", async () => {
    const h = hostile();
    const a = await api();
    const hooks = await testHooks();
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened the folder untrusted');
    const settings = JSON.parse(fs.readFileSync(path.join(workspaceDir(), '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown[]>;
    assert.equal(settings['agentSwitchboard.connections']?.length, 5, 'the repository does define them');
    // restrictedConfigurations: VS Code does not hand the extension the workspace's value while it is untrusted.
    assert.equal(vscode.workspace.getConfiguration('agentSwitchboard').inspect('connections')?.workspaceValue, undefined);
    await a.reloadProfiles();
    for (const id of [RELATIVE, PRELOADING, REPO_AGENT, REMOTE]) {
      assert.equal(a.store.state.connections.has(id), false, id);
      await assert.rejects(hooks.connections.connect(id), /no connection profile/);
    }
    assert.equal(a.connections.originOf(USERS), 'user', 'your own profiles are still there');
    assert.equal(a.connections.profile(USERS)?.command, h.userCommand);
    await screenshot('untrusted-repository-tree.png');
    assert.deepEqual(asked, []);
    assert.deepEqual(markers(h), []);
    assert.deepEqual(agentProcesses(h), []);
    assert.equal(fs.existsSync(h.hits), false);
    assert.equal(fs.existsSync(h.trace), false);
  });
});

/**
 * Helpers of the ACP suites: the transcript of a run read from the store, turns ended, a decision clicked in the
 * approval's notification, the connections setting changed without dropping other suites' profiles, and the agent
 * processes the extension host started (read from /proc through test/fixtures/acp/processTree.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { descendantsOf, processGroupMembers } from '../fixtures/acp/processTree';
import { api, APPROVAL_NOTIFICATION_LINK, setConnections, ui, waitFor } from './support';

type Api = Awaited<ReturnType<typeof api>>;

/** A button of a notification, as a toast or in the notification center (see agencyProxy.test.ts). */
export const NOTIFICATION_BUTTON = '.notification-toast .monaco-button, .notifications-center .monaco-button';

export function fixturePath(name: string): string {
  return path.join(process.env.SWITCHBOARD_FIXTURES ?? path.join(__dirname, '..', 'fixtures'), `${name}.js`);
}

export function itemsOf(a: Api, runKey: string): readonly TranscriptItem[] {
  return a.store.transcript(runKey)?.snapshot() ?? [];
}

/** The turns of a run that ended with `phase` (completed, cancelled, failed). */
export function endedTurns(a: Api, runKey: string, phase: 'completed' | 'cancelled' | 'failed'): Extract<TranscriptItem, { kind: 'turn' }>[] {
  return itemsOf(a, runKey).filter((i): i is Extract<TranscriptItem, { kind: 'turn' }> => i.kind === 'turn' && i.phase === phase);
}

/** Every streamed answer of a run, joined. */
export function answerText(a: Api, runKey: string): string {
  return itemsOf(a, runKey)
    .flatMap((i) => (i.kind === 'text' ? [i.text] : []))
    .join('');
}

/** The run's one pending approval, once it is there. */
export async function pendingApproval(a: Api, runKey: string, timeoutMs = 30000): Promise<string> {
  const id = await waitFor('an approval request', () => a.store.state.runs.get(runKey)?.pendingApprovals[0], timeoutMs);
  return `${runKey}::${id}`;
}

/**
 * Opens the notification center, clicks the link `label` in the approval's notification (the only one there), and
 * closes the center again. The old button closed its notification at once, and the emptied center with it; a link
 * leaves the center open. Left open, the agent's save that follows (fs/write_text_file) was refused under this
 * machine's load, also once the approval notification had gone (its run through VS Code's save: a "Saving…" progress
 * notification after 3 s, which the open center shows) — seen in code-server 1.139.1, cause not found (issue 25 §4 report).
 */
export async function decideFromNotification(label: string): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await ui({ action: 'waitFor', selector: APPROVAL_NOTIFICATION_LINK, hasText: label });
  await ui({ action: 'click', selector: APPROVAL_NOTIFICATION_LINK, hasText: label });
  await vscode.commands.executeCommand('notifications.hideList');
}

/** Clears the notification center, so the next approval's notification is the only one there. */
export async function clearNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}

function currentProfiles(): Record<string, unknown>[] {
  return [...(vscode.workspace.getConfiguration('agentSwitchboard').get<Record<string, unknown>[]>('connections') ?? [])];
}

/** Adds (or replaces, by name) profiles, keeping those of other suites. */
export async function addConnections(profiles: readonly Record<string, unknown>[]): Promise<void> {
  const names = new Set(profiles.map((p) => p.name));
  await setConnections([...currentProfiles().filter((p) => !names.has(p.name)), ...profiles]);
}

/** Removes profiles by name, keeping those of other suites. */
export async function removeConnections(names: readonly string[]): Promise<void> {
  await setConnections(currentProfiles().filter((p) => !names.includes(String(p.name))));
}

/** The command line of a process ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * The extension host's live descendants whose command line contains `needle` and that lead a process group: the
 * supervisor each agent runs under (transport/agentSupervisor.ts, its command line names the agent's), whose group
 * holds the agent and everything it starts.
 */
export function agentProcesses(needle: string): number[] {
  return descendantsOf(process.pid).filter((pid) => commandLine(pid).includes(needle) && processGroupMembers(pid).includes(pid));
}

/** The process group of the one agent matching `needle` (its supervisor's pid = the group's id). */
export function agentProcess(needle: string): Promise<number> {
  return waitFor(`the agent process (${needle})`, () => {
    const found = agentProcesses(needle);
    return found.length === 1 && found[0];
  });
}

/** Waits until no process of group `pgid` is left (the driver kills the group on disconnect). */
export async function groupGone(pgid: number, timeoutMs = 10000): Promise<void> {
  await waitFor(`process group ${pgid} gone (left: ${processGroupMembers(pgid).join(', ')})`, () => processGroupMembers(pgid).length === 0, timeoutMs);
}

/** The protocol trace reader is support.ts's (one for every suite). */
export { traceOf } from './support';

/** The visible texts of `selector` in the transcript webview (empty while it renders). */
export function webviewTexts(selector: string): Promise<string[]> {
  return ui<string[]>({ action: 'text', selector, webview: true }).catch((): string[] => []);
}

/**
 * Expands or collapses a view of the Agent Switchboard sidebar by its header: with Connections collapsed the
 * Transcript view gets the sidebar's height, so its screenshots show the items and not only the header and panels.
 * Returns whether it was expanded before, so a suite can put it back as it found it.
 */
export async function setViewExpanded(title: string, expanded: boolean): Promise<boolean> {
  await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
  const header = { selector: '.sidebar .pane-header', hasText: title } as const;
  const [state] = await ui<(string | null)[]>({ action: 'attribute', ...header, value: 'aria-expanded' });
  const was = state === 'true';
  if (was !== expanded) {
    await ui({ action: 'click', ...header });
    await waitFor(`${title} ${expanded ? 'expanded' : 'collapsed'}`, async () => {
      const [now] = await ui<(string | null)[]>({ action: 'attribute', ...header, value: 'aria-expanded' });
      return (now === 'true') === expanded;
    });
  }
  return was;
}

/** Adds a profile that runs the reference agent (its sessions kept in `stateDir`) and waits until it is connected. */
export async function connectReferenceAgent(name: string, stateDir: string, args: readonly string[] = []): Promise<void> {
  const a = await api();
  await addConnections([{ name, protocol: 'acp', command: process.execPath, args: [fixturePath('acp'), '--state-dir', stateDir, ...args] }]);
  await waitFor(`${name} connected`, () => a.store.state.connections.get(`acp:${name}`)?.state.kind === 'connected', 30000);
}

/**
 * "Manage Connections" (also the welcome view's "Add a Connection"): offers the AgencyProxy daemons listening at
 * the usual places (WIRE.md 1.1) that no profile uses yet, a socket path typed by hand, the coding agents that speak
 * ACP (Claude Code, Codex, Gemini CLI: found on PATH or run through npx at a pinned version, see drivers/acpPresets), and the settings
 * editor. Picking one writes a profile into `agentSwitchboard.connections`; the settings listener then loads and
 * connects it like any other profile.
 *
 * A bundle of its own, loaded at the command's first use (commands/connectionCommands.ts registers it).
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { DiscoveredSocket } from '../../drivers/agencyProxy/socketDiscovery';
import { acceptsConnections, describeSearchPlaces, findLiveSockets } from '../../drivers/agencyProxy/socketDiscovery';
import { configuredSocketPaths, profileNameForSocket, uniqueProfileName, withSocketProfile } from '../../drivers/agencyProxy/socketProfiles';
import type { AcpPreset } from '../../drivers/acpPresets/acpPresets';
import { acpPresets } from '../../drivers/acpPresets/acpPresets';
import type { CommandContext } from '../commands/commandContext';
import { errorText } from '../commands/commandContext';
import type { CommandHandler } from '../lazyCommands';
import { readProfiles } from '../settings';

/** What tests and automation may pass to skip the pick: add this socket, or this ACP preset (under this name). */
export interface AddConnectionArgs {
  readonly socketPath?: string;
  /** An ACP preset's label, e.g. "Claude Code". */
  readonly acpPreset?: string;
  readonly name?: string;
}

type Choice = vscode.QuickPickItem &
  ({ readonly action: 'add'; readonly socket: DiscoveredSocket } | { readonly action: 'acp'; readonly preset: AcpPreset } | { readonly action: 'path' | 'settings' | 'rescan' });

/**
 * Profiles are added to the user's settings: a profile in a workspace's settings is the repository's and would need
 * the user's consent before it connects (ui/workspaceConnections), which makes no sense for one the user just chose.
 */
function settingTarget(): { target: vscode.ConfigurationTarget; value: unknown } {
  const inspected = vscode.workspace.getConfiguration('agentSwitchboard').inspect<unknown>('connections');
  return { target: vscode.ConfigurationTarget.Global, value: inspected?.globalValue ?? [] };
}

async function addProfile(ctx: CommandContext, socketPath: string, suggested: string, askName: boolean): Promise<string | undefined> {
  const { target, value } = settingTarget();
  const unique = uniqueProfileName(suggested, value);
  const name = askName
    ? await vscode.window.showInputBox({
        title: 'Add AgencyProxy Connection',
        prompt: `Name for the daemon at ${socketPath}`,
        value: unique,
        validateInput: (v) => (v.trim() === '' ? 'Enter a name' : uniqueProfileName(v.trim(), value) !== v.trim() ? 'A connection with this name exists' : undefined),
      })
    : unique;
  if (!name) {
    return undefined;
  }
  try {
    await vscode.workspace.getConfiguration('agentSwitchboard').update('connections', withSocketProfile(value, name.trim(), socketPath), target);
  } catch (error) {
    void vscode.window.showErrorMessage(`The connection was not saved: ${errorText(error)}`);
    return undefined;
  }
  ctx.log.info(`Added AgencyProxy connection "${name.trim()}" at ${socketPath}`);
  void vscode.window.setStatusBarMessage(`Added connection "${name.trim()}"`, 3000);
  return name.trim();
}

/** Adds an ACP preset's profile (under a unique name); a preset that cannot run here says why and how to install it. */
async function addAcpPreset(ctx: CommandContext, preset: AcpPreset, name?: string): Promise<string | undefined> {
  if (!preset.profile) {
    void vscode.window.showWarningMessage(preset.problem ?? `${preset.label} cannot be run here.`);
    return undefined;
  }
  const { target, value } = settingTarget();
  const unique = uniqueProfileName(name ?? preset.profile.name, value);
  const list = Array.isArray(value) ? value : [];
  try {
    await vscode.workspace.getConfiguration('agentSwitchboard').update('connections', [...list, { ...preset.profile, args: [...preset.profile.args], name: unique }], target);
  } catch (error) {
    void vscode.window.showErrorMessage(`The connection was not saved: ${errorText(error)}`);
    return undefined;
  }
  ctx.log.info(`Added ACP connection "${unique}": ${preset.profile.command} ${preset.profile.args.join(' ')}`);
  void vscode.window.setStatusBarMessage(`Added connection "${unique}"`, 3000);
  return unique;
}

async function askSocketPath(): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: 'Add AgencyProxy Connection',
    prompt: 'Path of the AgencyProxy socket (agency-proxy --socket <path>)',
    placeHolder: '/path/to/agency-proxy/runtime.sock',
    validateInput: (v) => {
      if (v.trim() === '') {
        return 'Enter a socket path';
      }
      try {
        return fs.statSync(v.trim()).isSocket() ? undefined : 'This file is not a socket';
      } catch {
        return 'Nothing exists at this path';
      }
    },
  });
  const socketPath = typed?.trim();
  if (socketPath && !(await acceptsConnections(socketPath))) {
    const keep = await vscode.window.showWarningMessage(`No daemon answers on ${socketPath} right now. Add it anyway?`, 'Add Anyway');
    return keep ? socketPath : undefined;
  }
  return socketPath;
}

/** Returns the name of the profile it added, if any. */
async function manageConnections(ctx: CommandContext, args?: AddConnectionArgs): Promise<string | undefined> {
  if (args?.socketPath) {
    return addProfile(ctx, args.socketPath, args.name ?? 'AgencyProxy', false);
  }
  if (args?.acpPreset) {
    const preset = (await acpPresets()).find((p) => p.label === args.acpPreset);
    return preset ? addAcpPreset(ctx, preset, args.name) : undefined;
  }
  for (;;) {
    // Every loaded profile counts, the user's and the workspace's (both are shown).
    const configured = configuredSocketPaths(readProfiles().profiles.map((p) => p.profile));
    const live = (await findLiveSockets()).filter((s) => !configured.has(s.socketPath));
    const items: Choice[] = [
      { label: 'AgencyProxy daemons found on this machine', kind: vscode.QuickPickItemKind.Separator, action: 'rescan' },
      ...live.map((socket): Choice => ({ label: `$(plug) ${profileNameForSocket(socket)}`, description: socket.socketPath, detail: 'Listening now — add it as a connection', action: 'add', socket })),
      ...(live.length === 0
        ? [{ label: '$(refresh) None found — search again', detail: `Looked for a listening socket at ${describeSearchPlaces()}`, action: 'rescan' } as Choice]
        : []),
      { label: 'Coding agents (Agent Client Protocol)', kind: vscode.QuickPickItemKind.Separator, action: 'rescan' },
      ...(await acpPresets()).map((preset): Choice => ({ label: `$(${preset.profile ? 'hubot' : 'warning'}) ${preset.label}`, ...(preset.description ? { description: preset.description } : {}), detail: preset.detail, action: 'acp', preset })),
      { label: 'Other', kind: vscode.QuickPickItemKind.Separator, action: 'rescan' },
      { label: '$(file) AgencyProxy socket path…', detail: 'A daemon started with agency-proxy --socket <path>', action: 'path' },
      { label: '$(settings-gear) Edit connections in Settings', detail: 'SCV, A3S and hyperhive profiles, and every option', action: 'settings' },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: 'Manage Connections', placeHolder: 'Add a daemon connection', matchOnDescription: true });
    switch (pick?.action) {
      case undefined:
        return undefined;
      case 'rescan':
        continue;
      case 'add':
        return addProfile(ctx, pick.socket.socketPath, profileNameForSocket(pick.socket), true);
      case 'acp':
        return addAcpPreset(ctx, pick.preset);
      case 'path': {
        const socketPath = await askSocketPath();
        return socketPath ? addProfile(ctx, socketPath, 'AgencyProxy', true) : undefined;
      }
      case 'settings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'agentSwitchboard.connections');
        return undefined;
      default: {
        const _exhaustive: never = pick;
        return _exhaustive;
      }
    }
  }
}

function isAddConnectionArgs(value: unknown): value is AddConnectionArgs {
  return value !== null && typeof value === 'object' && typeof (value as { socketPath?: unknown }).socketPath === 'string';
}

/** The handler of `agentSwitchboard.manageConnections`. */
export function manageConnectionsHandlers(ctx: CommandContext): ReadonlyMap<string, CommandHandler> {
  return new Map<string, CommandHandler>([['agentSwitchboard.manageConnections', (args?: unknown) => manageConnections(ctx, isAddConnectionArgs(args) ? args : undefined)]]);
}

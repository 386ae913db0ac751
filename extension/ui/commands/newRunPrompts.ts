/**
 * The questions of "New Run…": provider (every one the daemon reports, with why it cannot run), model,
 * permission, conversation or one-shot (AgencyProxy; the last choice is remembered), prompt. Arguments given by
 * tests or automation skip their question. An agent that advertises its models and modes per session (ACP) is asked
 * for them first, and the model and permission are picked from what it offers (none offered: not asked).
 */
import * as vscode from 'vscode';
import type { NewRunChoice, NewRunChoices, StartRunOptions } from '../../drivers/driver';
import type { ProviderPresentation } from '../../drivers/kit/providerChoices';
import { presentProviders } from '../../drivers/kit/providerChoices';
import type { CommandContext } from './commandContext';

/** Arguments tests and automation may pass to skip the prompts of "New Run…". */
export interface NewRunArgs extends Partial<StartRunOptions> {
  readonly connectionId?: string;
  /** Skips the driver's confirmation (e.g. SCV: "end the live session?"). */
  readonly confirmed?: boolean;
  /** In a git worktree of its own (true) or the workspace (false); absent: the profile's `runWorktree` (ui/worktrees/newRunPlace.ts). */
  readonly worktree?: boolean;
}

const PERMISSIONS = [
  { label: 'edit', description: 'Edit files; ask before risky tools' },
  { label: 'read_only', description: 'Read, never write' },
  { label: 'plan', description: 'Plan only' },
  { label: 'auto', description: 'Act without asking for most tools' },
  { label: 'bypass', description: 'Never ask (dangerous)' },
];

/** globalState key of the last conversation/one-shot choice. */
export const RUN_MODE_KEY = 'agentSwitchboard.newRun.interactive';

const MODES = [
  {
    label: 'Conversation — stays open for follow-ups',
    detail: 'After each answer the run waits for your next message, with the agent’s full context. End it with End Run.',
    interactive: true,
  },
  {
    label: 'One-shot — ends after the answer',
    detail: 'The run finishes once the prompt is answered; a follow-up starts a new run.',
    interactive: false,
  },
];

type ProviderItem = vscode.QuickPickItem & { readonly presentation?: ProviderPresentation };

/** Shows every provider; picking one that cannot run explains why (with its command to copy) and asks again. */
async function pickProvider(providers: readonly ProviderPresentation[], title: string): Promise<string | undefined> {
  const runnable = providers.filter((p) => p.runnable);
  const blocked = providers.filter((p) => !p.runnable);
  const item = (p: ProviderPresentation): ProviderItem => ({
    label: p.runnable ? p.provider : `$(circle-slash) ${p.provider}`,
    description: p.description,
    ...(p.detail ? { detail: p.detail } : {}),
    presentation: p,
  });
  const items: ProviderItem[] = [
    ...(runnable.length > 0 ? [{ label: 'Ready', kind: vscode.QuickPickItemKind.Separator }, ...runnable.map(item)] : []),
    ...(blocked.length > 0 ? [{ label: 'Cannot run yet', kind: vscode.QuickPickItemKind.Separator }, ...blocked.map(item)] : []),
  ];
  for (;;) {
    const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Which agent provider?', title, matchOnDetail: true });
    const chosen = pick?.presentation;
    if (!chosen) {
      return undefined;
    }
    if (chosen.runnable) {
      return chosen.provider;
    }
    const copy = chosen.command ? 'Copy Command' : undefined;
    const answer = await vscode.window.showWarningMessage(`${chosen.provider} cannot run yet. ${chosen.hint ?? ''}`, ...(copy ? [copy] : []), 'Choose Another');
    if (answer === copy && chosen.command) {
      await vscode.env.clipboard.writeText(chosen.command);
      void vscode.window.setStatusBarMessage(`Copied: ${chosen.command}`, 3000);
      return undefined;
    }
    if (answer !== 'Choose Another') {
      return undefined;
    }
  }
}

/** One of the agent's own choices; its default first. Picking the default sends nothing (''). */
async function pickChoice(choices: readonly NewRunChoice[], title: string, placeHolder: string): Promise<string | undefined> {
  const ordered = [...choices].sort((a, b) => Number(b.isDefault === true) - Number(a.isDefault === true));
  const items = ordered.map((c) => ({ label: c.label, ...(c.isDefault ? { description: 'default' } : {}), ...(c.detail ? { detail: c.detail } : {}), choice: c }));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder });
  return pick === undefined ? undefined : pick.choice.isDefault ? '' : pick.choice.value;
}

/**
 * What the agent offers a new run in these folders (it may start the session to find out); undefined when the person
 * cancels the wait — the agent is then told it need not answer (ACP: `$/cancel_request` for its `session/new`).
 */
function agentChoices(ask: (roots: readonly string[], abandon: AbortSignal) => Promise<NewRunChoices>, roots: readonly string[]): Thenable<NewRunChoices | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Asking the agent which models and modes it offers…', cancellable: true }, async (_progress, token) => {
    const abandon = new AbortController();
    const listener = token.onCancellationRequested(() => abandon.abort());
    try {
      return await ask(roots, abandon.signal);
    } catch (error) {
      if (abandon.signal.aborted) {
        return undefined;
      }
      throw error;
    } finally {
      listener.dispose();
    }
  });
}

/** Conversation or one-shot, the last choice first (a new user starts with Conversation: see README). */
async function pickMode(ctx: CommandContext, title: string): Promise<boolean | undefined> {
  const last = ctx.memento.get<boolean>(RUN_MODE_KEY, true);
  const ordered = [...MODES].sort((a, b) => Number(b.interactive === last) - Number(a.interactive === last));
  const items = ordered.map((m) => ({ ...m, description: m.interactive === last ? 'last used' : '' }));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'Keep the run open for follow-up messages?' });
  if (pick) {
    await ctx.memento.update(RUN_MODE_KEY, pick.interactive);
  }
  return pick?.interactive;
}

export async function askNewRun(ctx: CommandContext, connectionId: string, args: NewRunArgs): Promise<StartRunOptions | undefined> {
  const driver = ctx.connections.ensureDriver(connectionId);
  // Only daemons with the choice (AgencyProxy): their runs either wait for input between answers or end after one.
  const asksMode = args.interactive === undefined && (ctx.store.state.connections.get(connectionId)?.capabilities.includes('run.interactive') ?? false);
  const workspaceRoots = args.workspaceRoots ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  // An agent with its own lists offers only those; one without is not asked (a free-text model would be ignored).
  const asksAgent = driver.newRunChoices !== undefined && (args.model === undefined || args.permission === undefined);
  const choices = asksAgent ? await agentChoices((roots, abandon) => driver.newRunChoices!(roots, abandon), workspaceRoots) : undefined;
  if (asksAgent && choices === undefined) {
    return undefined;
  }
  // A daemon whose runs take no model or permission (SCV sessions) is not asked for them.
  const asks = choices ? { model: (choices.models?.length ?? 0) > 0, permission: (choices.permissions?.length ?? 0) > 0 } : (driver.newRunAsks ?? { model: true, permission: true });
  const questions = [driver.listProviders !== undefined && args.provider === undefined, asks.model && args.model === undefined, asks.permission && args.permission === undefined, asksMode, args.prompt === undefined];
  const steps = questions.filter(Boolean).length;
  let step = 0;
  const title = (): string => `New Run (${++step}/${steps})`;
  let provider = args.provider;
  if (provider === undefined && driver.listProviders) {
    provider = await pickProvider(presentProviders(await driver.listProviders()), title());
    if (provider === undefined) {
      return undefined;
    }
  }
  const askModel = (): Thenable<string | undefined> =>
    choices?.models ? pickChoice(choices.models, title(), 'Model') : vscode.window.showInputBox({ title: title(), prompt: 'Model (empty = the provider default)', value: '' });
  const model = args.model ?? (asks.model ? await askModel() : '');
  if (model === undefined) {
    return undefined;
  }
  const askPermission = async (): Promise<string | undefined> =>
    choices?.permissions ? pickChoice(choices.permissions, title(), 'Mode') : (await vscode.window.showQuickPick(PERMISSIONS, { title: title(), placeHolder: 'Permission mode' }))?.label;
  const permission = args.permission ?? (asks.permission ? await askPermission() : '');
  // '' is the agent's own default for an agent with its own modes; a daemon needs one of its permissions.
  if (permission === undefined || (asks.permission && !permission && driver.newRunChoices === undefined)) {
    return undefined;
  }
  const interactive = asksMode ? await pickMode(ctx, title()) : (args.interactive ?? true);
  if (interactive === undefined) {
    return undefined;
  }
  const prompt =
    args.prompt ??
    (await vscode.window.showInputBox({
      title: title(),
      prompt: 'What should the agent do?',
      validateInput: (v) => (v.trim() === '' ? 'Enter a prompt' : undefined),
    }));
  if (!prompt) {
    return undefined;
  }
  return {
    prompt,
    ...(provider !== undefined ? { provider } : {}),
    model,
    permission,
    workspaceRoots,
    approvals: args.approvals ?? true,
    interactive,
  };
}

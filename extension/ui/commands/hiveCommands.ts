/**
 * Hive manager commands: start / stop / restart / update an agent (destructive ones confirmed in a modal), an
 * agent's logs and the host journal in read-only documents with "Refresh", plus the schedule and approval-request
 * commands (`hiveScheduleCommands`). Each takes a tree node or prompts; a second argument (`HiveCommandArgs`)
 * answers the prompts for tests and automation. Commands resolve `true` when they did what was asked.
 */
import * as vscode from 'vscode';
import type { HiveDriver, HiveLifecycleVerb } from '../../drivers/hive/hiveDriver';
import type { HiveAgentSummary } from '../../drivers/hive/hiveRoster';
import type { CommandContext } from './commandContext';
import { errorText } from './commandContext';
import { HIVE_DOCUMENT_SCHEME, HiveDocuments } from './hiveDocuments';
import { registerHiveScheduleCommands } from './hiveScheduleCommands';
import { confirmModal, hiveArgs, hiveDriverOf, resolveAgent, resolveHive } from './hiveTargets';

interface LifecycleCommand {
  readonly id: string;
  readonly verb: HiveLifecycleVerb;
  readonly placeHolder: string;
  readonly progress: string;
  readonly done: string;
  readonly eligible: (agent: HiveAgentSummary) => boolean;
  /** Modal text for destructive verbs. */
  readonly confirm?: { readonly message: string; readonly detail: string; readonly button: string };
}

const LIFECYCLE: readonly LifecycleCommand[] = [
  {
    id: 'agentSwitchboard.hive.startAgent',
    verb: 'start',
    placeHolder: 'Start which hive agent?',
    progress: 'Starting',
    done: 'started',
    eligible: (a) => !a.isManager && !a.running,
  },
  {
    id: 'agentSwitchboard.hive.stopAgent',
    verb: 'kill',
    placeHolder: 'Stop which hive agent?',
    progress: 'Stopping',
    done: 'stopped',
    eligible: (a) => !a.isManager && a.running,
    confirm: {
      message: 'Stop hive agent "{name}"?',
      detail: 'Its container shuts down gracefully. Messages sent to it keep queueing until it is started again.',
      button: 'Stop',
    },
  },
  {
    id: 'agentSwitchboard.hive.restartAgent',
    verb: 'restart',
    placeHolder: 'Restart which hive agent?',
    progress: 'Restarting',
    done: 'restarted',
    eligible: (a) => !a.isManager,
    confirm: { message: 'Restart hive agent "{name}"?', detail: 'A turn in progress is interrupted.', button: 'Restart' },
  },
  {
    id: 'agentSwitchboard.hive.updateAgent',
    verb: 'update',
    placeHolder: 'Update (rebuild) which hive agent?',
    progress: 'Rebuilding',
    done: 'rebuilt on the current hyperhive flake',
    eligible: (a) => !a.isManager,
    confirm: {
      message: 'Rebuild hive agent "{name}" on the current hyperhive flake?',
      detail: 'The agent restarts on the new build. A rebuild can take minutes.',
      button: 'Update',
    },
  },
];

function runLifecycle(driver: HiveDriver, verb: HiveLifecycleVerb, name: string): Promise<void> {
  switch (verb) {
    case 'start':
      return driver.startAgent(name);
    case 'kill':
      return driver.stopAgent(name);
    case 'restart':
      return driver.restartAgent(name);
    case 'update':
      return driver.updateAgent(name);
    default: {
      const _exhaustive: never = verb;
      return _exhaustive;
    }
  }
}

export function registerHiveCommands(ctx: CommandContext): vscode.Disposable[] {
  const documents = new HiveDocuments((id) => hiveDriverOf(ctx, id));
  const connectionName = (id: string): string => ctx.store.state.connections.get(id)?.name ?? id;

  const lifecycle = LIFECYCLE.map((spec) =>
    vscode.commands.registerCommand(spec.id, async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const agent = await resolveAgent(ctx, target, spec.placeHolder, (a, driver) => driver.hasManager && spec.eligible(a));
      if (!agent) {
        return false;
      }
      if (!agent.driver.hasManager) {
        void vscode.window.showWarningMessage(`${connectionName(agent.connectionId)}: this needs the hive manager's socket, which is not available.`);
        return false;
      }
      if (agent.driver.isManagerRun(agent.name)) {
        void vscode.window.showWarningMessage('The manager cannot start, stop, restart or update itself from here.');
        return false;
      }
      if (spec.confirm && !(await confirmModal(args, spec.confirm.message.replace('{name}', agent.name), spec.confirm.detail, spec.confirm.button))) {
        return false;
      }
      try {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `${spec.progress} hive agent ${agent.name}…` },
          () => runLifecycle(agent.driver, spec.verb, agent.name),
        );
        void vscode.window.setStatusBarMessage(`Hive agent ${agent.name} ${spec.done}.`, 5000);
        return true;
      } catch (error) {
        ctx.log.error(`${spec.verb} ${agent.name}: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`Could not ${spec.verb === 'kill' ? 'stop' : spec.verb} ${agent.name}: ${errorText(error)}`);
        return false;
      }
    }),
  );

  const showDocument = async (uri: vscode.Uri, what: string): Promise<boolean> => {
    try {
      await documents.show(uri);
      return true;
    } catch (error) {
      ctx.log.warn(`${what}: ${errorText(error)}`);
      void vscode.window.showErrorMessage(`${what} is not available: ${errorText(error)}`);
      return false;
    }
  };

  return [
    documents,
    ...lifecycle,
    vscode.commands.registerCommand('agentSwitchboard.hive.showLogs', async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const agent = await resolveAgent(ctx, target, 'Show the logs of which hive agent?', (a, driver) => driver.hasManager && !a.isManager);
      if (!agent) {
        return false;
      }
      const uri = documents.uriFor({ kind: 'logs', connectionId: agent.connectionId, agent: agent.name, lines: args.lines ?? 500 }, connectionName(agent.connectionId));
      return showDocument(uri, `The log of ${agent.name}`);
    }),
    vscode.commands.registerCommand('agentSwitchboard.hive.showHostJournal', async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const hive = await resolveHive(ctx, target, false);
      if (!hive) {
        return false;
      }
      const via = target !== null && typeof target === 'object' && 'type' in target && target.type === 'run' && 'key' in target ? ctx.store.state.runs.get(String(target.key))?.runId : undefined;
      const query = { ...(args.unit ? { unit: args.unit } : {}), ...(args.priority ? { priority: args.priority } : {}), ...(args.grep ? { grep: args.grep } : {}) };
      const uri = documents.uriFor(
        { kind: 'journal', connectionId: hive.connectionId, ...(via !== undefined ? { agent: via } : {}), lines: Math.min(args.lines ?? 100, 100), query },
        connectionName(hive.connectionId),
      );
      return showDocument(uri, 'The host journal (it needs the manager socket or the capability read_host_journal)');
    }),
    vscode.commands.registerCommand('agentSwitchboard.hive.refreshDocument', async (uri?: unknown) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target || target.scheme !== HIVE_DOCUMENT_SCHEME) {
        return false;
      }
      try {
        await documents.load(target);
        return true;
      } catch (error) {
        void vscode.window.showErrorMessage(`Refresh failed: ${errorText(error)}`);
        return false;
      }
    }),
    ...registerHiveScheduleCommands(ctx),
  ];
}

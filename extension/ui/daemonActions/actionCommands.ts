/**
 * Registers one VS Code command per declared daemon action (the daemon registry) and runs it the same way for
 * every daemon: resolve the target, ask the declared inputs (and any the driver adds), perform it through the
 * driver, show the result. A command resolves `false` when nothing was done (cancelled, declined, failed), the
 * run key for a result that opens a run, and otherwise the result's value or `true` — what tests and automation
 * check. The second argument answers the inputs by name (`automationAnswers`).
 */
import * as vscode from 'vscode';
import type { RegisteredAction } from '../../drivers/daemonRegistry';
import { registeredActions } from '../../drivers/daemonRegistry';
import type { ActionAnswers, ActionResult } from '../../drivers/kit/daemonActions';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RunKey } from '../../model/runKeys';
import { runKeyOf } from '../../model/runKeys';
import type { RunStore } from '../../model/runStore';
import { errorText } from '../commands/commandContext';
import { Disposable } from '../disposable';
import type { RunControl } from '../runControl';
import type { RunSelection } from '../runSelection';
import { sanitizeNotificationText } from '../notificationText';
import { ActionDocuments } from './actionDocuments';
import { ActionStatusBars } from './actionStatusBars';
import type { TemplateValues } from './actionInputs';
import { askInput, automationAnswers, confirmModal, fillTemplate, needsAsking } from './actionInputs';
import type { ResolvedTarget } from './actionTargets';
import { resolveTarget } from './actionTargets';

/** Asked inputs beyond the declared ones are bounded: a driver that keeps asking is a bug, not a dialogue. */
const MAX_DRIVER_INPUTS = 12;

class ActionRun {
  constructor(
    private readonly actions: DaemonActions,
    private readonly entry: RegisteredAction,
    private readonly resolved: ResolvedTarget,
  ) {}

  private get values(): TemplateValues {
    const run = this.resolved.run;
    return { connection: this.resolved.connectionName, ...(run ? { title: run.title, runId: run.runId } : {}) };
  }

  private get driver() {
    return this.actions.connections.driver(this.resolved.target.connectionId);
  }

  /** Asks what is not answered yet; `undefined` when the user cancelled. */
  async collect(given: ActionAnswers): Promise<ActionAnswers | undefined> {
    let answers: ActionAnswers = given;
    for (const input of this.entry.action.inputs ?? []) {
      if (needsAsking(input, answers)) {
        const answer = await askInput(input, this.values, answers);
        if (answer === undefined) {
          return undefined;
        }
        answers = { ...answers, [input.name]: answer };
      }
    }
    for (let asked = 0; asked < MAX_DRIVER_INPUTS; asked++) {
      const next = await this.driver?.nextActionInput?.(this.entry.action.command, this.resolved.target, answers);
      if (!next) {
        return answers;
      }
      if (!needsAsking(next, answers)) {
        // Answered by automation (or a confirmation it skipped): mark it so the driver moves on.
        answers = { ...answers, [next.name]: answers[next.name] ?? true };
        continue;
      }
      const answer = await askInput(next, this.values, answers);
      if (answer === undefined) {
        return undefined;
      }
      answers = { ...answers, [next.name]: answer };
    }
    throw new Error(`"${this.entry.action.title}" kept asking for more input.`);
  }

  async perform(answers: ActionAnswers): Promise<ActionResult> {
    const driver = this.driver;
    if (!driver?.performAction) {
      throw new Error(`${this.resolved.connectionName} is not connected.`);
    }
    const progress = this.entry.action.progress;
    const run = (): Promise<ActionResult> => driver.performAction!(this.entry.action.command, this.resolved.target, answers);
    return progress
      ? vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: fillTemplate(progress, this.values, answers) }, run)
      : run();
  }

  /** Shows the result; returns what the command resolves. */
  async show(result: ActionResult, answers: ActionAnswers): Promise<unknown> {
    const { target } = this.resolved;
    switch (result.kind) {
      case 'done':
        if (result.status) {
          vscode.window.setStatusBarMessage(sanitizeNotificationText(result.status, 200), 5000);
        }
        if (result.message) {
          void vscode.window.showInformationMessage(result.message);
        }
        return result.value ?? true;
      case 'declined':
        void vscode.window.showInformationMessage(result.message);
        return false;
      case 'openRun': {
        const runKey = runKeyOf(target.connectionId, result.runId);
        await this.actions.runs.show(runKey);
        if (result.message) {
          void vscode.window.showInformationMessage(result.message);
        }
        return runKey;
      }
      case 'document': {
        const origin = { command: this.entry.action.command, target, answers };
        this.actions.statusBars.noteResult(origin.command, target.connectionId, result.summary);
        const uri = this.actions.documents.uriFor(origin, this.resolved.connectionName, result.name);
        await this.actions.documents.show(uri, origin, result.language, result.content, result.preview === true);
        return true;
      }
      case 'confirmFirst': {
        if (answers.confirmed !== true && !(await confirmModal(result.message, result.detail, result.button))) {
          return false;
        }
        const next = { ...answers, ...result.answers };
        return this.show(await this.perform(next), next);
      }
      default: {
        const exhaustive: never = result;
        return exhaustive;
      }
    }
  }
}

/**
 * The daemons' own actions (the registry's), performed the same way for every daemon and every surface: a command
 * of the palette or a menu, a status bar item, the transcript header's buttons.
 */
export class DaemonActions extends Disposable {
  /** Read-only documents the actions' results are shown in (Refresh performs the action again). */
  readonly documents = this._register(new ActionDocuments());
  readonly statusBars: ActionStatusBars;
  private readonly actedEmitter = this._register(new vscode.EventEmitter<RunKey>());
  /** A run-scoped action was carried out on this run (Continue in a New Run…): the user acted on it. */
  readonly onDidActOnRun = this.actedEmitter.event;

  constructor(
    private readonly store: RunStore,
    readonly connections: ConnectionManager,
    private readonly selection: RunSelection,
    readonly runs: RunControl,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.statusBars = this._register(new ActionStatusBars(store, connections, log));
  }

  /**
   * Performs `entry` on `given` (a tree node, run key or connection id; else the selected run or a pick), asking
   * what `rawAnswers` does not answer. Resolves what the command resolves (see the top of this file).
   */
  async perform(entry: RegisteredAction, given: unknown, rawAnswers?: unknown): Promise<unknown> {
    const resolved = await resolveTarget(entry, given, this.store.state, this.connections, this.selection.runKey);
    if (!resolved) {
      return false;
    }
    const run = new ActionRun(this, entry, resolved);
    try {
      const answers = await run.collect(automationAnswers(rawAnswers, entry.action.inputs ?? []));
      if (!answers) {
        return false;
      }
      const result = await run.perform(answers);
      if (resolved.target.runId !== undefined && entry.action.scope === 'run') {
        this.actedEmitter.fire(runKeyOf(resolved.target.connectionId, resolved.target.runId));
      }
      return await run.show(result, answers);
    } catch (error) {
      this.log.error(`${entry.action.title} (${resolved.connectionName}): ${errorText(error)}`);
      void vscode.window.showErrorMessage(`${entry.action.failure}: ${errorText(error)}`);
      return false;
    }
  }

  /** Performs the action whose command is `command` on a run (the transcript header's buttons). */
  async performOnRun(command: string, runKey: RunKey): Promise<unknown> {
    const entry = registeredActions().find((e) => e.action.command === command);
    if (!entry) {
      throw new Error('That action is not known.');
    }
    return this.perform(entry, runKey);
  }

  /** Performs the action behind a document again and shows the new content in place. */
  async refreshDocument(uri: unknown): Promise<boolean> {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    const origin = target ? this.documents.originOf(target) : undefined;
    const driver = origin ? this.connections.driver(origin.target.connectionId) : undefined;
    if (!target || !origin) {
      return false;
    }
    try {
      if (!driver?.performAction) {
        throw new Error('Its connection is not connected.');
      }
      const result = await driver.performAction(origin.command, origin.target, origin.answers);
      if (result.kind !== 'document') {
        throw new Error('The daemon gave no document this time.');
      }
      this.statusBars.noteResult(origin.command, origin.target.connectionId, result.summary);
      this.documents.update(target, origin, result.content);
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(`Refresh failed: ${errorText(error)}`);
      return false;
    }
  }
}

/** One command per declared action, and Refresh of an action's document. */
export function registerDaemonActionCommands(actions: DaemonActions): vscode.Disposable[] {
  return [
    ...registeredActions().map((entry) =>
      vscode.commands.registerCommand(entry.action.command, (target?: unknown, answers?: unknown) => actions.perform(entry, target, answers)),
    ),
    vscode.commands.registerCommand('agentSwitchboard.refreshDocument', (uri?: unknown) => actions.refreshDocument(uri)),
  ];
}

/**
 * Shows what drivers offer by themselves (`Driver.onOffer`: SCV's leftover prompts, AgencyProxy's runs lost to a
 * daemon restart) as one notification per offer id; each button runs the declared action it names, so an offer
 * goes through the same target checks, inputs and error reporting as the palette.
 */
import * as vscode from 'vscode';
import { registeredActions } from '../../drivers/daemonRegistry';
import type { Driver } from '../../drivers/driver';
import type { ActionOffer } from '../../drivers/kit/daemonActions';
import type { ModelState } from '../../model/modelTypes';
import { mapChanges } from '../../model/persistentMap';
import type { CommandContext } from '../commands/commandContext';
import { fillTemplate } from './actionInputs';
import { targetArgument } from './actionTargets';

function show(offer: ActionOffer): void {
  const labels = offer.choices.map((c) => c.label);
  const ask = offer.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void ask(offer.message, ...labels).then((label) => {
    const choice = offer.choices.find((c) => c.label === label);
    if (choice) {
      void vscode.commands.executeCommand(choice.command, targetArgument(choice.target), choice.answers ?? {});
    }
  });
}

/** Watches every driver as connections appear (drivers are created lazily) and shows each offer once. */
export function watchActionOffers(ctx: CommandContext): vscode.Disposable {
  const watched = new WeakSet<Driver>();
  const shown = new Set<string>();
  const listeners: { dispose(): void }[] = [];
  const scan = (): void => {
    for (const connection of ctx.store.state.connections.values()) {
      const driver = ctx.connections.driver(connection.id);
      if (driver?.onOffer && !watched.has(driver)) {
        watched.add(driver);
        const once = (offer: ActionOffer): void => {
          if (!shown.has(offer.id)) {
            shown.add(offer.id);
            show(offer);
          }
        };
        listeners.push(driver.onOffer(once));
        driver.openOffers?.().forEach(once);
      }
    }
  };
  const onChange = ctx.store.onDidChange(scan);
  scan();
  return new vscode.Disposable(() => {
    onChange.dispose();
    for (const listener of listeners) {
      listener.dispose();
    }
  });
}

/**
 * Declared run offers (`DaemonAction.offer`): when a run of the action's daemon enters the named state in this
 * window, offer the action once. A run restored in that state after a reload was already offered in its window.
 */
export function watchRunStateOffers(ctx: CommandContext): vscode.Disposable {
  const offers = registeredActions().filter((e) => e.action.offer !== undefined);
  const offered = new Set<string>();
  // The runs as the last check saw them: a check looks only at the runs changed since (not every stored run).
  let seen = ctx.store.state.runs;
  const check = (state: ModelState): void => {
    const changes = mapChanges(state.runs, seen);
    seen = state.runs;
    for (const { value: run, previous } of changes) {
      if (!run || !previous || previous.state === run.state) {
        continue;
      }
      const protocol = state.connections.get(run.connectionId)?.protocol;
      for (const { protocol: daemon, action } of offers) {
        const key = `${action.command} ${run.key}`;
        if (daemon !== protocol || action.offer!.runBecomes !== run.state || offered.has(key)) {
          continue;
        }
        offered.add(key);
        const message = fillTemplate(action.offer!.message, { title: run.title, runId: run.runId, connection: state.connections.get(run.connectionId)?.name ?? '' }, {});
        show({ id: key, level: 'warning', message, choices: [{ label: action.title, command: action.command, target: { connectionId: run.connectionId, runId: run.runId } }] });
      }
    }
  };
  return ctx.store.onDidChange(check);
}

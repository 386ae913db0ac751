/**
 * The agents' questions waiting for an answer (Driver.elicitations: ACP `elicitation/create`), counted by run for the
 * board: a run whose agent waits for the person's input belongs under *Needs you* although its state is "running".
 * The questions live with each driver (they go with the agent process), so the board asks the drivers, and is told
 * when one arrives or settles.
 */
import * as vscode from 'vscode';
import type { ElicitationSource } from '../../drivers/kit/elicitationForms';
import { runKeyOf } from '../../model/modelTypes';
import type { CommandContext } from '../commands/commandContext';

export interface QuestionCounts {
  /** Questions of the run's agent waiting for the person. */
  count(runKey: string): number;
  /** A question arrived or settled somewhere. */
  readonly onDidChange: vscode.Event<void>;
}

export class BoardQuestions implements QuestionCounts, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly watched = new WeakSet<ElicitationSource>();
  private readonly listeners: { dispose(): void }[] = [this.changed];

  constructor(private readonly ctx: Pick<CommandContext, 'store' | 'connections'>) {
    // Drivers are created lazily, as connections appear.
    this.listeners.push(ctx.store.onDidChange(() => this.watch()));
    this.watch();
  }

  count(runKey: string): number {
    let waiting = 0;
    for (const source of this.sources()) {
      waiting += source.waiting().filter((ask) => ask.runId !== undefined && runKeyOf(ask.connectionId, ask.runId) === runKey).length;
    }
    return waiting;
  }

  private *sources(): Generator<ElicitationSource> {
    for (const connection of this.ctx.store.state.connections.values()) {
      const source = this.ctx.connections.driver(connection.id)?.elicitations;
      if (source) {
        yield source;
      }
    }
  }

  private watch(): void {
    for (const source of this.sources()) {
      if (!this.watched.has(source)) {
        this.watched.add(source);
        this.listeners.push(source.onAsk(() => this.changed.fire()), source.onSettle(() => this.changed.fire()));
      }
    }
  }

  dispose(): void {
    this.listeners.splice(0).forEach((l) => l.dispose());
  }
}

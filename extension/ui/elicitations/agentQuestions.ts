/**
 * What agents ask the user (Driver.elicitations: ACP `elicitation/create`), answered with native input. A question
 * of the run in focus (its transcript shown in the focused window) opens at once; any other comes as a notification
 * whose *Answer…* opens it (and *Decline* refuses it). A page the agent wants opened is shown as its full address
 * and opened only when the user clicks *Open Page* — never by itself, and only http(s) (the driver refuses others).
 * *Answer Agent Question…* in the palette lists what still waits. A question the agent stops waiting for closes.
 */
import * as vscode from 'vscode';
import type { Driver } from '../../drivers/driver';
import type { ElicitationAsk, ElicitationSource } from '../../drivers/kit/elicitationForms';
import { runKeyOf } from '../../model/runKeys';
import { visibleExcerpt, visibleText } from '../../protocol/visibleText';
import type { CommandContext } from '../commands/commandContext';
import { askForm } from './elicitationInput';

interface Waiting {
  readonly ask: ElicitationAsk;
  readonly source: ElicitationSource;
  /** Closes the open input step, if the question is being answered now. */
  readonly closer: { close?: () => void };
  answering: boolean;
}

export class AgentQuestions implements vscode.Disposable {
  private readonly waiting = new Map<string, Waiting>();
  private readonly watched = new WeakSet<Driver>();
  private readonly listeners: { dispose(): void }[] = [];

  constructor(
    private readonly ctx: CommandContext,
    private readonly focus: { readonly focused: boolean },
  ) {
    this.listeners.push(ctx.store.onDidChange(() => this.scan()));
    this.listeners.push(vscode.commands.registerCommand('agentSwitchboard.answerAgentQuestion', (id?: unknown) => this.answerFromPalette(typeof id === 'string' ? id : undefined)));
    this.scan();
  }

  /** The questions waiting now (the integration tests read it). */
  pending(): readonly ElicitationAsk[] {
    return [...this.waiting.values()].map((w) => w.ask);
  }

  /** Watches each driver with questions as connections appear (drivers are created lazily). */
  private scan(): void {
    for (const connection of this.ctx.store.state.connections.values()) {
      const driver = this.ctx.connections.driver(connection.id);
      const source = driver?.elicitations;
      if (driver && source && !this.watched.has(driver)) {
        this.watched.add(driver);
        this.listeners.push(source.onAsk((ask) => this.arrived(ask, source)));
        this.listeners.push(source.onSettle((id) => this.settled(id)));
        source.waiting().forEach((ask) => this.arrived(ask, source));
      }
    }
  }

  private arrived(ask: ElicitationAsk, source: ElicitationSource): void {
    if (this.waiting.has(ask.id)) {
      return;
    }
    const entry: Waiting = { ask, source, closer: {}, answering: false };
    this.waiting.set(ask.id, entry);
    if (!ask.url && this.inFocus(ask)) {
      void this.answer(entry);
    } else {
      void this.notify(entry);
    }
  }

  private settled(id: string): void {
    const entry = this.waiting.get(id);
    this.waiting.delete(id);
    entry?.closer.close?.();
  }

  /** The question's run is what the user is looking at: its transcript shows it in the focused window. */
  private inFocus(ask: ElicitationAsk): boolean {
    if (!ask.runId || !this.focus.focused) {
      return false;
    }
    const key = runKeyOf(ask.connectionId, ask.runId);
    return this.ctx.transcript.isVisible && this.ctx.selection.runKey === key;
  }

  /** Who asks: the run's title on its agent, or the agent alone. */
  private asker(ask: ElicitationAsk): string {
    const connection = this.ctx.store.state.connections.get(ask.connectionId)?.name ?? 'The agent';
    const run = ask.runId ? this.ctx.store.state.runs.get(runKeyOf(ask.connectionId, ask.runId)) : undefined;
    return run ? `${connection} (${visibleExcerpt(run.title, 60)})` : connection;
  }

  private async notify(entry: Waiting): Promise<void> {
    const { ask } = entry;
    const who = this.asker(ask);
    if (ask.url) {
      // The whole address, hidden characters made visible: the user sees where the button goes before clicking.
      const choice = await vscode.window.showInformationMessage(`${who} asks you to open ${visibleText(ask.url)} — ${visibleExcerpt(ask.message, 300)}`, 'Open Page', 'Decline');
      if (!this.waiting.has(ask.id)) {
        return;
      }
      if (choice === 'Open Page') {
        await vscode.env.openExternal(vscode.Uri.parse(ask.url, true));
      }
      this.send(entry, choice === 'Open Page' ? { action: 'accept' } : choice === 'Decline' ? { action: 'decline' } : { action: 'cancel' });
      return;
    }
    const choice = await vscode.window.showInformationMessage(`${who} asks: ${visibleExcerpt(ask.message, 300)}`, 'Answer…', 'Decline');
    if (choice === 'Answer…') {
      await this.answer(entry);
    } else if (choice === 'Decline') {
      this.send(entry, { action: 'decline' });
    }
    // Closed without a choice: the question still waits (Answer Agent Question… in the palette finds it).
  }

  private async answer(entry: Waiting): Promise<void> {
    if (entry.answering || !this.waiting.has(entry.ask.id)) {
      return;
    }
    if (entry.ask.url) {
      return this.notify(entry);
    }
    entry.answering = true;
    try {
      const answer = await askForm(entry.ask, this.asker(entry.ask), entry.closer);
      if (this.waiting.has(entry.ask.id)) {
        this.send(entry, answer);
      }
    } finally {
      entry.answering = false;
      entry.closer.close = undefined;
    }
  }

  private send(entry: Waiting, answer: Parameters<ElicitationSource['answer']>[1]): void {
    this.waiting.delete(entry.ask.id);
    if (!entry.source.answer(entry.ask.id, answer)) {
      void vscode.window.showInformationMessage('The agent no longer waits for that answer.');
    }
  }

  private async answerFromPalette(id: string | undefined): Promise<void> {
    const open = [...this.waiting.values()];
    let entry = id !== undefined ? this.waiting.get(id) : open.length === 1 ? open[0] : undefined;
    if (!entry && id === undefined && open.length > 1) {
      const picked = await vscode.window.showQuickPick(
        open.map((w) => ({ label: visibleExcerpt(w.ask.message, 120), description: this.asker(w.ask), id: w.ask.id })),
        { title: 'Answer Agent Question', placeHolder: 'Which question?' },
      );
      entry = picked ? this.waiting.get(picked.id) : undefined;
    }
    if (!entry) {
      if (open.length === 0) {
        void vscode.window.showInformationMessage('No agent is waiting for an answer.');
      }
      return;
    }
    await this.answer(entry);
  }

  dispose(): void {
    for (const listener of this.listeners) {
      listener.dispose();
    }
    for (const entry of this.waiting.values()) {
      entry.closer.close?.();
    }
  }
}

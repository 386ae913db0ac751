/**
 * The question before a rewind writes files (issue #26), given to FileRewinds through `UserPrompts`: what the rewind
 * restores, and — per path — the preview's questions (changed since the run's last checkpoint, a protected path, an
 * ignored file in the way). The modal offers to restore them all, keep them all, or choose per file (a multi-select
 * pick: a checked path is restored). A test host answers with a function instead (ui/testHooks.ts).
 */
import * as vscode from 'vscode';
import type { RewindDecision, RewindQuestion } from '../../changeSets/rewindPreview';

export interface RewindAsk {
  /** "Rewind the files of “Fix the readme” to turn 1?" */
  readonly message: string;
  /** What will be written (counts, a few paths), and what cannot be undone otherwise. */
  readonly detail: string;
  /** The button that goes ahead ("Rewind", "Redo"). */
  readonly verb: string;
  readonly questions: readonly RewindQuestion[];
}

/** A decision for every question (an empty list when there were none), or undefined: do nothing. */
export type ConfirmRewind = (ask: RewindAsk) => Promise<readonly RewindDecision[] | undefined>;

const REASON_TEXT: Record<RewindQuestion['reason'], string> = {
  'changed since': 'changed since the run’s last checkpoint',
  protected: 'protected path',
  'ignored file': 'an ignored file is in its place',
};

/** One line per path asked about, its reasons joined (a path may be asked about for several). */
export function questionLines(questions: readonly RewindQuestion[]): { top: string; path: string; reasons: string }[] {
  const byPath = new Map<string, { top: string; path: string; reasons: string[] }>();
  for (const q of questions) {
    const key = `${q.top}\0${q.path}`;
    const entry = byPath.get(key) ?? { top: q.top, path: q.path, reasons: [] };
    if (!entry.reasons.includes(REASON_TEXT[q.reason])) {
      entry.reasons.push(REASON_TEXT[q.reason]);
    }
    byPath.set(key, entry);
  }
  return [...byPath.values()].map((e) => ({ top: e.top, path: e.path, reasons: e.reasons.join('; ') }));
}

const all = (questions: readonly RewindQuestion[], decision: RewindDecision['decision']): RewindDecision[] =>
  questionLines(questions).map((q) => ({ top: q.top, path: q.path, decision }));

export const modalConfirmRewind: ConfirmRewind = async (ask) => {
  if (ask.questions.length === 0) {
    return (await vscode.window.showWarningMessage(ask.message, { modal: true, detail: ask.detail }, ask.verb)) === ask.verb ? [] : undefined;
  }
  const lines = questionLines(ask.questions);
  const listed = lines.slice(0, 12).map((l) => `• ${l.path} — ${l.reasons}`);
  const detail = `${ask.detail}\n\nAsked about (${lines.length}):\n${listed.join('\n')}${lines.length > listed.length ? '\n…' : ''}`;
  const restoreAll = `${ask.verb}, Restore These Too`;
  const keepAll = `${ask.verb}, Keep These`;
  const choose = 'Choose per File…';
  const answer = await vscode.window.showWarningMessage(ask.message, { modal: true, detail }, restoreAll, keepAll, choose);
  if (answer === restoreAll) {
    return all(ask.questions, 'restore');
  }
  if (answer === keepAll) {
    return all(ask.questions, 'keep');
  }
  if (answer !== choose) {
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    lines.map((l) => ({ label: l.path, description: l.reasons, picked: false, line: l })),
    { canPickMany: true, title: `${ask.verb}: check the files to restore (the others are kept as they are)`, ignoreFocusOut: true },
  );
  if (picked === undefined) {
    return undefined;
  }
  const restore = new Set(picked.map((p) => p.line));
  return lines.map((l) => ({ top: l.top, path: l.path, decision: restore.has(l) ? 'restore' : 'keep' }));
};

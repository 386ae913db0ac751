/**
 * Asks what a declared action needs (kit/daemonActions.ts `ActionInput`): an input box, a quick pick or a modal
 * confirmation per input, with the texts' `{…}` placeholders filled in. Answers an automation caller passed are
 * used as they are and never asked for; `{ confirmed: true }` skips every confirmation.
 */
import * as vscode from 'vscode';
import type { ActionAnswers, ActionInput } from '../../drivers/kit/daemonActions';
import { sanitizeNotificationText } from '../notificationText';

/** What `{title}`, `{runId}` and `{connection}` stand for. */
export interface TemplateValues {
  readonly title?: string;
  readonly runId?: string;
  readonly connection: string;
}

/** Fills the placeholders; values are untrusted daemon data, so they are shortened and stripped of controls. */
export function fillTemplate(text: string, values: TemplateValues, answers: ActionAnswers): string {
  return text.replace(/\{(title|runId|connection|answer\.[A-Za-z0-9_]+)\}/g, (_match, key: string) => {
    const raw = key.startsWith('answer.') ? answers[key.slice('answer.'.length)] : values[key as keyof TemplateValues];
    return raw === undefined ? '' : sanitizeNotificationText(Array.isArray(raw) ? raw.join(', ') : String(raw), 80);
  });
}

/**
 * The second argument of an action command, as answers: `true` confirms, a string answers the first text input,
 * an object answers by name.
 */
export function automationAnswers(value: unknown, inputs: readonly ActionInput[]): ActionAnswers {
  if (value === true) {
    return { confirmed: true };
  }
  if (typeof value === 'string') {
    const first = inputs.find((i) => i.kind === 'text');
    return first ? { [first.name]: value } : {};
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as ActionAnswers) : {};
}

function validator(input: Extract<ActionInput, { kind: 'text' }>): ((value: string) => string | undefined) | undefined {
  const rule = input.validate;
  if (rule === 'positiveInt') {
    return (v) => ((input.optional && v.trim() === '') || /^[1-9]\d*$/.test(v.trim()) ? undefined : 'A whole number (at least 1)');
  }
  if (rule !== undefined) {
    const pattern = new RegExp(`^(?:${rule.pattern})$`);
    return (v) => ((input.optional && v === '') || pattern.test(v) ? undefined : rule.message);
  }
  return input.optional ? undefined : (v) => (v.trim() === '' ? 'This cannot be empty' : undefined);
}

/** Whether `input` is still to be asked given the answers so far. */
export function needsAsking(input: ActionInput, answers: ActionAnswers): boolean {
  if (input.kind === 'confirm') {
    if (input.onlyIf && answers[input.onlyIf.name] !== input.onlyIf.equals) {
      return false;
    }
    return answers.confirmed !== true && answers[input.name] !== true;
  }
  return answers[input.name] === undefined;
}

/**
 * Asks one input. Resolves the answer, or `undefined` when the user cancelled (or, for a confirmation, declined or
 * no dialog could be shown — a headless workbench refuses modals: then nothing happens).
 */
export async function askInput(input: ActionInput, values: TemplateValues, answers: ActionAnswers): Promise<ActionAnswers[string]> {
  const fill = (text: string): string => fillTemplate(text, values, answers);
  switch (input.kind) {
    case 'text': {
      const validateInput = validator(input);
      const value = await vscode.window.showInputBox({
        ...(input.title ? { title: fill(input.title) } : {}),
        prompt: fill(input.prompt),
        value: input.value !== undefined ? fill(input.value) : '',
        ignoreFocusOut: true,
        ...(validateInput ? { validateInput } : {}),
      });
      return value === undefined || (!input.optional && value.trim() === '') ? undefined : value;
    }
    case 'pick': {
      const items = input.choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, value: c.value }));
      const options = { placeHolder: fill(input.placeHolder), ...(input.title ? { title: fill(input.title) } : {}), matchOnDetail: true };
      if (input.many) {
        const picked = await vscode.window.showQuickPick(items, { ...options, canPickMany: true });
        return picked?.map((p) => p.value);
      }
      return (await vscode.window.showQuickPick(items, options))?.value;
    }
    case 'confirm':
      return confirmModal(fill(input.message), fill(input.detail), input.button);
    default: {
      const exhaustive: never = input;
      return exhaustive;
    }
  }
}

export async function confirmModal(message: string, detail: string, button: string): Promise<true | undefined> {
  try {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button ? true : undefined;
  } catch {
    return undefined;
  }
}

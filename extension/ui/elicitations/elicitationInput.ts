/**
 * An agent's question asked with VS Code's own input, field by field: a quick pick for a choice, several choices or
 * a yes/no, an input box for text and numbers, each answer checked against what the agent asked for
 * (kit/elicitationForms.ts) before the next step. Every step has a *Decline* button (the user refuses to answer);
 * Escape dismisses the question (`cancel`). The agent's texts are shown with hidden characters made visible.
 */
import * as vscode from 'vscode';
import type { ElicitationAnswer, ElicitationAsk, ElicitationField, ElicitationValue } from '../../drivers/kit/elicitationForms';
import { checkPicked, checkTyped } from '../../drivers/kit/elicitationForms';
import { visibleExcerpt } from '../../protocol/visibleText';

const DECLINE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: 'Decline: do not answer the agent' };
const SKIP = '$(dash) Skip';

/** What a step came to: a value (or none, for a skipped optional field), a decline, or a dismissal. */
type Step = { readonly value: ElicitationValue | undefined } | 'decline' | 'cancel';

interface PickItem extends vscode.QuickPickItem {
  readonly value?: ElicitationValue;
}

/** Asks the whole form; `closer` lets the caller close the open step when the agent stops waiting. */
export async function askForm(ask: ElicitationAsk, from: string, closer: { close?: () => void }): Promise<ElicitationAnswer> {
  const fields = ask.form?.fields ?? [];
  const content: Record<string, ElicitationValue> = {};
  for (const [i, field] of fields.entries()) {
    const title = `${from} asks (${i + 1}/${fields.length}): ${visibleExcerpt(ask.message, 160)}`;
    const step = await askField(field, title, closer);
    if (step === 'decline' || step === 'cancel') {
      return { action: step };
    }
    if (step.value !== undefined) {
      content[field.name] = step.value;
    }
  }
  return { action: 'accept', content };
}

function describe(field: ElicitationField): string {
  const what = field.description ? `${field.title} — ${field.description}` : field.title;
  // Claude Code's own descriptions already say "(optional)": not twice.
  return visibleExcerpt(`${what}${field.required || /\boptional\b/i.test(what) ? '' : ' (optional)'}`, 300);
}

function askField(field: ElicitationField, title: string, closer: { close?: () => void }): Promise<Step> {
  switch (field.kind) {
    case 'text':
    case 'number':
      return typed(field, title, closer);
    case 'boolean': {
      const items: PickItem[] = [{ label: 'Yes', value: true }, { label: 'No', value: false }];
      return picked(items, title, describe(field), field.required, field.default === undefined ? undefined : items[field.default ? 0 : 1], closer);
    }
    case 'choice': {
      const items: PickItem[] = field.options.map((o) => ({ label: visibleExcerpt(o.title, 120), ...(o.description ? { detail: visibleExcerpt(o.description, 300) } : {}), value: o.value }));
      return picked(items, title, describe(field), field.required, items.find((item) => item.value === field.default), closer);
    }
    case 'choices':
      return pickedMany(field, title, closer);
    default: {
      const _exhaustive: never = field;
      return _exhaustive;
    }
  }
}

/** Runs one quick input until it settles; Escape or the agent giving up settles it as `cancel`. */
function settleWith<T extends vscode.QuickInput>(input: T, closer: { close?: () => void }, wire: (done: (step: Step) => void) => void): Promise<Step> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (step: Step): void => {
      if (!settled) {
        settled = true;
        resolve(step);
        input.dispose();
      }
    };
    wire(done);
    input.onDidHide(() => done('cancel'));
    closer.close = () => done('cancel');
    input.show();
  });
}

function typed(field: Extract<ElicitationField, { kind: 'text' | 'number' }>, title: string, closer: { close?: () => void }): Promise<Step> {
  const box = vscode.window.createInputBox();
  box.title = title;
  box.prompt = describe(field);
  box.placeholder = field.kind === 'number' ? (field.integer ? 'A whole number' : 'A number') : field.required ? '' : 'Leave empty to skip';
  box.value = field.default !== undefined ? String(field.default) : '';
  box.ignoreFocusOut = true;
  box.buttons = [DECLINE];
  return settleWith(box, closer, (done) => {
    box.onDidChangeValue((value) => {
      const checked = checkTyped(field, value);
      box.validationMessage = checked.ok ? undefined : checked.message;
    });
    box.onDidTriggerButton(() => done('decline'));
    box.onDidAccept(() => {
      const checked = checkTyped(field, box.value);
      if (checked.ok) {
        done({ value: checked.value });
      } else {
        box.validationMessage = checked.message;
      }
    });
  });
}

function picked(items: PickItem[], title: string, placeholder: string, required: boolean, active: PickItem | undefined, closer: { close?: () => void }): Promise<Step> {
  const pick = vscode.window.createQuickPick<PickItem>();
  pick.title = title;
  pick.placeholder = placeholder;
  pick.items = required ? items : [...items, { label: SKIP }];
  if (active) {
    pick.activeItems = [active];
  }
  pick.ignoreFocusOut = true;
  pick.buttons = [DECLINE];
  return settleWith(pick, closer, (done) => {
    pick.onDidTriggerButton(() => done('decline'));
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      if (chosen) {
        done({ value: chosen.value });
      }
    });
  });
}

function pickedMany(field: Extract<ElicitationField, { kind: 'choices' }>, title: string, closer: { close?: () => void }): Promise<Step> {
  const pick = vscode.window.createQuickPick<PickItem>();
  pick.title = title;
  pick.placeholder = describe(field);
  pick.canSelectMany = true;
  pick.items = field.options.map((o) => ({ label: visibleExcerpt(o.title, 120), ...(o.description ? { detail: visibleExcerpt(o.description, 300) } : {}), value: o.value }));
  pick.selectedItems = pick.items.filter((item) => field.default?.includes(String(item.value)));
  pick.ignoreFocusOut = true;
  pick.buttons = [DECLINE];
  return settleWith(pick, closer, (done) => {
    pick.onDidTriggerButton(() => done('decline'));
    pick.onDidAccept(() => {
      const checked = checkPicked(field, pick.selectedItems.map((item) => String(item.value)));
      if (checked.ok) {
        done({ value: checked.value });
      } else {
        pick.placeholder = `${checked.message} ${describe(field)}`;
      }
    });
  });
}

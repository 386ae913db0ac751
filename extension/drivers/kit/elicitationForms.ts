/**
 * What an agent asks the user for (ACP `elicitation/create`, after MCP's elicitation): a form of flat fields, or a
 * page to open. Drivers turn their requests into an `ElicitationAsk`; the UI (ui/elicitations) asks with native
 * input — a quick pick for a choice or a yes/no, an input box for text and numbers — and every typed answer is
 * checked here against what the agent asked for before it is sent. Pure. The agent's texts are untrusted.
 */
import type { Event } from '../../base/emitter';

export type ElicitationValue = string | number | boolean | readonly string[];

export interface ElicitationOption {
  readonly value: string;
  readonly title: string;
  readonly description?: string;
}

interface FieldBase {
  readonly name: string;
  /** The field's title, or its name. */
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

export type ElicitationField =
  | (FieldBase & { readonly kind: 'text'; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly format?: string })
  | (FieldBase & { readonly kind: 'number'; readonly integer: boolean; readonly default?: number; readonly minimum?: number; readonly maximum?: number })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & { readonly kind: 'choice'; readonly options: readonly ElicitationOption[]; readonly default?: string })
  | (FieldBase & { readonly kind: 'choices'; readonly options: readonly ElicitationOption[]; readonly default?: readonly string[]; readonly minItems?: number; readonly maxItems?: number });

/** One question of an agent, waiting for the user. */
export interface ElicitationAsk {
  /** Unique in the window while it waits. */
  readonly id: string;
  readonly connectionId: string;
  /** The run it belongs to (absent: asked outside a session, e.g. while signing in). */
  readonly runId?: string;
  /** The agent's words: what it needs and why. */
  readonly message: string;
  /** A form: answered field by field. */
  readonly form?: { readonly title?: string; readonly fields: readonly ElicitationField[] };
  /** A page the agent wants the user to open (never opened without the user's click). http(s) only. */
  readonly url?: string;
}

export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, ElicitationValue>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** A driver's questions (Driver.elicitations). */
export interface ElicitationSource {
  /** A new question. */
  readonly onAsk: Event<ElicitationAsk>;
  /** A question no longer waits (answered, or the agent gave up on it): its id. */
  readonly onSettle: Event<string>;
  /** The questions waiting now. */
  waiting(): readonly ElicitationAsk[];
  /** Sends the user's answer; false when the question no longer waits. */
  answer(id: string, answer: ElicitationAnswer): boolean;
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** `raw` typed into a text or number field, checked against what the agent asked for (empty = no answer). */
export function checkTyped(field: Extract<ElicitationField, { kind: 'text' | 'number' }>, raw: string): Checked<string | number | undefined> {
  if (raw === '') {
    return field.required ? { ok: false, message: `${field.title} is required.` } : { ok: true, value: undefined };
  }
  if (field.kind === 'number') {
    const n = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(n)) {
      return { ok: false, message: 'Enter a number.' };
    }
    if (field.integer && !Number.isInteger(n)) {
      return { ok: false, message: 'Enter a whole number.' };
    }
    if (field.minimum !== undefined && n < field.minimum) {
      return { ok: false, message: `At least ${field.minimum}.` };
    }
    if (field.maximum !== undefined && n > field.maximum) {
      return { ok: false, message: `At most ${field.maximum}.` };
    }
    return { ok: true, value: n };
  }
  const length = [...raw].length;
  if (field.minLength !== undefined && length < field.minLength) {
    return { ok: false, message: `At least ${field.minLength} characters.` };
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return { ok: false, message: `At most ${field.maxLength} characters.` };
  }
  if (field.pattern !== undefined && !matchesWhole(field.pattern, raw)) {
    return { ok: false, message: `It must match ${field.pattern}.` };
  }
  const format = field.format ? formatProblem(field.format, raw) : undefined;
  return format ? { ok: false, message: format } : { ok: true, value: raw };
}

/** Picked values of a multi-select, checked against its bounds. */
export function checkPicked(field: Extract<ElicitationField, { kind: 'choices' }>, picked: readonly string[]): Checked<readonly string[] | undefined> {
  if (picked.length === 0 && !field.required && (field.minItems ?? 0) === 0) {
    return { ok: true, value: undefined };
  }
  if (field.minItems !== undefined && picked.length < field.minItems) {
    return { ok: false, message: `Pick at least ${field.minItems}.` };
  }
  if (field.maxItems !== undefined && picked.length > field.maxItems) {
    return { ok: false, message: `Pick at most ${field.maxItems}.` };
  }
  return picked.length === 0 && field.required ? { ok: false, message: `${field.title} is required.` } : { ok: true, value: picked };
}

function matchesWhole(pattern: string, text: string): boolean {
  try {
    // JSON Schema patterns are not anchored; an agent's pattern is its own: a broken one refuses nothing.
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

function formatProblem(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(text) ? undefined : 'Enter an email address.';
    case 'uri':
      return URL.canParse(text) ? undefined : 'Enter a URI (with its scheme).';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'Enter a date as YYYY-MM-DD.';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'Enter a date and time (ISO 8601).';
    default:
      return undefined;
  }
}

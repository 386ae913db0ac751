/**
 * ACP `elicitation/create` and `elicitation/complete` (advertised as `elicitation: { form, url }`): the agent asks
 * the user for structured input, or to open a page. Each request becomes an `ElicitationAsk` the UI answers with
 * native input (kit/elicitationForms.ts); the agent's request waits until the user answers, dismisses it, or the
 * turn it belongs to ends (then it is cancelled: nobody waits for it any more). A run's transcript records that the
 * agent asked and how it was answered (not the values: a form may hold what the user would not show). A form with
 * a field this client cannot show is cancelled at once, said in the transcript.
 */
import type {
  CompleteElicitationNotification,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationFormMode,
  ElicitationPropertySchema,
  ElicitationUrlMode,
} from '@agentclientprotocol/sdk/unstable';
import { Emitter } from '../../base/emitter';
import type { RunEvent } from '../../model/modelActions';
import type { ElicitationAnswer, ElicitationAsk, ElicitationField, ElicitationOption, ElicitationSource } from '../kit/elicitationForms';

interface Waiting {
  readonly ask: ElicitationAsk;
  readonly resolve: (response: CreateElicitationResponse) => void;
  /** The agent's id of a URL elicitation (what `elicitation/complete` names). */
  readonly elicitationId?: string;
}

export interface AcpElicitationDeps {
  readonly connectionId: string;
  /** Whether the session is one of this connection's runs. */
  knows(sessionId: string): boolean;
  /** Records a line in the run's transcript. */
  record(runId: string, event: RunEvent): void;
}

const ANSWERED: Record<ElicitationAnswer['action'], string> = {
  accept: 'You answered.',
  decline: 'You declined to answer.',
  cancel: 'The question was dismissed without an answer.',
};

export class AcpElicitations implements ElicitationSource {
  private readonly asks = new Emitter<ElicitationAsk>();
  private readonly settles = new Emitter<string>();
  readonly onAsk = this.asks.event;
  readonly onSettle = this.settles.event;
  private readonly open = new Map<string, Waiting>();
  private count = 0;

  constructor(private readonly deps: AcpElicitationDeps) {}

  /** An `elicitation/create`: resolves with the user's answer. */
  create(request: CreateElicitationRequest): Promise<CreateElicitationResponse> {
    // The SDK's schema checked the variant's payload; the union's catch-all (`mode: string`) keeps TypeScript from
    // narrowing by `mode`, so the known variants are read through their own types.
    const scoped = request as { readonly sessionId?: unknown };
    const runId = typeof scoped.sessionId === 'string' && this.deps.knows(scoped.sessionId) ? scoped.sessionId : undefined;
    const id = `${this.deps.connectionId}#elicitation-${++this.count}`;
    const base = { id, connectionId: this.deps.connectionId, message: request.message, ...(runId ? { runId } : {}) };
    let ask: ElicitationAsk;
    let elicitationId: string | undefined;
    const form = request.mode === 'form' ? (request as ElicitationFormMode) : undefined;
    const page = request.mode === 'url' ? (request as ElicitationUrlMode) : undefined;
    if (form?.requestedSchema) {
      const { fields, unsupported } = formFields(form.requestedSchema);
      if (unsupported.length > 0) {
        this.note(runId, `The agent asked for input this editor cannot show (${unsupported.join(', ')}): "${request.message}". It was told no answer was given.`, 'warning');
        return Promise.resolve({ action: 'cancel' });
      }
      ask = { ...base, form: { ...(form.requestedSchema.title ? { title: form.requestedSchema.title } : {}), fields } };
    } else if (page && typeof page.url === 'string' && isWebUrl(page.url)) {
      ask = { ...base, url: page.url };
      elicitationId = page.elicitationId;
    } else {
      this.note(runId, `The agent asked for input in a way this editor does not offer (${request.mode}): "${request.message}". It was told no answer was given.`, 'warning');
      return Promise.resolve({ action: 'cancel' });
    }
    this.note(runId, ask.url ? `The agent asks you to open a page: ${ask.url} — ${request.message}` : `The agent asks for your input: ${request.message}`, 'info');
    return new Promise((resolve) => {
      this.open.set(id, { ask, resolve, ...(elicitationId ? { elicitationId } : {}) });
      this.asks.fire(ask);
    });
  }

  /** `elicitation/complete`: the page was finished out of band; the question no longer waits. */
  complete(notification: CompleteElicitationNotification): void {
    for (const [id, waiting] of this.open) {
      if (waiting.elicitationId === notification.elicitationId) {
        this.settle(id, { action: 'cancel' }, 'The agent says the page was completed.');
      }
    }
  }

  waiting(): readonly ElicitationAsk[] {
    return [...this.open.values()].map((w) => w.ask);
  }

  answer(id: string, answer: ElicitationAnswer): boolean {
    return this.settle(id, answer, ANSWERED[answer.action]);
  }

  /** The turn of `runId` ended, or the agent went away (`runId` absent): its questions are cancelled. */
  cancelAll(runId?: string, why = 'The agent no longer waits for an answer.'): void {
    for (const [id, waiting] of this.open) {
      if (runId === undefined || waiting.ask.runId === runId) {
        this.settle(id, { action: 'cancel' }, why);
      }
    }
  }

  private settle(id: string, answer: ElicitationAnswer, said: string): boolean {
    const waiting = this.open.get(id);
    if (!waiting) {
      return false;
    }
    this.open.delete(id);
    waiting.resolve(answer.action === 'accept' ? { action: 'accept', ...(answer.content ? { content: { ...answer.content } as Record<string, string> } : {}) } : { action: answer.action });
    this.note(waiting.ask.runId, said, 'info');
    this.settles.fire(id);
    return true;
  }

  private note(runId: string | undefined, text: string, level: 'info' | 'warning'): void {
    if (runId) {
      this.deps.record(runId, { kind: 'notice', text, level });
    }
  }

  dispose(): void {
    this.cancelAll(undefined);
    this.asks.dispose();
    this.settles.dispose();
  }
}

/** Only pages on the web: a `file:`, `command:` or `vscode:` link is not something an agent may ask to open. */
function isWebUrl(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol);
}

/** The form's fields in the agent's order, and the names of those this client cannot show. */
export function formFields(schema: { readonly properties?: Readonly<Record<string, ElicitationPropertySchema>>; readonly required?: readonly string[] | null }): {
  fields: ElicitationField[];
  unsupported: string[];
} {
  const fields: ElicitationField[] = [];
  const unsupported: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = fieldOf(name, property, required.has(name));
    if (field) {
      fields.push(field);
    } else {
      unsupported.push(`${name}: ${String(property.type)}`);
    }
  }
  return { fields, unsupported };
}

function fieldOf(name: string, p: ElicitationPropertySchema, required: boolean): ElicitationField | undefined {
  const loose = p as Record<string, unknown>;
  const str = (k: string): string | undefined => (typeof loose[k] === 'string' ? (loose[k] as string) : undefined);
  const num = (k: string): number | undefined => (typeof loose[k] === 'number' ? (loose[k] as number) : undefined);
  const base = { name, title: str('title') ?? name, required, ...(str('description') ? { description: str('description')! } : {}) };
  switch (p.type) {
    case 'string': {
      const options = optionsOf(loose.oneOf, loose.enum);
      if (options) {
        return { ...base, kind: 'choice', options, ...(str('default') ? { default: str('default')! } : {}) };
      }
      const bounds = { minLength: num('minLength'), maxLength: num('maxLength'), pattern: str('pattern'), format: str('format'), default: str('default') };
      return { ...base, kind: 'text', ...definedOnly(bounds) };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', integer: p.type === 'integer', ...definedOnly({ minimum: num('minimum'), maximum: num('maximum'), default: num('default') }) };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof loose.default === 'boolean' ? { default: loose.default } : {}) };
    case 'array': {
      const items = (loose.items ?? {}) as Record<string, unknown>;
      const options = optionsOf(items.anyOf, items.enum);
      if (!options) {
        return undefined;
      }
      const defaults = Array.isArray(loose.default) ? loose.default.filter((d): d is string => typeof d === 'string') : undefined;
      return { ...base, kind: 'choices', options, ...definedOnly({ minItems: num('minItems'), maxItems: num('maxItems') }), ...(defaults ? { default: defaults } : {}) };
    }
    default:
      return undefined;
  }
}

function optionsOf(titled: unknown, plain: unknown): ElicitationOption[] | undefined {
  if (Array.isArray(titled) && titled.length > 0) {
    return titled
      .filter((o): o is { const: string; title?: unknown; description?: unknown } => typeof o === 'object' && o !== null && typeof (o as { const?: unknown }).const === 'string')
      .map((o) => ({ value: o.const, title: typeof o.title === 'string' ? o.title : o.const, ...(typeof o.description === 'string' ? { description: o.description } : {}) }));
  }
  if (Array.isArray(plain) && plain.length > 0) {
    return plain.filter((v): v is string => typeof v === 'string').map((v) => ({ value: v, title: v }));
  }
  return undefined;
}

function definedOnly<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/**
 * The mode and settings (the model, …) a person chose for an ACP session, and how they reach the agent. An agent
 * advertises its modes (`modes.availableModes`) and settings (`configOptions`) in each `session/new` and
 * `session/load` answer; "New Run…" offers only those, and the choices are sent right after `session/new`
 * (`session/set_mode`, `session/set_config_option`). A `session/load` answers the agent's defaults (claude-agent-acp
 * and codex-acp do), so a restored session gets the person's last choices again, kept with the session's stored
 * state. Whatever the agent does not offer or refuses is said — in the transcript and the log — never dropped.
 */
import { modeDetail } from './autonomousModes';
import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { DriverLog } from '../connectionManager';
import type { NewRunChoice, NewRunChoices } from '../driver';
import { errorText } from '../kit/errors';
import type { AcpSideEffects } from './acpEventMapping';
import type { AcpSession } from './acpSessions';

/** A person's choices for one session: its mode, and values of its settings by setting id. */
export interface AcpChosen {
  readonly modeId?: string;
  readonly config?: Readonly<Record<string, string>>;
}

type SelectOption = Extract<SessionConfigOption, { type: 'select' }>;

/** What the agent advertises for a session. */
export interface AcpAdvertised {
  readonly modes?: SessionModeState | undefined;
  readonly configOptions?: readonly SessionConfigOption[] | undefined;
}

/** The agent's side of changing them (the driver's connection). */
export interface AcpChoiceAgent {
  setMode(sessionId: string, modeId: string): Promise<unknown>;
  setConfigOption(sessionId: string, configId: string, value: string): Promise<unknown>;
}

/** The session's model setting: the select its agent files under category `model` (or names `model`). */
export function modelOption(configOptions: readonly SessionConfigOption[] | undefined): SelectOption | undefined {
  return configOptions?.find((o): o is SelectOption => o.type === 'select' && (o.category === 'model' || o.id === 'model'));
}

function selectValues(option: SelectOption): { value: string; name: string; description?: string | null }[] {
  return option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));
}

/**
 * What "New Run…" offers: the agent's models and modes, its current ones marked as the default — except that the
 * profile's start mode, when the agent offers it, is the default mode (what a run gets when nothing is picked).
 */
export function newRunChoicesOf(advertised: AcpAdvertised, startMode?: string): NewRunChoices {
  const model = modelOption(advertised.configOptions);
  const models: NewRunChoice[] = model
    ? selectValues(model).map((v) => ({ value: v.value, label: v.name, ...(v.description ? { detail: v.description } : {}), ...(v.value === model.currentValue ? { isDefault: true } : {}) }))
    : [];
  const modes = advertised.modes;
  const defaultMode = startMode !== undefined && modes?.availableModes.some((m) => m.id === startMode) ? startMode : modes?.currentModeId;
  const permissions: NewRunChoice[] = (modes?.availableModes ?? []).map((m) => ({ value: m.id, label: m.name, ...modeDetail(m), ...(m.id === defaultMode ? { isDefault: true } : {}) }));
  return { models, permissions };
}

/** The choices of "New Run…" (a model value, a mode id; '' or absent: the agent's default) as settings to send. */
export function chosenOf(advertised: AcpAdvertised, model: string | undefined, modeId: string | undefined): { chosen: AcpChosen; notices: string[] } {
  const notices: string[] = [];
  const option = modelOption(advertised.configOptions);
  const config: Record<string, string> = {};
  if (model) {
    if (option) {
      config[option.id] = model;
    } else {
      notices.push(`The agent offers no choice of model: the session runs on its default, not ${model}.`);
    }
  }
  return { chosen: { ...(modeId ? { modeId } : {}), ...(Object.keys(config).length > 0 ? { config } : {}) }, notices };
}

/** Reads `chosen` back from a session's stored extras (untrusted: anything odd is dropped). */
export function chosenFromExtra(extra: Readonly<Record<string, unknown>> | undefined): AcpChosen {
  const raw = extra?.chosen;
  if (raw === null || typeof raw !== 'object') {
    return {};
  }
  const { modeId, config } = raw as { modeId?: unknown; config?: unknown };
  const values = config !== null && typeof config === 'object' ? Object.entries(config).filter((e): e is [string, string] => typeof e[1] === 'string') : [];
  return { ...(typeof modeId === 'string' ? { modeId } : {}), ...(values.length > 0 ? { config: Object.fromEntries(values) } : {}) };
}

export interface AppliedChoices {
  /** What to show: the new mode and settings the agent confirmed. */
  readonly effects: AcpSideEffects;
  /** What could not be applied, and why. */
  readonly notices: readonly string[];
}

/**
 * Sends each choice the session's answer does not already have, if the agent advertises it. `when` names the moment
 * for the notices ("for the new session", "after the reload").
 */
export async function applyChosen(agent: AcpChoiceAgent, sessionId: string, advertised: AcpAdvertised, chosen: AcpChosen, when: string): Promise<AppliedChoices> {
  const notices: string[] = [];
  let modeId: string | undefined;
  let configOptions = advertised.configOptions;
  const modes = advertised.modes;
  if (chosen.modeId !== undefined && chosen.modeId !== modes?.currentModeId) {
    const mode = modes?.availableModes.find((m) => m.id === chosen.modeId);
    const current = modes?.availableModes.find((m) => m.id === modes.currentModeId)?.name;
    const fallback = current ? `it stays in ${current}` : 'it runs in its default mode';
    if (!mode) {
      notices.push(`The agent does not offer the mode "${chosen.modeId}" ${when}: ${fallback}.`);
    } else {
      try {
        await agent.setMode(sessionId, mode.id);
        modeId = mode.id;
      } catch (error) {
        notices.push(`The agent refused the mode ${mode.name} ${when} (${errorText(error)}): ${fallback}.`);
      }
    }
  }
  for (const [configId, value] of Object.entries(chosen.config ?? {})) {
    const option = configOptions?.find((o): o is SelectOption => o.type === 'select' && o.id === configId);
    if (option?.currentValue === value) {
      continue;
    }
    const offered = option ? selectValues(option).find((v) => v.value === value) : undefined;
    const name = option?.name ?? configId;
    if (!option || !offered) {
      notices.push(`The agent does not offer ${name} "${value}" ${when}: ${option ? `it stays ${String(option.currentValue)}` : 'its default stays'}.`);
      continue;
    }
    try {
      const answer = (await agent.setConfigOption(sessionId, configId, value)) as { configOptions?: SessionConfigOption[] } | undefined;
      configOptions = answer?.configOptions ?? configOptions?.map((o) => (o.id === configId && o.type === 'select' ? { ...o, currentValue: value } : o));
    } catch (error) {
      notices.push(`The agent refused ${name} ${offered.name} ${when} (${errorText(error)}): it stays ${String(option.currentValue)}.`);
    }
  }
  return { effects: { ...(modeId !== undefined ? { modeId } : {}), ...(configOptions !== advertised.configOptions && configOptions ? { configOptions } : {}) }, notices };
}

/** What `AcpSessionSettings` works with (the driver's parts). */
export interface AcpSessionSettingsDeps {
  agent(): AcpChoiceAgent;
  /** Shows the session's new mode and settings (the driver's side effects). */
  show(session: AcpSession, effects: AcpSideEffects): void;
  /** Keeps the session's stored state (its choices among it). */
  save(session: AcpSession): Promise<void>;
  /** Says what could not be applied in the session's transcript. */
  notice(session: AcpSession, text: string): Promise<void>;
  readonly log: DriverLog;
}

/** A session's mode and settings: changed by the person (remembered), and applied again after a load. */
export class AcpSessionSettings {
  constructor(private readonly deps: AcpSessionSettingsDeps) {}

  /** The mode the person picked (the header's action): sent now, remembered for after a reload. */
  async setMode(session: AcpSession, modeId: string): Promise<void> {
    await this.deps.agent().setMode(session.sessionId, modeId);
    this.deps.show(session, { modeId });
    await this.remember(session, { ...session.chosen, modeId });
  }

  /** A setting the person changed (e.g. the model): sent now, remembered for after a reload. */
  async setConfigOption(session: AcpSession, configId: string, value: string): Promise<void> {
    const isMode = session.configOptions?.find((o) => o.id === configId)?.category === 'mode' && session.modes?.availableModes.some((m) => m.id === value);
    const response = (await this.deps.agent().setConfigOption(session.sessionId, configId, value)) as { configOptions?: SessionConfigOption[] } | undefined;
    this.deps.show(session, { configOptions: response?.configOptions ?? session.configOptions ?? [] });
    // A mode set as a setting (claude-agent-acp offers its modes both ways) is the session's mode: one place to keep it.
    await this.remember(session, isMode ? { ...session.chosen, modeId: value } : { ...session.chosen, config: { ...session.chosen.config, [configId]: value } });
  }

  /**
   * The agent switched the session's mode itself (current_mode_update: e.g. Claude Code leaving Plan mode once the
   * person approved its plan): that is the mode the session is in, and the one it gets back after a reload.
   */
  followAgent(session: AcpSession, effects: AcpSideEffects): void {
    if (effects.modeId !== undefined && effects.modeId !== session.chosen.modeId) {
      void this.remember(session, { ...session.chosen, modeId: effects.modeId });
    }
  }

  /** "New Run…"'s model and mode for a session just created; `notices` are what was said already. */
  async applyNew(session: AcpSession, model: string | undefined, modeId: string | undefined): Promise<void> {
    const { chosen, notices } = chosenOf(session, model, modeId);
    await this.remember(session, chosen);
    await this.apply(session, notices, 'for the new session');
  }

  /** After `session/load` (which answers the agent's defaults), or a fork: the person's last choices again. */
  reapply(session: AcpSession, when = 'after the reload'): Promise<void> {
    // Shown as loaded first: the header says what the agent answered, then what was applied.
    this.deps.show(session, { configOptions: session.configOptions ?? [] });
    return this.apply(session, [], when);
  }

  private async apply(session: AcpSession, said: readonly string[], when: string): Promise<void> {
    const applied = await applyChosen(this.deps.agent(), session.sessionId, session, session.chosen, when);
    this.deps.show(session, applied.effects);
    for (const text of [...said, ...applied.notices]) {
      this.deps.log.warn(`Session ${session.sessionId}: ${text}`);
      await this.deps.notice(session, text);
    }
  }

  private remember(session: AcpSession, chosen: AcpChosen): Promise<void> {
    session.chosen = chosen;
    return this.deps.save(session);
  }
}

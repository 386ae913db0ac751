/**
 * How the hive driver carries out its declared actions (hiveActions.ts), and the questions that depend on the
 * daemon: the schedule list (pick one → fire / edit / cancel, or request a new one) and the agents a scheduled
 * prompt goes to. Answers arrive by name; automation passes the same names (`scheduleId`, `scheduleAction`,
 * `body`, `description`, `intervalSeconds`, `targets`, `lines`, `unit`, `priority`, `grep`, `name`, `inputs`).
 */
import type { Lenient, WireSchedule } from '../../protocol/hive';
import type { ActionAnswers, ActionChoice, ActionInput, ActionResult, ActionTarget } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { HostJournalQuery, ScheduleEdit } from './hiveClientOptions';
import { HIVE_FACT_AGENT, HIVE_FACT_RUNNING } from './hiveActions';
import type { HiveDriver } from './hiveDriver';

const H = 'agentSwitchboard.hive';
const APPROVED_ELSEWHERE = 'hyperhive decides it on the host admin side: approve or deny it on the dashboard (or host.sock). It cannot be approved from the editor.';

export function hiveFacts(driver: HiveDriver, runId?: string): readonly string[] {
  const agent = runId !== undefined ? driver.agents().find((a) => a.name === runId) : undefined;
  if (!agent || agent.isManager) {
    return [];
  }
  return agent.running ? [HIVE_FACT_AGENT, HIVE_FACT_RUNNING] : [HIVE_FACT_AGENT];
}

const text = (answers: ActionAnswers, name: string): string | undefined => {
  const v = answers[name];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};
const list = (value: ActionAnswers[string]): string[] =>
  Array.isArray(value) ? [...value] : typeof value === 'string' ? value.split(/[\s,]+/).filter((s) => s !== '') : [];
const seconds = (answers: ActionAnswers, name: string): number | undefined => {
  const v = text(answers, name)?.trim();
  return v ? Number(v) : undefined;
};

function every(s: number | null | undefined): string | undefined {
  if (s === undefined || s === null) {
    return undefined;
  }
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['min', 60]] as const) {
    if (s >= size && s % size === 0) {
      return `every ${s / size} ${unit}`;
    }
  }
  return `every ${s} s`;
}

function scheduleChoice(item: Lenient<WireSchedule>, index: number): ActionChoice {
  if (!item.ok) {
    return { value: `unknown:${index}`, label: '$(json) Schedule of an unknown shape', detail: JSON.stringify(item.raw).slice(0, 300) };
  }
  const s = item.value;
  const next = s.next_fire_at_unix ? `next ${new Date(s.next_fire_at_unix * 1000).toLocaleString()}` : undefined;
  const detail = [s.description, s.targets && s.targets.length > 0 ? `→ ${s.targets.join(', ')}` : undefined].filter(Boolean).join(' · ');
  return { value: String(s.id), label: `#${s.id} ${s.body ?? ''}`.trim(), description: [every(s.interval_seconds), next].filter(Boolean).join(' · '), ...(detail ? { detail } : {}) };
}

/** The schedule lists read during a flow, so its later questions can show the chosen schedule's values. */
const readSchedules = new WeakMap<HiveDriver, Lenient<WireSchedule>[]>();

async function chosenSchedule(driver: HiveDriver, answers: ActionAnswers): Promise<WireSchedule> {
  const id = text(answers, 'scheduleId');
  const known = readSchedules.get(driver) ?? (await driver.listSchedules());
  const found = known.find((s): s is { readonly ok: true; readonly value: WireSchedule } => s.ok && String(s.value.id) === id);
  if (!found) {
    throw new DriverError(`There is no schedule #${id ?? '?'}.`);
  }
  return found.value;
}

/** The questions of "request a scheduled prompt", in order (also the schedule list's "new" choice). */
function schedulePromptInput(driver: HiveDriver, answers: ActionAnswers): ActionInput | undefined {
  const step = (n: number): string => `Request a scheduled prompt (${n}/4)`;
  if (answers.body === undefined) {
    return { kind: 'text', name: 'body', title: step(1), prompt: 'Prompt text' };
  }
  if (answers.intervalSeconds === undefined) {
    return { kind: 'text', name: 'intervalSeconds', title: step(2), prompt: 'Repeat every N seconds (empty = once)', optional: true, validate: 'positiveInt' };
  }
  if (answers.targets === undefined) {
    const choices = driver.agents().filter((a) => !a.isManager).map((a) => ({ value: a.name, label: a.name }));
    return { kind: 'pick', name: 'targets', title: step(3), placeHolder: 'Send it to which agents?', choices, many: true };
  }
  if (answers.description === undefined) {
    return { kind: 'text', name: 'description', title: step(4), prompt: 'Description (optional)', optional: true };
  }
  return undefined;
}

async function schedulesInput(driver: HiveDriver, answers: ActionAnswers): Promise<ActionInput | undefined> {
  if (answers.scheduleId === undefined) {
    const schedules = await driver.listSchedules();
    readSchedules.set(driver, schedules);
    const n = schedules.length;
    return {
      kind: 'pick',
      name: 'scheduleId',
      placeHolder: `${n} schedule${n === 1 ? '' : 's'} — pick one to fire, edit or cancel`,
      choices: [...schedules.map(scheduleChoice), { value: 'new', label: '$(add) Request a new scheduled prompt…' }],
    };
  }
  const id = text(answers, 'scheduleId') ?? '';
  if (id === 'new') {
    return schedulePromptInput(driver, answers);
  }
  if (id.startsWith('unknown:')) {
    return undefined; // performed as "cannot be changed from here"
  }
  const schedule = await chosenSchedule(driver, answers);
  if (answers.scheduleAction === undefined) {
    return {
      kind: 'pick',
      name: 'scheduleAction',
      placeHolder: `Schedule #${schedule.id}: ${schedule.body ?? ''}`,
      choices: [
        { value: 'fire', label: '$(play) Fire now' },
        { value: 'edit', label: '$(edit) Edit…', description: 'body, description, interval' },
        { value: 'cancel', label: '$(trash) Cancel schedule…' },
      ],
    };
  }
  const title = (n: number): string => `Edit schedule #${schedule.id} (${n}/3)`;
  if (answers.scheduleAction === 'edit') {
    if (answers.body === undefined) {
      return { kind: 'text', name: 'body', title: title(1), prompt: 'Prompt text', value: schedule.body ?? '', optional: true };
    }
    if (answers.description === undefined) {
      return { kind: 'text', name: 'description', title: title(2), prompt: 'Description. hyperhive cannot clear it: an empty value keeps the current one.', value: schedule.description ?? '', optional: true };
    }
    if (answers.intervalSeconds === undefined) {
      const value = schedule.interval_seconds ? String(schedule.interval_seconds) : '';
      return { kind: 'text', name: 'intervalSeconds', title: title(3), prompt: 'Interval in seconds. It cannot be cleared either: empty keeps the current one.', value, optional: true, validate: 'positiveInt' };
    }
  }
  if (answers.scheduleAction === 'cancel' && answers.confirmed === undefined) {
    return { kind: 'confirm', name: 'confirmed', message: `Cancel schedule #${schedule.id}?`, detail: `"${schedule.body ?? ''}" will not fire again.`, button: 'Cancel Schedule' };
  }
  return undefined;
}

export function nextHiveActionInput(driver: HiveDriver, command: string, answers: ActionAnswers): Promise<ActionInput | undefined> {
  if (command === `${H}.schedules`) {
    return schedulesInput(driver, answers);
  }
  return Promise.resolve(command === `${H}.requestSchedulePrompt` ? schedulePromptInput(driver, answers) : undefined);
}

async function requestSchedulePrompt(driver: HiveDriver, answers: ActionAnswers): Promise<ActionResult> {
  const interval = seconds(answers, 'intervalSeconds');
  const targets = list(answers.targets);
  const description = text(answers, 'description') ?? '';
  await driver.requestSchedulePrompt({
    body: text(answers, 'body') ?? '',
    ...(interval !== undefined ? { interval_seconds: interval } : {}),
    ...(targets.length > 0 ? { targets } : {}),
    ...(description !== '' ? { description } : {}),
  });
  return { kind: 'done', message: `Scheduled prompt requested. ${APPROVED_ELSEWHERE}` };
}

async function performSchedules(driver: HiveDriver, answers: ActionAnswers): Promise<ActionResult> {
  const id = text(answers, 'scheduleId') ?? '';
  if (id === 'new') {
    return requestSchedulePrompt(driver, answers);
  }
  if (id.startsWith('unknown:')) {
    return { kind: 'declined', message: 'That schedule has a shape this version does not know; it cannot be changed from here.' };
  }
  const schedule = await chosenSchedule(driver, answers);
  readSchedules.delete(driver);
  switch (answers.scheduleAction) {
    case 'fire':
      await driver.fireScheduleNow(schedule.id);
      return { kind: 'done', message: `Schedule #${schedule.id} fired.` };
    case 'edit': {
      // Only fields that changed and are not empty are sent (hyperhive cannot clear description or interval).
      const body = text(answers, 'body') ?? '';
      const description = text(answers, 'description') ?? '';
      const interval = seconds(answers, 'intervalSeconds');
      const edit: ScheduleEdit = {
        ...(body !== '' && body !== schedule.body ? { body } : {}),
        ...(description !== '' && description !== (schedule.description ?? '') ? { description } : {}),
        ...(interval !== undefined && interval !== schedule.interval_seconds ? { intervalSeconds: interval } : {}),
      };
      if (Object.keys(edit).length === 0) {
        return { kind: 'done', message: 'Nothing changed.' };
      }
      await driver.editSchedule(schedule.id, edit);
      return { kind: 'done', message: `Schedule #${schedule.id} updated.` };
    }
    case 'cancel':
      await driver.cancelSchedule(schedule.id);
      return { kind: 'done', message: `Schedule #${schedule.id} cancelled.` };
    default:
      throw new DriverError(`Unknown schedule action "${String(answers.scheduleAction)}".`);
  }
}

export async function performHiveAction(driver: HiveDriver, command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
  const name = target.runId ?? '';
  const lifecycle: Readonly<Record<string, [(n: string) => Promise<void>, string]>> = {
    [`${H}.startAgent`]: [(n) => driver.startAgent(n), 'started'],
    [`${H}.stopAgent`]: [(n) => driver.stopAgent(n), 'stopped'],
    [`${H}.restartAgent`]: [(n) => driver.restartAgent(n), 'restarted'],
    [`${H}.updateAgent`]: [(n) => driver.updateAgent(n), 'rebuilt on the current hyperhive flake'],
  };
  const verb = lifecycle[command];
  if (verb) {
    if (driver.isManagerRun(name)) {
      return { kind: 'declined', message: 'The manager cannot start, stop, restart or update itself from here.' };
    }
    await verb[0](name);
    return { kind: 'done', status: `Hive agent ${name} ${verb[1]}.` };
  }
  switch (command) {
    case `${H}.showLogs`: {
      const lines = Number(answers.lines ?? 500);
      return { kind: 'document', name: `${name}.log`, language: 'log', content: await driver.agentLogs(name, lines) };
    }
    case `${H}.showHostJournal`: {
      const query: HostJournalQuery = {
        lines: Math.min(Number(answers.lines ?? 100), 100),
        ...(text(answers, 'unit') ? { unit: text(answers, 'unit')! } : {}),
        ...(text(answers, 'priority') ? { priority: text(answers, 'priority') as HostJournalQuery['priority'] } : {}),
        ...(text(answers, 'grep') ? { grep: text(answers, 'grep')! } : {}),
      };
      return { kind: 'document', name: 'host-journal.log', language: 'log', content: await driver.hostJournal(query) };
    }
    case `${H}.schedules`:
      return performSchedules(driver, answers);
    case `${H}.requestSchedulePrompt`:
      return requestSchedulePrompt(driver, answers);
    case `${H}.requestInitConfig`: {
      const agent = text(answers, 'name') ?? '';
      await driver.requestInitConfig(agent, text(answers, 'description') || undefined);
      return { kind: 'done', message: `Config for "${agent}" requested. ${APPROVED_ELSEWHERE}` };
    }
    case `${H}.requestUpdateMetaInputs`: {
      const inputs = list(answers.inputs);
      await driver.requestUpdateMetaInputs(inputs, text(answers, 'description') || undefined);
      return { kind: 'done', message: `Update of ${inputs.length > 0 ? inputs.join(', ') : 'all flake inputs'} requested. ${APPROVED_ELSEWHERE}` };
    }
    default:
      throw new DriverError(`hyperhive has no action "${command}".`);
  }
}

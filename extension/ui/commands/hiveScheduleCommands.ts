/**
 * "Hive Schedules…" (list → Fire now / Edit / Cancel) and the approval requests the manager may queue
 * (`request_init_config`, `request_update_meta_inputs`, `request_schedule_prompt`). A queued request is decided on
 * the host admin side (dashboard / host.sock), never here; the commands say so.
 */
import * as vscode from 'vscode';
import type { HiveDriver } from '../../drivers/hive/hiveDriver';
import type { ScheduleEdit } from '../../drivers/hive/hiveClientOptions';
import type { Lenient, WireSchedule } from '../../protocol/hive';
import type { CommandContext } from './commandContext';
import { errorText } from './commandContext';
import type { HiveCommandArgs } from './hiveTargets';
import { APPROVED_ELSEWHERE, confirmModal, hiveArgs, resolveHive } from './hiveTargets';

function every(seconds: number | null | undefined): string | undefined {
  if (seconds === undefined || seconds === null) {
    return undefined;
  }
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['min', 60]] as const) {
    if (seconds >= size && seconds % size === 0) {
      return `every ${seconds / size} ${unit}`;
    }
  }
  return `every ${seconds} s`;
}

function scheduleItem(item: Lenient<WireSchedule>): vscode.QuickPickItem & { schedule?: WireSchedule } {
  if (!item.ok) {
    return { label: '$(json) Schedule of an unknown shape', detail: JSON.stringify(item.raw).slice(0, 300) };
  }
  const s = item.value;
  const next = s.next_fire_at_unix ? `next ${new Date(s.next_fire_at_unix * 1000).toLocaleString()}` : undefined;
  return {
    label: `#${s.id} ${s.body ?? ''}`.trim(),
    description: [every(s.interval_seconds), next].filter(Boolean).join(' · '),
    detail: [s.description, s.targets && s.targets.length > 0 ? `→ ${s.targets.join(', ')}` : undefined].filter(Boolean).join(' · ') || undefined,
    schedule: s,
  };
}

const positiveInt = (v: string): string | undefined => (v.trim() === '' || /^[1-9]\d*$/.test(v.trim()) ? undefined : 'A whole number of seconds (or empty)');

/** Edit: only fields that changed and are not empty are sent (hyperhive cannot clear description or interval). */
async function askEdit(schedule: WireSchedule, args: HiveCommandArgs): Promise<ScheduleEdit | undefined> {
  const title = `Edit schedule #${schedule.id}`;
  const body = args.body ?? (await vscode.window.showInputBox({ title: `${title} (1/3)`, prompt: 'Prompt text', value: schedule.body ?? '' }));
  if (body === undefined) {
    return undefined;
  }
  const description =
    args.description ??
    (await vscode.window.showInputBox({
      title: `${title} (2/3)`,
      prompt: 'Description. hyperhive cannot clear it: an empty value keeps the current one.',
      value: schedule.description ?? '',
    }));
  if (description === undefined) {
    return undefined;
  }
  const interval =
    args.intervalSeconds !== undefined
      ? String(args.intervalSeconds)
      : await vscode.window.showInputBox({
          title: `${title} (3/3)`,
          prompt: 'Interval in seconds. It cannot be cleared either: empty keeps the current one.',
          value: schedule.interval_seconds ? String(schedule.interval_seconds) : '',
          validateInput: positiveInt,
        });
  if (interval === undefined) {
    return undefined;
  }
  const seconds = interval.trim() === '' ? undefined : Number(interval.trim());
  return {
    ...(body !== '' && body !== schedule.body ? { body } : {}),
    ...(description !== '' && description !== (schedule.description ?? '') ? { description } : {}),
    ...(seconds !== undefined && seconds !== schedule.interval_seconds ? { intervalSeconds: seconds } : {}),
  };
}

async function scheduleAction(driver: HiveDriver, schedule: WireSchedule, args: HiveCommandArgs): Promise<string | undefined> {
  const action =
    args.scheduleAction ??
    (
      await vscode.window.showQuickPick(
        [
          { label: '$(play) Fire now', action: 'fire' as const },
          { label: '$(edit) Edit…', description: 'body, description, interval', action: 'edit' as const },
          { label: '$(trash) Cancel schedule…', action: 'cancel' as const },
        ],
        { placeHolder: `Schedule #${schedule.id}: ${schedule.body ?? ''}` },
      )
    )?.action;
  switch (action) {
    case 'fire':
      await driver.fireScheduleNow(schedule.id);
      return `Schedule #${schedule.id} fired.`;
    case 'edit': {
      const edit = await askEdit(schedule, args);
      if (!edit) {
        return undefined;
      }
      if (Object.keys(edit).length === 0) {
        return 'Nothing changed.';
      }
      await driver.editSchedule(schedule.id, edit);
      return `Schedule #${schedule.id} updated.`;
    }
    case 'cancel':
      if (!(await confirmModal(args, `Cancel schedule #${schedule.id}?`, `"${schedule.body ?? ''}" will not fire again.`, 'Cancel Schedule'))) {
        return undefined;
      }
      await driver.cancelSchedule(schedule.id);
      return `Schedule #${schedule.id} cancelled.`;
    default:
      return undefined;
  }
}

const splitList = (text: string): string[] => text.split(/[\s,]+/).filter((s) => s !== '');

/** Runs `fn`, reports its message (or its error); resolves whether it succeeded. */
async function report(ctx: CommandContext, what: string, fn: () => Promise<string | undefined>): Promise<boolean> {
  try {
    const message = await fn();
    if (message) {
      void vscode.window.showInformationMessage(message);
    }
    return message !== undefined;
  } catch (error) {
    ctx.log.error(`${what}: ${errorText(error)}`);
    void vscode.window.showErrorMessage(`${what} failed: ${errorText(error)}`);
    return false;
  }
}

export function registerHiveScheduleCommands(ctx: CommandContext): vscode.Disposable[] {
  const requestSchedulePrompt = async (driver: HiveDriver, args: HiveCommandArgs): Promise<string | undefined> => {
    const body = args.body ?? (await vscode.window.showInputBox({ title: 'Request a scheduled prompt (1/4)', prompt: 'Prompt text', validateInput: (v) => (v.trim() ? undefined : 'Enter the prompt') }));
    if (!body) {
      return undefined;
    }
    const interval =
      args.intervalSeconds !== undefined ? String(args.intervalSeconds) : await vscode.window.showInputBox({ title: 'Request a scheduled prompt (2/4)', prompt: 'Repeat every N seconds (empty = once)', validateInput: positiveInt });
    if (interval === undefined) {
      return undefined;
    }
    const agents = driver.agents().filter((a) => !a.isManager).map((a) => a.name);
    const targets = args.targets ?? (await vscode.window.showQuickPick(agents, { title: 'Request a scheduled prompt (3/4)', placeHolder: 'Send it to which agents?', canPickMany: true }));
    if (!targets) {
      return undefined;
    }
    const description = args.description ?? (await vscode.window.showInputBox({ title: 'Request a scheduled prompt (4/4)', prompt: 'Description (optional)' }));
    if (description === undefined) {
      return undefined;
    }
    await driver.requestSchedulePrompt({
      body,
      ...(interval.trim() !== '' ? { interval_seconds: Number(interval.trim()) } : {}),
      ...(targets.length > 0 ? { targets: [...targets] } : {}),
      ...(description !== '' ? { description } : {}),
    });
    return `Scheduled prompt requested. ${APPROVED_ELSEWHERE}`;
  };

  return [
    vscode.commands.registerCommand('agentSwitchboard.hive.schedules', async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const hive = await resolveHive(ctx, target, true);
      if (!hive) {
        return false;
      }
      return report(ctx, 'Hive schedules', async () => {
        const schedules = await hive.driver.listSchedules();
        let chosen: WireSchedule | 'new' | undefined;
        if (args.scheduleId !== undefined) {
          const found = schedules.find((s): s is { readonly ok: true; readonly value: WireSchedule } => s.ok && s.value.id === args.scheduleId);
          if (!found) {
            throw new Error(`There is no schedule #${args.scheduleId}.`);
          }
          chosen = found.value;
        } else {
          const items: (vscode.QuickPickItem & { schedule?: WireSchedule; create?: boolean })[] = [
            ...schedules.map(scheduleItem),
            { label: '$(add) Request a new scheduled prompt…', create: true },
          ];
          const pick = await vscode.window.showQuickPick(items, { placeHolder: `${schedules.length} schedule${schedules.length === 1 ? '' : 's'} — pick one to fire, edit or cancel`, matchOnDetail: true });
          chosen = pick?.create ? 'new' : pick?.schedule;
          if (pick && !pick.create && !pick.schedule) {
            return 'That schedule has a shape this version does not know; it cannot be changed from here.';
          }
        }
        if (chosen === undefined) {
          return undefined;
        }
        return chosen === 'new' ? requestSchedulePrompt(hive.driver, args) : scheduleAction(hive.driver, chosen, args);
      });
    }),
    vscode.commands.registerCommand('agentSwitchboard.hive.requestSchedulePrompt', async (target?: unknown, rawArgs?: unknown) => {
      const hive = await resolveHive(ctx, target, true);
      return hive ? report(ctx, 'Requesting a scheduled prompt', () => requestSchedulePrompt(hive.driver, hiveArgs(rawArgs))) : false;
    }),
    vscode.commands.registerCommand('agentSwitchboard.hive.requestInitConfig', async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const hive = await resolveHive(ctx, target, true);
      if (!hive) {
        return false;
      }
      return report(ctx, 'Requesting a new agent config', async () => {
        const name =
          args.name ??
          (await vscode.window.showInputBox({
            title: 'Request a new hive agent (1/2)',
            prompt: 'Name of the new agent',
            validateInput: (v) => (/^[a-z][a-z0-9-]*$/.test(v) ? undefined : 'Lower-case letters, digits and dashes, starting with a letter'),
          }));
        if (!name) {
          return undefined;
        }
        const description = args.description ?? (await vscode.window.showInputBox({ title: 'Request a new hive agent (2/2)', prompt: 'What is it for? (optional)' }));
        if (description === undefined) {
          return undefined;
        }
        await hive.driver.requestInitConfig(name, description || undefined);
        return `Config for "${name}" requested. ${APPROVED_ELSEWHERE}`;
      });
    }),
    vscode.commands.registerCommand('agentSwitchboard.hive.requestUpdateMetaInputs', async (target?: unknown, rawArgs?: unknown) => {
      const args = hiveArgs(rawArgs);
      const hive = await resolveHive(ctx, target, true);
      if (!hive) {
        return false;
      }
      return report(ctx, 'Requesting a flake input update', async () => {
        const inputs = args.inputs ?? (await vscode.window.showInputBox({ title: 'Request a flake input update (1/2)', prompt: 'Inputs to update, separated by spaces or commas (empty = all)' }).then((v) => (v === undefined ? undefined : splitList(v))));
        if (inputs === undefined) {
          return undefined;
        }
        const description = args.description ?? (await vscode.window.showInputBox({ title: 'Request a flake input update (2/2)', prompt: 'Why? (optional)' }));
        if (description === undefined) {
          return undefined;
        }
        await hive.driver.requestUpdateMetaInputs(inputs, description || undefined);
        return `Update of ${inputs.length > 0 ? inputs.join(', ') : 'all flake inputs'} requested. ${APPROVED_ELSEWHERE}`;
      });
    }),
  ];
}

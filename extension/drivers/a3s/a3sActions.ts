/**
 * A3S's own action, as data (kit/daemonActions.ts): recover a run from its checkpoint as a new run (WIRE.md 6.3.4)
 * — a run stranded by a harness restart, or one still open that the user gives up on (it is marked interrupted).
 */
import type { ActionResult, ActionTarget, DaemonAction } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { A3sDriver } from './a3sDriver';

export const A3S_ACTIONS: readonly DaemonAction[] = [
  {
    command: 'agentSwitchboard.recoverA3sRun',
    title: 'Recover A3S Run',
    icon: 'debug-restart',
    scope: 'run',
    when: { facts: ['recoverable'] },
    menus: [{ item: 'run', group: '1_run@8' }],
    pickTarget: 'Recover which A3S run?',
    failure: 'The run was not recovered',
    headerButton: true,
  },
];

/** Run facts: `recoverable` — stranded by a harness restart, or still open and not yet recovered. */
export function a3sFacts(driver: A3sDriver, runId?: string): readonly string[] {
  return runId !== undefined && driver.isRecoverable(runId) ? ['recoverable'] : [];
}

export async function performA3sAction(driver: A3sDriver, command: string, target: ActionTarget): Promise<ActionResult> {
  if (command !== 'agentSwitchboard.recoverA3sRun' || target.runId === undefined) {
    throw new DriverError(`A3S has no action "${command}".`);
  }
  return { kind: 'openRun', runId: await driver.recoverRun(target.runId) };
}

/** A real agent's turn run to its end with every permission it asks allowed once, as a person clicking "Allow". */
import { until } from '../driverKit';
import type { Rig } from './acpDriverKit';
import { idle, run } from './acpDriverKit';

/** Allows each approval of `runId` as it comes (from the notification) until the turn ended; the ids asked. */
export async function allowUntilTurnEnds(r: Rig, runId: string, timeoutMs: number): Promise<string[]> {
  const asked: string[] = [];
  for (;;) {
    const next = await until(
      'the turn ended or a permission asked',
      () => {
        const pending = run(r, runId)?.pendingApprovals[0];
        if (pending !== undefined && !asked.includes(pending)) {
          return { approval: pending };
        }
        return idle(r, runId) && r.items(runId).some((i) => i.kind === 'turn' && i.phase !== 'started') ? { ended: true } : undefined;
      },
      timeoutMs,
    );
    if ('ended' in next) {
      return asked;
    }
    asked.push(next.approval);
    await r.driver.decideApproval(runId, next.approval, 'allow_once', 'notification');
  }
}

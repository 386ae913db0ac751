/** The agent's plan (`plan` updates) as the run's "Plan" side panel: one entry per step, its status as the icon. */
import type { PlanEntry } from '@agentclientprotocol/sdk';
import type { Panel } from '../../model/modelTypes';

export const ACP_PLAN_PANEL = 'plan';

const PLAN_ICONS: Readonly<Record<string, string>> = { pending: 'circle-large-outline', in_progress: 'loading~spin', completed: 'pass-filled' };

export function planPanel(entries: readonly PlanEntry[]): Panel {
  return {
    id: ACP_PLAN_PANEL,
    title: 'Plan',
    emptyText: 'The agent has no plan.',
    entries: entries.map((e, i) => ({ id: `plan-${i}`, icon: PLAN_ICONS[e.status] ?? 'circle-large-outline', label: e.content, description: `${e.status.replace('_', ' ')} · ${e.priority}`, actions: [] })),
  };
}

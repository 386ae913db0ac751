/**
 * hyperhive's own actions, as data (kit/daemonActions.ts): an agent's lifecycle through the manager socket (start,
 * stop, restart, update — destructive ones confirmed), its container logs and the host journal as read-only
 * documents, the schedules (fire / edit / cancel) and the approval requests the manager may queue. A queued request
 * is decided on the host admin side (dashboard / host.sock), never here: the results say so. How they are carried
 * out, and the questions that depend on the daemon's answers (schedules, agents), are in hiveActionFlows.ts.
 */
import type { ActionInput, DaemonAction } from '../kit/daemonActions';

const H = 'agentSwitchboard.hive';

/** Run facts the driver reports (hiveActionFlows.ts `hiveFacts`). */
export const HIVE_FACT_AGENT = 'agent';
export const HIVE_FACT_RUNNING = 'running';

const manager = ['hive.manager'] as const;

function lifecycle(verb: string, title: string, progress: string, when: DaemonAction['when'], menus: DaemonAction['menus'], confirm?: Omit<Extract<ActionInput, { kind: 'confirm' }>, 'kind' | 'name'>): DaemonAction {
  return {
    command: `${H}.${verb}Agent`,
    title,
    icon: { start: 'play', stop: 'debug-stop', restart: 'debug-restart', update: 'cloud-download' }[verb] ?? 'gear',
    scope: 'run',
    when,
    menus,
    pickTarget: `${title.replace(/ Hive Agent…$/, '').replace(/ \(Rebuild\)$/, '')} which hive agent?`,
    ...(confirm ? { inputs: [{ kind: 'confirm', name: 'confirmed', ...confirm }] } : {}),
    progress: `${progress} hive agent {runId}…`,
    failure: `Could not ${verb} the agent`,
  };
}

/** A hive-wide action through the manager socket (schedules and the requests the host admin decides). */
function managerAction(verb: string, title: string, icon: string, order: number, failure: string, inputs?: readonly ActionInput[]): DaemonAction {
  return {
    command: `${H}.${verb}`,
    title,
    icon,
    scope: 'connection',
    when: { capabilities: manager },
    menus: [{ item: 'connection', group: `3_hive@${order}` }],
    pickTarget: 'Which hive (with its manager socket)?',
    ...(inputs ? { inputs } : {}),
    failure,
  };
}

export const HIVE_ACTIONS: readonly DaemonAction[] = [
  lifecycle('start', 'Start Hive Agent…', 'Starting', { capabilities: manager, facts: [HIVE_FACT_AGENT], notFacts: [HIVE_FACT_RUNNING] }, [
    { item: 'run', group: 'inline@3' },
    { item: 'run', group: '3_hive@1' },
  ]),
  lifecycle('stop', 'Stop Hive Agent…', 'Stopping', { capabilities: manager, facts: [HIVE_FACT_AGENT, HIVE_FACT_RUNNING] }, [{ item: 'run', group: '3_hive@2' }], {
    message: 'Stop hive agent "{runId}"?',
    detail: 'Its container shuts down gracefully. Messages sent to it keep queueing until it is started again.',
    button: 'Stop',
  }),
  lifecycle('restart', 'Restart Hive Agent…', 'Restarting', { capabilities: manager, facts: [HIVE_FACT_AGENT] }, [{ item: 'run', group: '3_hive@3' }], {
    message: 'Restart hive agent "{runId}"?',
    detail: 'A turn in progress is interrupted.',
    button: 'Restart',
  }),
  lifecycle('update', 'Update (Rebuild) Hive Agent…', 'Rebuilding', { capabilities: manager, facts: [HIVE_FACT_AGENT] }, [{ item: 'run', group: '3_hive@4' }], {
    message: 'Rebuild hive agent "{runId}" on the current hyperhive flake?',
    detail: 'The agent restarts on the new build. A rebuild can take minutes.',
    button: 'Update',
  }),
  {
    command: `${H}.showLogs`,
    title: 'Show Hive Agent Logs',
    icon: 'output',
    scope: 'run',
    when: { capabilities: manager, facts: [HIVE_FACT_AGENT] },
    menus: [{ item: 'run', group: '4_hiveLogs@1' }],
    pickTarget: 'Show the logs of which hive agent?',
    failure: 'The agent log is not available',
  },
  {
    command: `${H}.showHostJournal`,
    title: 'Show Hive Host Journal',
    icon: 'book',
    scope: 'connection',
    menus: [{ item: 'connection', group: '4_hiveLogs@1' }],
    pickTarget: 'Show the host journal of which hive?',
    failure: 'The host journal is not available (it needs the manager socket or the capability read_host_journal)',
  },
  managerAction('schedules', 'Hive Schedules…', 'calendar', 1, 'Hive schedules failed'),
  managerAction('requestSchedulePrompt', 'Request Hive Scheduled Prompt…', 'add', 2, 'Requesting a scheduled prompt failed'),
  managerAction('requestInitConfig', 'Request New Hive Agent…', 'person-add', 3, 'Requesting a new agent config failed', [
    {
      kind: 'text',
      name: 'name',
      title: 'Request a new hive agent (1/2)',
      prompt: 'Name of the new agent',
      validate: { pattern: '[a-z][a-z0-9-]*', message: 'Lower-case letters, digits and dashes, starting with a letter' },
    },
    { kind: 'text', name: 'description', title: 'Request a new hive agent (2/2)', prompt: 'What is it for? (optional)', optional: true },
  ]),
  managerAction('requestUpdateMetaInputs', 'Request Hive Flake Input Update…', 'sync', 4, 'Requesting a flake input update failed', [
    { kind: 'text', name: 'inputs', title: 'Request a flake input update (1/2)', prompt: 'Inputs to update, separated by spaces or commas (empty = all)', optional: true },
    { kind: 'text', name: 'description', title: 'Request a flake input update (2/2)', prompt: 'Why? (optional)', optional: true },
  ]),
];

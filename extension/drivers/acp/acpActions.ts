/**
 * ACP's own actions, as data (kit/daemonActions.ts): restart the agent (after a crash), sign in with one of the
 * agent's auth methods (an `env_var` method asks for its variables, kept in the secret store), sign out (delete what
 * the secret store keeps of it), switch a session's
 * mode (`session/set_mode`) and change one of its settings, e.g. the model (`session/set_config_option`); open one
 * of the agent's sessions, fork a run and close a session, where the agent advertises it (acpAgentSessions.ts). The
 * choices come from the agent (`nextAcpActionInput`).
 */
import { modeDetail } from './autonomousModes';
import type { ActionAnswers, ActionInput, ActionOffer, ActionResult, ActionTarget, DaemonAction } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { AcpDriver } from './acpDriver';

const A = 'agentSwitchboard.acp';

export const ACP_ACTIONS: readonly DaemonAction[] = [
  {
    command: `${A}.restart`,
    title: 'Restart ACP Agent',
    icon: 'debug-restart',
    scope: 'connection',
    when: { connected: false },
    menus: [{ item: 'connection', group: '3_daemon@1' }],
    pickTarget: 'Restart which agent?',
    progress: 'Starting {connection}…',
    failure: 'The agent did not start',
  },
  {
    command: `${A}.signIn`,
    title: 'Sign In to ACP Agent…',
    icon: 'key',
    scope: 'connection',
    when: { facts: ['signIn'] },
    menus: [{ item: 'connection', group: '3_daemon@2' }],
    pickTarget: 'Sign in to which agent?',
    failure: 'Sign-in failed',
  },
  {
    command: `${A}.signOut`,
    title: 'Sign Out of ACP Agent',
    icon: 'sign-out',
    scope: 'connection',
    when: { connected: false },
    menus: [{ item: 'connection', group: '3_daemon@3' }],
    pickTarget: 'Sign out of which agent?',
    inputs: [
      {
        kind: 'confirm',
        name: 'confirmed',
        message: 'Sign out of {connection}?',
        detail: 'The sign-in Agent Switchboard keeps for this agent (the method and any API key) is deleted from VS Code\'s secret storage. A running agent is restarted without it.',
        button: 'Sign Out',
      },
    ],
    failure: 'Sign-out failed',
  },
  {
    command: `${A}.setMode`,
    title: 'Change Session Mode…',
    icon: 'settings',
    scope: 'run',
    when: { facts: ['modes'] },
    menus: [{ item: 'run', group: '2_acp@1' }],
    pickTarget: 'Change the mode of which session?',
    failure: 'The mode was not changed',
    headerButton: true,
  },
  {
    command: `${A}.configure`,
    title: 'Change Session Setting (Model…)',
    icon: 'symbol-property',
    scope: 'run',
    when: { facts: ['settings'] },
    menus: [{ item: 'run', group: '2_acp@2' }],
    pickTarget: 'Change a setting of which session?',
    failure: 'The setting was not changed',
    headerButton: true,
  },
  {
    command: `${A}.openSession`,
    title: 'Open Agent Session…',
    icon: 'history',
    scope: 'connection',
    when: { facts: ['listSessions'] },
    menus: [{ item: 'connection', group: '2_run@2' }],
    pickTarget: 'Open a session of which agent?',
    progress: 'Opening the session…',
    failure: 'The session was not opened',
  },
  {
    command: `${A}.forkRun`,
    title: 'Fork Run',
    icon: 'repo-forked',
    scope: 'run',
    when: { facts: ['fork'], notRunStates: ['starting', 'running', 'waiting_approval'] },
    menus: [{ item: 'run', group: '2_acp@3' }],
    pickTarget: 'Fork which run?',
    failure: 'The run was not forked',
    headerButton: true,
  },
  {
    command: `${A}.closeSession`,
    title: 'Close Session',
    icon: 'close',
    scope: 'run',
    when: { facts: ['close'], runStates: ['idle', 'interrupted'] },
    menus: [{ item: 'run', group: '2_acp@4' }],
    pickTarget: 'Close which session?',
    inputs: [
      {
        kind: 'confirm',
        name: 'confirmed',
        message: 'Close "{title}"?',
        detail: 'The agent frees the session. Its transcript stays here, and "Open Agent Session…" takes it up again.',
        button: 'Close Session',
      },
    ],
    failure: 'The session was not closed',
  },
];

/**
 * Connection facts: `signIn` (the agent lists auth methods), `listSessions` (it lists its sessions and can take one
 * up); run facts: `modes`, `settings` (it offers them), `fork`, `close` (it advertises them).
 */
export function acpFacts(driver: AcpDriver, runId?: string): readonly string[] {
  const abilities = driver.abilities;
  if (runId === undefined) {
    return [...(driver.authMethods.length > 0 ? ['signIn'] : []), ...(driver.agentSessions.canOpen() ? ['listSessions'] : [])];
  }
  const session = driver.session(runId);
  return [
    ...((session?.modes?.availableModes.length ?? 0) > 1 ? ['modes'] : []),
    ...(session?.configOptions?.some((o) => o.type === 'select') ? ['settings'] : []),
    ...(session && abilities.fork ? ['fork'] : []),
    ...(session && abilities.close ? ['close'] : []),
  ];
}

const str = (answers: ActionAnswers, name: string): string | undefined => (typeof answers[name] === 'string' ? (answers[name] as string) : undefined);

export function nextAcpActionInput(driver: AcpDriver, command: string, target: ActionTarget, answers: ActionAnswers): ActionInput | undefined | Promise<ActionInput | undefined> {
  const session = target.runId !== undefined ? driver.session(target.runId) : undefined;
  switch (command) {
    case `${A}.signIn`: {
      const methods = driver.authMethods;
      if (answers.method === undefined) {
        return { kind: 'pick', name: 'method', placeHolder: 'Sign in how?', choices: methods.map((m) => ({ value: m.id, label: m.name, ...(m.description ? { detail: m.description } : {}) })) };
      }
      const method = methods.find((m) => m.id === answers.method);
      const missing = method?.vars.find((v) => answers[v.name] === undefined);
      return missing ? { kind: 'text', name: missing.name, title: method!.name, prompt: `${missing.label} (${missing.name}); kept in VS Code's secret storage`, secret: missing.secret } : undefined;
    }
    case `${A}.setMode`:
      return answers.mode === undefined && session?.modes
        ? { kind: 'pick', name: 'mode', placeHolder: 'Mode of this session', choices: session.modes.availableModes.map((m) => ({ value: m.id, label: m.name, ...modeDetail(m), ...(m.id === session.modes?.currentModeId ? { description: 'current' } : {}) })) }
        : undefined;
    case `${A}.configure`: {
      const selects = (session?.configOptions ?? []).filter((o) => o.type === 'select');
      if (answers.option === undefined) {
        return { kind: 'pick', name: 'option', placeHolder: 'Which setting?', choices: selects.map((o) => ({ value: o.id, label: o.name, description: String(o.type === 'select' ? o.currentValue : '') })) };
      }
      const option = selects.find((o) => o.id === answers.option);
      if (answers.value === undefined && option && option.type === 'select') {
        const flat = option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));
        return { kind: 'pick', name: 'value', placeHolder: option.name, choices: flat.map((v) => ({ value: v.value, label: v.name, ...(v.description ? { detail: v.description } : {}) })) };
      }
      return undefined;
    }
    case `${A}.openSession`:
      return driver.agentSessions.nextPick(answers);
    default:
      return undefined;
  }
}

export async function performAcpAction(driver: AcpDriver, command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
  const runId = target.runId ?? '';
  switch (command) {
    case `${A}.restart`:
      await driver.restart();
      return { kind: 'done', status: 'The agent is running again.' };
    case `${A}.signIn`: {
      const method = driver.authMethods.find((m) => m.id === answers.method);
      if (!method) {
        throw new DriverError('The agent does not offer that sign-in any more.');
      }
      if (method.kind === 'terminal') {
        return { kind: 'declined', message: `Sign in with "${method.name}" in a terminal${method.command ? `: ${method.command}` : ''}, then restart the agent.` };
      }
      const values = Object.fromEntries(method.vars.map((v) => [v.name, str(answers, v.name) ?? '']));
      await driver.signIn(method, values);
      return { kind: 'done', message: `Signed in to ${target.connectionId.replace(/^acp:/, '')} with ${method.name}.` };
    }
    case `${A}.signOut`:
      return { kind: 'done', message: signOutText(driver, target.connectionId, await driver.signOut()) };
    case `${A}.setMode`:
      await driver.setMode(runId, str(answers, 'mode') ?? '');
      return { kind: 'done' };
    case `${A}.configure`:
      await driver.setConfigOption(runId, str(answers, 'option') ?? '', str(answers, 'value') ?? '');
      return { kind: 'done' };
    case `${A}.openSession`: {
      const opened = await driver.agentSessions.open(answers);
      return opened ? { kind: 'openRun', runId: opened.runId } : { kind: 'declined', message: `${target.connectionId.replace(/^acp:/, '')} has no sessions for this folder.` };
    }
    case `${A}.forkRun`:
      return { kind: 'openRun', runId: await driver.agentSessions.fork(runId) };
    case `${A}.closeSession`:
      await driver.agentSessions.close(runId);
      return { kind: 'done', status: 'The agent closed the session.' };
    default:
      throw new DriverError(`ACP has no action "${command}".`);
  }
}

/** What Sign Out says it did: which method and which variables' values were deleted, or that none was kept. */
function signOutText(driver: AcpDriver, connectionId: string, result: Awaited<ReturnType<AcpDriver['signOut']>>): string {
  const name = connectionId.replace(/^acp:/, '');
  if (result.methodId === undefined && result.variables.length === 0) {
    return `Agent Switchboard kept no sign-in for ${name}. (A login the agent keeps itself, in its own files, is signed out in the agent.)`;
  }
  const method = driver.authMethods.find((m) => m.id === result.methodId)?.name ?? result.methodId;
  const values = result.variables.length > 0 ? `${result.variables.join(', ')} deleted from VS Code's secret storage` : 'no API key was stored';
  return `Signed out of ${name}${method ? ` (${method})` : ''}: ${values}${result.restarted ? '; the agent was restarted without it' : ''}.`;
}

/** The notification a crashed agent raises: its reason (the stderr tail's first line) and *Restart*. */
export function restartOffer(connectionId: string, name: string, reason: string): ActionOffer {
  return {
    id: `crash-${connectionId}-${Date.now()}`,
    level: 'warning',
    message: `${name} stopped: ${reason.split('\n', 1)[0]}`,
    choices: [{ label: 'Restart', command: `${A}.restart`, target: { connectionId } }],
  };
}

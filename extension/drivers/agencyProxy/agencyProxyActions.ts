/**
 * AgencyProxy's own actions, as data (kit/daemonActions.ts), and how the driver carries them out: account usage,
 * stopping the daemon (when idle / drain / terminate), continuing a lost run in a new one (a daemon restart loses
 * every run but not the provider session, WIRE.md 1.9) and taking over a run another client started (an ack deletes
 * its history for every client, so this editor only observes such runs until the user says otherwise).
 */
import type { ActionAnswers, ActionResult, ActionTarget, DaemonAction } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { AgencyProxyDriver } from './agencyProxyDriver';
import { accountUsageMarkdown, accountUsageSummary } from './accountUsageMarkdown';
import { DEFAULT_CONTINUE_PROMPT } from './continueRun';

const A = 'agentSwitchboard.agencyProxy';

export const AGENCY_PROXY_ACTIONS: readonly DaemonAction[] = [
  {
    command: `${A}.accountUsage`,
    title: 'Show AgencyProxy Account Usage',
    icon: 'graph',
    scope: 'connection',
    menus: [{ item: 'connection', group: '3_daemon@1' }],
    pickTarget: 'Account usage of which AgencyProxy?',
    failure: 'Account usage',
    statusBar: { text: 'Usage', name: 'AgencyProxy Account Usage' },
  },
  {
    command: `${A}.shutdown`,
    title: 'Stop AgencyProxy Daemon…',
    icon: 'debug-stop',
    scope: 'connection',
    when: { capabilities: ['daemon.shutdown'] },
    menus: [{ item: 'connection', group: '3_daemon@2' }],
    pickTarget: 'Stop which AgencyProxy daemon?',
    inputs: [
      {
        kind: 'pick',
        name: 'mode',
        placeHolder: 'How should the daemon stop?',
        choices: [
          { value: 'idle', label: 'Stop when idle', description: 'only if no run is active' },
          { value: 'drain', label: 'Drain', description: 'refuse new runs, let active runs finish, then stop' },
          { value: 'terminate', label: 'Terminate', description: 'cancel every active run, then stop' },
        ],
      },
      {
        kind: 'confirm',
        name: 'confirmTerminate',
        message: 'Cancel every active run and stop AgencyProxy?',
        detail: 'Every run the daemon has is cancelled now. Transcripts stay here.',
        button: 'Terminate',
        onlyIf: { name: 'mode', equals: 'terminate' },
      },
    ],
    failure: 'AgencyProxy did not stop',
  },
  {
    command: `${A}.continueRun`,
    title: 'Continue in a New Run',
    icon: 'debug-continue',
    scope: 'run',
    when: { active: false },
    menus: [
      { item: 'run', group: '1_run@6' },
      { item: 'run', group: 'inline@3', runStates: ['lost'] },
    ],
    pickTarget: 'Continue which run in a new run?',
    inputs: [
      {
        kind: 'text',
        name: 'prompt',
        title: 'Continue "{title}" in a new run',
        prompt: 'The first message of the new run, in the same provider session',
        value: DEFAULT_CONTINUE_PROMPT,
      },
    ],
    failure: 'The run was not continued',
    headerButton: true,
    offer: { runBecomes: 'lost', message: 'AgencyProxy lost "{title}" (the daemon restarted). Its transcript is kept.' },
  },
  {
    command: `${A}.adoptRun`,
    title: 'Take Over Run (Acknowledge Its Events)',
    icon: 'person',
    scope: 'run',
    when: { notFacts: ['owned'] },
    menus: [{ item: 'run', group: '1_run@7' }],
    pickTarget: 'Take over which run?',
    inputs: [
      {
        kind: 'confirm',
        name: 'confirmed',
        message: 'Take over "{title}"?',
        detail:
          'Another client started this run. This editor only observes it. Taking it over makes this editor acknowledge its events once they are stored, which deletes them from the daemon for every client (a client that restarts can then no longer replay them).',
        button: 'Take Over',
      },
    ],
    failure: 'Could not take over the run',
    headerButton: true,
  },
];

function stringAnswer(answers: ActionAnswers, name: string): string {
  const value = answers[name];
  return typeof value === 'string' ? value : '';
}

/** Run facts: `owned` — this editor started or adopted the run, so it acknowledges its events. */
export function agencyProxyFacts(driver: AgencyProxyDriver, runId?: string): readonly string[] {
  return runId !== undefined && driver.ownsRun(runId) ? ['owned'] : [];
}

export async function performAgencyProxyAction(driver: AgencyProxyDriver, command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
  const runId = target.runId ?? '';
  switch (command) {
    case `${A}.accountUsage`: {
      // Provider-specific shapes: bars where a usage window is recognised, the raw JSON otherwise.
      const providers = await driver.readAccountUsage();
      const now = Date.now();
      return {
        kind: 'document',
        name: 'account-usage.md',
        language: 'markdown',
        preview: true,
        content: accountUsageMarkdown(driver.connectionName, providers, now),
        summary: accountUsageSummary(providers, now),
      };
    }
    case `${A}.shutdown`: {
      const mode = stringAnswer(answers, 'mode');
      if (mode === 'idle') {
        await driver.shutdownIfIdle();
      } else if (mode === 'drain' || mode === 'terminate') {
        await driver.shutdown(mode);
      } else {
        throw new DriverError(`Unknown way to stop: "${mode}".`);
      }
      return { kind: 'done', message: mode === 'drain' ? 'AgencyProxy stops once its runs finish.' : 'AgencyProxy is stopping.' };
    }
    case `${A}.continueRun`:
      return { kind: 'openRun', runId: await driver.continueInNewRun(runId, { prompt: stringAnswer(answers, 'prompt') || DEFAULT_CONTINUE_PROMPT }) };
    case `${A}.adoptRun`:
      await driver.adoptRun(runId);
      return { kind: 'done', status: 'This editor now acknowledges the run\'s events once they are stored.' };
    default:
      throw new DriverError(`AgencyProxy has no action "${command}".`);
  }
}

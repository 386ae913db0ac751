/**
 * SCV's own actions, as data (kit/daemonActions.ts), and how the driver carries them out: start a new session here
 * (replacing the live one only after asking), clear a session, pause or resume its prompt queue, read the daemon
 * status, and queue or discard the prompts the previous session left in its queue (offered once per new session).
 */
import type { ActionAnswers, ActionOffer, ActionResult, ActionTarget, DaemonAction } from '../kit/daemonActions';
import { DriverError } from '../kit/errors';
import type { ScvDriver } from './scvDriver';
import type { ScvLeftoverOffer } from './scvLeftovers';

const S = 'agentSwitchboard.scv';

export const SCV_ACTIONS: readonly DaemonAction[] = [
  {
    command: `${S}.startSession`,
    title: 'Start New SCV Session Here',
    icon: 'add',
    scope: 'connection',
    menus: [
      { item: 'connection', group: 'inline@4' },
      { item: 'connection', group: '4_scv@1' },
      // An ended session's row: start the next one from where the user looks.
      { item: 'run', group: 'inline@3', runStates: ['interrupted'] },
      { item: 'run', group: '2_scv@1', runStates: ['interrupted'] },
    ],
    pickTarget: 'Start a new session on which SCV daemon?',
    failure: 'The SCV session did not start',
  },
  {
    command: `${S}.clearSession`,
    title: 'Clear SCV Session',
    icon: 'clear-all',
    scope: 'run',
    when: { active: true },
    menus: [{ item: 'run', group: '2_scv@2', runStates: ['idle'] }],
    pickTarget: 'Clear which SCV session?',
    inputs: [
      {
        kind: 'confirm',
        name: 'confirmed',
        message: 'Clear "{title}"?',
        detail: 'SCV forgets the conversation and empties the queue. The transcript stays visible here.',
        button: 'Clear',
      },
    ],
    failure: 'The session was not cleared',
  },
  {
    command: `${S}.pauseQueue`,
    title: 'Pause SCV Queue',
    icon: 'debug-pause',
    scope: 'run',
    when: { active: true, queuePaused: false },
    menus: [{ item: 'run', group: '2_scv@3' }],
    pickTarget: 'Pause the queue of which SCV session?',
    failure: 'The queue was not paused',
  },
  {
    command: `${S}.resumeQueue`,
    title: 'Resume SCV Queue',
    icon: 'debug-continue',
    scope: 'run',
    when: { active: true, queuePaused: true },
    menus: [{ item: 'run', group: '2_scv@3' }],
    pickTarget: 'Resume the queue of which SCV session?',
    failure: 'The queue was not resumed',
  },
  {
    command: `${S}.refreshStatus`,
    title: 'Refresh SCV Daemon Status',
    icon: 'refresh',
    scope: 'connection',
    menus: [{ item: 'connection', group: '4_scv@2' }],
    pickTarget: 'Refresh the status of which SCV daemon?',
    failure: 'SCV daemon status',
  },
  {
    command: `${S}.showStatus`,
    title: 'Show SCV Daemon Status',
    icon: 'json',
    scope: 'connection',
    menus: [{ item: 'connection', group: '4_scv@3' }],
    pickTarget: 'Show the status of which SCV daemon?',
    failure: 'SCV daemon status',
  },
  {
    command: `${S}.queueLeftoverPrompts`,
    title: 'Queue Leftover SCV Prompts',
    icon: 'send',
    scope: 'connection',
    pickTarget: 'Queue the leftover prompts of which SCV daemon?',
    failure: 'The leftover SCV prompts were not all queued',
  },
  {
    command: `${S}.discardLeftoverPrompts`,
    title: 'Discard Leftover SCV Prompts',
    icon: 'discard',
    scope: 'connection',
    pickTarget: 'Discard the leftover prompts of which SCV daemon?',
    failure: 'The leftover SCV prompts were not discarded',
  },
];

const STALE_LEFTOVERS = 'Those leftover SCV prompts were already queued or discarded, or their new session has ended. Nothing was changed.';
const NO_LEFTOVERS = 'There are no leftover SCV prompts: the previous session of this connection left none, or they were already queued or discarded.';

function promptCount(n: number): string {
  return `${n} queued prompt${n === 1 ? '' : 's'}`;
}

/** The notification a leftover offer becomes (only counts in the text: the prompts are in the transcript). */
export function leftoverActionOffer(connectionId: string, offer: ScvLeftoverOffer): ActionOffer {
  const n = offer.prompts.length;
  const answers = { offerId: offer.id };
  return {
    id: offer.id,
    level: 'info',
    message: `The previous SCV session ended with ${promptCount(n)} that never ran. Queue ${n === 1 ? 'it' : 'them'} in the new session?`,
    choices: [
      { label: 'Queue them', command: `${S}.queueLeftoverPrompts`, target: { connectionId }, answers },
      { label: 'Discard', command: `${S}.discardLeftoverPrompts`, target: { connectionId }, answers },
    ],
  };
}

/** The open offer, if it is the one `answers.offerId` names (when it names one). */
function currentOffer(driver: ScvDriver, answers: ActionAnswers): ScvLeftoverOffer | 'stale' | undefined {
  const offer = driver.leftoverOffer;
  if (answers.offerId !== undefined && offer?.id !== answers.offerId) {
    return 'stale';
  }
  return offer;
}

export async function performScvAction(driver: ScvDriver, command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
  const runId = target.runId ?? '';
  switch (command) {
    case `${S}.startSession`:
      try {
        return { kind: 'openRun', runId: await driver.startNewSession({ replace: answers.replace === true }) };
      } catch (error) {
        if (!(error instanceof DriverError && error.code === 'session_active')) {
          throw error;
        }
        return {
          kind: 'confirmFirst',
          message: 'End the current SCV session and start a new one here?',
          detail: 'A session lives on its connection: its running turn is cancelled. Its transcript is kept, and its queued prompts are offered to the new session.',
          button: 'Start New Session',
          answers: { replace: true },
        };
      }
    case `${S}.clearSession`:
      await driver.clearSession(runId);
      return { kind: 'done' };
    case `${S}.pauseQueue`:
    case `${S}.resumeQueue`:
      await driver.pauseQueue(runId, command === `${S}.pauseQueue`);
      return { kind: 'done' };
    case `${S}.refreshStatus`:
      await driver.refresh();
      return { kind: 'done' };
    case `${S}.showStatus`:
      return { kind: 'document', name: 'daemon-status.json', language: 'json', content: JSON.stringify(await driver.daemonStatus(), null, 2) };
    case `${S}.queueLeftoverPrompts`: {
      const offer = currentOffer(driver, answers);
      if (offer === undefined || offer === 'stale') {
        return { kind: 'declined', message: offer === 'stale' ? STALE_LEFTOVERS : NO_LEFTOVERS };
      }
      const sent = await driver.queueLeftoverPrompts();
      return { kind: 'openRun', runId: offer.toRunId, message: `Queued ${promptCount(sent)} left over from the previous SCV session.` };
    }
    case `${S}.discardLeftoverPrompts`: {
      const offer = currentOffer(driver, answers);
      if (offer === undefined || offer === 'stale') {
        return { kind: 'declined', message: offer === 'stale' ? STALE_LEFTOVERS : NO_LEFTOVERS };
      }
      driver.discardLeftoverPrompts();
      return { kind: 'done', status: `Discarded ${promptCount(offer.prompts.length)} left over from the previous SCV session.` };
    }
    default:
      throw new DriverError(`SCV has no action "${command}".`);
  }
}

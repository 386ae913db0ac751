/**
 * Finds the runs a harness restart stranded, before a start/recover reopens their session (WIRE.md 3.2, 6.3.4).
 *
 * Sessions are opened only by start/recover, so a restarted harness answers 404 session_not_found for every run of
 * a session until a command reopens it. From then on a stranded run pages normally — 200, a non-terminal state,
 * no new events, no worker — and nothing on the wire tells it from a quiet live run (only `cancel` would, by
 * cancelling it). The driver's pollers see the 404 only if they happen to page between the restart and the reopen,
 * which a poller in backoff easily misses. So right before sending a command that may reopen the session, the
 * driver pages each run it still follows there; the ones answered session_not_found are stranded.
 */
import type { Panel } from '../../model/modelTypes';
import { A3S_ERROR_CODE } from '../../protocol/a3s';
import type { A3sRunIdentity } from '../../protocol/a3s';
import { A3sError, A3sHttpError } from './a3sErrors';
import type { A3sRunBook } from './a3sRunBook';
import type { A3sClient } from './client';

export interface A3sProbeTarget {
  readonly identity: A3sRunIdentity;
  /** The run's cursor, so the probe asks for nothing the driver does not need anyway. */
  readonly after: number | null;
}

/**
 * What to probe before `book`'s command: the other runs of its session still followed (live, not stranded, not
 * recovered), except those whose own command is still in flight (a 404 for them says nothing about a restart).
 */
export function a3sProbeTargets(books: Iterable<A3sRunBook>, book: A3sRunBook, identityOf: (b: A3sRunBook) => A3sRunIdentity): A3sProbeTarget[] {
  return [...books]
    .filter((b) => b !== book && b.sessionId === book.sessionId && !b.terminal && !b.stranded && !b.awaitingReceipt && b.recoveredAs === undefined)
    .map((b) => ({ identity: identityOf(b), after: b.cursor }));
}

/**
 * The run ids among `targets` whose session the harness does not have open. A transport failure or timeout is
 * thrown (the command about to be sent would meet it too, and is retried as a whole); any other answer is left to
 * the run's own poller, which reports it.
 */
export async function findA3sStrandedRuns(client: Pick<A3sClient, 'eventPage'>, targets: readonly A3sProbeTarget[]): Promise<string[]> {
  const answers = await Promise.all(
    targets.map(async (target) => {
      try {
        await client.eventPage(target.identity, target.after, 1);
        return undefined;
      } catch (error) {
        if (error instanceof A3sHttpError && error.code === A3S_ERROR_CODE.sessionNotFound) {
          return target.identity.run_id;
        }
        if (error instanceof A3sError && (error.kind === 'transport' || error.kind === 'timeout')) {
          throw error;
        }
        return undefined;
      }
    }),
  );
  return answers.filter((runId): runId is string => runId !== undefined);
}

/** The panel offering recovery of a stranded run (its one action, `recover`, is handled by the driver). */
export function a3sRecoverPanel(id: string): Panel {
  return {
    id,
    title: 'Stranded run',
    entries: [{ id: 'recover', icon: 'debug-restart', label: 'Resume from the checkpoint', description: 'as a new run (Recover A3S Run)', actions: [{ id: 'recover', label: 'Recover' }] }],
  };
}

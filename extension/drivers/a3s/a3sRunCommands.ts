/**
 * The A3S commands the user sends (WIRE.md 6.3): start and recover make a new run, shown and stored before the
 * command goes out, and probe first for runs a harness restart stranded (the command may reopen their session,
 * after which nothing tells them from live runs: a3sStrandProbe.ts); cancel is retried under its request id. A
 * receipt that replays an earlier command or cannot be verified is said in the transcript; then the run is
 * followed (a3sRunFollower.ts).
 */
import { A3S_ERROR_CODE } from '../../protocol/a3s';
import type { StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { toDriverError } from '../kit/errors';
import { admitA3sCommand, replayedCommandText, unverifiedReceiptText, withA3sRetry } from './a3sCommandSend';
import type { A3sAdmission } from './a3sCommandSend';
import { A3sHttpError } from './a3sErrors';
import type { A3sRunBook } from './a3sRunBook';
import { newA3sRunBook, newA3sRunId } from './a3sRunBook';
import type { A3sRunFollower } from './a3sRunFollower';
import type { A3sRunParts } from './a3sRunParts';
import { A3S_RECOVER_PANEL } from './a3sRunParts';
import type { A3sRunExtra } from './a3sRunRecords';
import { a3sProbeTargets, findA3sStrandedRuns } from './a3sStrandProbe';
import type { A3sCommandResult } from './client';
import { promptProblem } from './validation';

const CANCEL_REASON = 'Cancelled from VS Code';

export class A3sRunCommands {
  constructor(
    private readonly parts: A3sRunParts,
    private readonly follower: A3sRunFollower,
    /** The session new runs start in (the profile's, or one kept in storage). */
    private readonly sessionId: () => Promise<string>,
  ) {}

  async start(options: StartRunOptions): Promise<string> {
    const problem = promptProblem(options.prompt);
    if (problem !== undefined) {
      throw new DriverError(`The prompt ${problem}.`);
    }
    const client = this.parts.requireReady();
    const runId = newA3sRunId();
    const book = this.newBook(runId, await this.sessionId(), { requestId: `start-${runId}` }, true);
    const title = options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'Untitled run';
    void this.parts.runs.fields(runId, { title, state: 'starting', workspaceRoots: options.workspaceRoots });
    await this.parts.saveRun(book);
    await this.parts.recordLocal(runId, { kind: 'userPrompt', text: options.prompt });
    await this.parts.checkpoints.boundary(runId, options.workspaceRoots); // the files before the run (turn 0)
    const result = await this.command(book, () => client.start(book.requestId!, this.parts.identity(book), options.prompt));
    await this.afterReceipt(book, result, 'start');
    return runId;
  }

  async cancel(book: A3sRunBook): Promise<void> {
    const client = this.parts.requireReady();
    book.cancelCount += 1;
    const requestId = `cancel-${book.runId}-${book.cancelCount}`;
    let result: A3sCommandResult;
    try {
      result = await withA3sRetry(() => client.cancel(requestId, this.parts.identity(book), CANCEL_REASON));
    } catch (error) {
      if (error instanceof A3sHttpError && (error.code === A3S_ERROR_CODE.runUnavailable || error.code === A3S_ERROR_CODE.sessionNotFound)) {
        await this.follower.markStranded(book, 'the harness has no worker for it any more (it probably restarted)');
        throw new DriverError('The harness cannot cancel this run: it is not active any more (stranded after a harness restart). Use "Recover A3S Run" to resume it from its checkpoint.', error.code);
      }
      throw toDriverError(error);
    }
    if (result.replayed) {
      await this.parts.recordLocal(book.runId, { kind: 'notice', text: 'Already finished: the run had ended before the cancel arrived.', level: 'info' });
    }
    this.follower.applyState(book.runId, result.receipt.state);
    book.poller?.wake();
  }

  /** Resumes a stranded run from its checkpoint as a new run (WIRE.md 6.3.4); resolves with the new run id. */
  async recover(old: A3sRunBook): Promise<string> {
    const oldRunId = old.runId;
    if (old.recoveredAs !== undefined) {
      throw new DriverError(`This run was already recovered as run ${old.recoveredAs}.`);
    }
    if (old.terminal && !old.stranded) {
      throw new DriverError('This run has finished; only a stranded or stuck run can be recovered.');
    }
    const client = this.parts.requireReady();
    const { runs } = this.parts;
    const oldRun = runs.get(oldRunId);
    const runId = newA3sRunId();
    const book = this.newBook(runId, old.sessionId, { requestId: `recover-${runId}`, recoveredFrom: oldRunId }, true);
    void runs.fields(runId, { title: `${oldRun?.title ?? oldRunId} (recovered)`, state: 'starting', ...(oldRun?.workspaceRoots ? { workspaceRoots: oldRun.workspaceRoots } : {}) });
    await this.parts.saveRun(book);
    await this.parts.recordLocal(runId, { kind: 'notice', text: `Recovering run ${oldRunId} from its checkpoint as this new run.`, level: 'info' });
    await this.parts.checkpoints.boundary(runId, oldRun?.workspaceRoots ?? []);
    const result = await this.command(book, () => client.recover(book.requestId!, this.parts.identity(book), oldRunId));
    this.follower.stopPolling(old);
    if (!old.stranded) {
      // A stuck run the user chose to recover: it is superseded by the new one.
      await this.parts.recordLocal(oldRunId, { kind: 'stateChanged', state: 'interrupted', announce: true });
    }
    old.stranded = false;
    old.terminal = true;
    old.changeSet = 'done';
    old.recoveredAs = runId;
    void runs.panels(oldRunId, (runs.get(oldRunId)?.panels ?? []).filter((p) => p.id !== A3S_RECOVER_PANEL), true);
    void runs.fields(oldRunId, { stateDetail: `Recovered as run ${runId}` });
    await this.parts.saveRun(old);
    await this.afterReceipt(book, result, 'recover');
    return runId;
  }

  /** `commandPending`: its start/recover is about to be sent (cleared once answered, see `command`). */
  newBook(runId: string, sessionId: string, extra: Partial<A3sRunExtra> = {}, commandPending = false): A3sRunBook {
    const book = { ...newA3sRunBook(runId, sessionId, extra), awaitingReceipt: commandPending };
    this.parts.books.set(runId, book);
    return book;
  }

  /**
   * A start/recover command, sent after probing for runs a harness restart stranded. On failure the run is marked
   * failed with the reason, and the error rethrown.
   */
  private async command(book: A3sRunBook, send: () => Promise<A3sCommandResult>): Promise<A3sAdmission> {
    try {
      return await admitA3sCommand(async () => {
        const targets = a3sProbeTargets(this.parts.books.values(), book, (b) => this.parts.identity(b));
        for (const runId of await findA3sStrandedRuns(this.parts.requireReady(), targets)) {
          const stranded = this.parts.books.get(runId); // a probe target, so always known
          if (stranded) {
            await this.follower.markStranded(stranded, 'the harness restarted and no longer has its session open');
          }
        }
        return send();
      });
    } catch (error) {
      const failure = toDriverError(error);
      book.terminal = true;
      book.changeSet = 'done';
      void this.parts.runs.fields(book.runId, { state: 'failed', stateDetail: failure.message });
      await this.parts.saveRun(book);
      throw failure;
    } finally {
      book.awaitingReceipt = false;
    }
  }

  private async afterReceipt(book: A3sRunBook, admission: A3sAdmission, action: 'start' | 'recover'): Promise<void> {
    if (admission.kind === 'unverified') {
      const text = unverifiedReceiptText(action, admission.mismatch);
      this.parts.log.warn(`A3S run ${book.runId}: ${text} (${admission.mismatch.message})`);
      await this.parts.recordLocal(book.runId, { kind: 'notice', text, level: 'warning' }); // the state comes from the first page
    } else {
      if (admission.result.replayed) {
        book.replayed = true;
        await this.parts.recordLocal(book.runId, { kind: 'notice', text: replayedCommandText(action), level: 'info' });
      }
      this.follower.applyState(book.runId, admission.result.receipt.state);
    }
    await this.parts.saveRun(book);
    this.follower.startPolling(book);
  }
}

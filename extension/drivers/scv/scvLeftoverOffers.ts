/**
 * Offering a session's leftover queued prompts to the next session of its connection (what is left over and what
 * to resend: `scvLeftovers.ts`). When a session starts and the previous one ended with prompts that never ran, an
 * offer is made (`onOffer`; the UI asks "Queue them" / "Discard"); the prompts stay with the ended run, on disk,
 * until the user answers. Queuing sends them in order with `turn.start` (the first may start a turn, the others
 * queue behind it) and never resends one whose outcome is unknown.
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import type { QueueEntry } from '../../protocol/scvTypes';
import type { DriverContext } from '../connectionManager';
import { DriverError } from '../driver';
import type { ScvClient } from './client';
import { toDriverError } from '../kit/errors';
import { unknownPromptOutcome } from './scvErrorText';
import { ScvUnknownOutcomeError } from './scvErrors';
import { leftoverOfferFor, quotePrompts } from './scvLeftovers';
import type { ScvLeftoverOffer } from './scvLeftovers';
import type { ScvStoredSessions } from './scvStoredSessions';
import type { DriverRuns } from '../kit/driverRuns';

const NO_LEFTOVERS = 'There are no leftover SCV prompts to queue: the previous session of this connection left none, or they were already queued or discarded.';

function plural(n: number): string {
  return `${n} queued prompt${n === 1 ? '' : 's'}`;
}

export class ScvLeftoverOffers {
  private readonly emitter: Emitter<ScvLeftoverOffer>;
  /** Fires when a new session is offered the previous session's leftovers. */
  readonly onOffer: Event<ScvLeftoverOffer>;
  private current: ScvLeftoverOffer | undefined;

  constructor(
    private readonly ctx: DriverContext,
    private readonly runs: DriverRuns,
    private readonly stored: ScvStoredSessions,
  ) {
    this.emitter = new Emitter<ScvLeftoverOffer>((error) => ctx.log.error(`SCV leftover prompts listener: ${String(error)}`));
    this.onOffer = this.emitter.event;
  }

  /** A session started (its first queue snapshot is `queued`): offer it the previous session's leftovers. */
  sessionStarted(runId: string, queued: readonly QueueEntry[]): void {
    const offer = leftoverOfferFor(this.runs.all(), this.ctx.connectionId, runId, (id) => this.stored.queuedOf(id), queued);
    this.current = offer;
    if (offer) {
      void this.runs.event(runId, {
        kind: 'notice',
        level: 'info',
        text: `The previous SCV session here ended with ${plural(offer.prompts.length)} that never ran: ${quotePrompts(offer.prompts)}. Use "Queue Leftover SCV Prompts" to queue them in this session.`,
      });
      this.emitter.fire(offer);
    }
  }

  /** The offer open for the live session `liveRunId`, if any. */
  offerFor(liveRunId: string | undefined): ScvLeftoverOffer | undefined {
    return this.current !== undefined && this.current.toRunId === liveRunId ? this.current : undefined;
  }

  /** Sends the offered prompts into the live session; resolves with how many were sent. */
  async queue(client: ScvClient, liveRunId: string | undefined): Promise<number> {
    const offer = this.take(liveRunId);
    let sent = 0;
    for (const prompt of offer.prompts) {
      try {
        await client.startTurn(prompt.prompt, prompt.attachments);
        sent += 1;
      } catch (error) {
        const unknown = error instanceof ScvUnknownOutcomeError;
        // A prompt whose outcome is unknown may have run: it is not kept for another try. The rest stay offered.
        const rest = offer.prompts.slice(sent + (unknown ? 1 : 0));
        this.stored.setQueued(offer.fromRunId, rest);
        this.current = rest.length > 0 ? { ...offer, prompts: rest } : undefined;
        if (unknown) {
          void this.runs.event(offer.toRunId, {
            kind: 'notice',
            level: 'warning',
            text: `SCV did not confirm the leftover prompt ${quotePrompts([prompt])}: it may or may not have been queued. It was not resent.`,
          });
          throw unknownPromptOutcome(error);
        }
        throw toDriverError(error);
      }
    }
    this.stored.setQueued(offer.fromRunId, []);
    void this.runs.event(offer.fromRunId, { kind: 'notice', level: 'info', text: `Its ${plural(sent)} were queued in a new session.` });
    void this.runs.event(offer.toRunId, { kind: 'notice', level: 'info', text: `Queued ${plural(sent)} left over from the previous session.` });
    return sent;
  }

  /** The run whose prompts are offered was removed (or the session offered them): the offer is withdrawn. */
  forgetRun(runId: string): void {
    if (this.current?.fromRunId === runId || this.current?.toRunId === runId) {
      this.current = undefined;
    }
  }

  /** Drops the offered prompts for good. */
  discard(liveRunId: string | undefined): void {
    const offer = this.take(liveRunId);
    this.stored.setQueued(offer.fromRunId, []);
    void this.runs.event(offer.fromRunId, { kind: 'notice', level: 'info', text: `Its ${plural(offer.prompts.length)} that never ran were discarded.` });
  }

  dispose(): void {
    this.emitter.dispose();
  }

  /** Claims the offer synchronously, so a second "Queue them" (another notification, the palette) sends nothing. */
  private take(liveRunId: string | undefined): ScvLeftoverOffer {
    const offer = this.offerFor(liveRunId);
    if (!offer) {
      throw new DriverError(NO_LEFTOVERS, 'no_leftovers');
    }
    this.current = undefined;
    return offer;
  }
}

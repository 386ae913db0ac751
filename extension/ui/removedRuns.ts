/**
 * Runs the person removed (*Remove Run*, *Clear Finished Runs…*): each owner of something kept per run in the
 * editor's state — the composer drafts (draftStore.ts), the remembered selection (selectionMemory.ts), the board's
 * acknowledgements (board/boardAcknowledgements.ts) — listens and forgets its own part, so state of a removed run
 * never outlives it and each piece keeps its one writer. The run's files are the driver's to delete (DriverHistory).
 */
import { Emitter } from '../base/emitter';
import type { Event } from '../base/emitter';

export class RemovedRuns {
  private readonly emitter = new Emitter<string>();
  /** A run is gone: its key. */
  readonly onDidRemove: Event<string> = this.emitter.event;

  removed(runKey: string): void {
    this.emitter.fire(runKey);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

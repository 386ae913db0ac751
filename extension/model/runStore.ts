/**
 * The one store: owns the model state and every run's transcript. Drivers change it only through the kit's door
 * (drivers/kit/driverRuns.ts), the UI through model actions; views subscribe to `onDidChange` (run/connection/approval
 * state) and `onDidPatch` (transcript patches, each with its sequence).
 */
import { Emitter } from '../base/emitter';
import type { TranscriptPatch } from '../protocol/transcriptTypes';
import type { ModelAction } from './modelActions';
import type { ModelState } from './modelTypes';
import { emptyModelState } from './modelTypes';
import { runKeyOf } from './runKeys';
import { reduce } from './reducer';
import { flattenSettledText, settlesItem } from './settledText';
import { Transcript } from './transcript';

export interface PatchEvent {
  readonly runKey: string;
  readonly seq: number;
  readonly patch: TranscriptPatch;
}

export class RunStore {
  private current: ModelState = emptyModelState;
  private readonly transcripts = new Map<string, Transcript>();
  private readonly changeEmitter: Emitter<ModelState>;
  private readonly patchEmitter: Emitter<PatchEvent>;
  /** Open `holdChanges` holds, and whether the state changed under them. */
  private holds = 0;
  private changedWhileHeld = false;

  readonly onDidChange;
  readonly onDidPatch;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.changeEmitter = new Emitter<ModelState>(onError);
    this.patchEmitter = new Emitter<PatchEvent>(onError);
    this.onDidChange = this.changeEmitter.event;
    this.onDidPatch = this.patchEmitter.event;
  }

  get state(): ModelState {
    return this.current;
  }

  transcript(runKey: string): Transcript | undefined {
    return this.transcripts.get(runKey);
  }

  dispatch(action: ModelAction): void {
    const before = this.current;
    const result = reduce(before, action, this.clock());
    this.current = result.state;
    if (action.type === 'runRestored' && action.unloaded) {
      this.transcripts.delete(runKeyOf(action.connectionId, action.runId)); // shown from its digest: none in memory
    } else if (action.type === 'runRestored') {
      // Restored whole, not item by item (model/runCheckpoint.ts); a view of the run starts from a snapshot.
      const { items, seq } = action.checkpoint;
      this.transcripts.set(runKeyOf(action.connectionId, action.runId), action.transcript ?? Transcript.restore(items, seq));
    }
    for (const { runKey, patch } of result.patches) {
      let transcript = this.transcripts.get(runKey);
      if (!transcript) {
        transcript = new Transcript();
        this.transcripts.set(runKey, transcript);
      }
      try {
        const seq = transcript.apply(patch);
        if (settlesItem(patch)) {
          flattenSettledText(transcript.get(patch.id));
        }
        this.patchEmitter.fire({ runKey, seq, patch });
      } catch (error) {
        // A reducer bug must not take the extension down; it is logged and the view can resync from a snapshot.
        this.onError(error);
      }
    }
    if ((action.type === 'runLoading' || action.type === 'runReleased') && result.state !== before) {
      this.transcripts.delete(action.runKey); // a replay starts it anew; a released run has none
    }
    if (action.type === 'runRemoved' || action.type === 'connectionRemoved') {
      for (const key of [...this.transcripts.keys()]) {
        if (!this.current.runs.has(key)) {
          this.transcripts.delete(key);
        }
      }
    }
    if (result.changed) {
      if (this.holds > 0) {
        this.changedWhileHeld = true;
      } else {
        this.changeEmitter.fire(this.current);
      }
    }
  }

  /**
   * Defers `onDidChange` until the returned release is called (every hold released): a journal replay of 100k
   * records then notifies the views once, with the final state, instead of once per record (each one a tree
   * refresh, a status bar update, a `setContext` round trip to the workbench). Patches still go out as they happen.
   */
  holdChanges(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.changedWhileHeld) {
        this.changedWhileHeld = false;
        this.changeEmitter.fire(this.current);
      }
    };
  }

  dispose(): void {
    this.changeEmitter.dispose();
    this.patchEmitter.dispose();
  }
}

/**
 * The one owner and writer of every run's pending notes to the agent (issue #26). A run's notes are read from its
 * `<run>.notes.json` (storage/reviewNoteFile.ts, beside the run's journal) the first time they are asked for, kept in
 * memory, and written back after every change, one write at a time per run, so they survive a reload until they are
 * sent or discarded. Remove Run deletes the file with the run's other files; `forget` drops the memory.
 *
 * Every change goes through here and is announced once (`onDidChange`), so each view of the run (the sidebar, the
 * run's tab) shows the same notes. No `vscode`.
 */
import { randomUUID } from 'node:crypto';
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import type { ReviewNotes } from '../../changeSets/reviewNoteList';
import { addNote, editNote, readStoredNotes, removeNote, storedNotes, withoutSent } from '../../changeSets/reviewNoteList';
import type { ReviewNote, ReviewNoteAnchor } from '../../protocol/reviewNotes';
import { readReviewNoteFile, writeReviewNoteFile } from '../../storage/reviewNoteFile';
import type { RunFilePlace } from '../../drivers/kit/runJournaling';

export interface ReviewNotesChange {
  readonly runKey: string;
  readonly notes: ReviewNotes;
}

export class ReviewNoteStore {
  private readonly loaded = new Map<string, ReviewNotes>();
  private readonly loading = new Map<string, Promise<ReviewNotes>>();
  private readonly writes = new Map<string, Promise<void>>();
  private readonly changeEmitter = new Emitter<ReviewNotesChange>();
  readonly onDidChange: Event<ReviewNotesChange> = this.changeEmitter.event;

  constructor(
    /** Where the run's files are; undefined for a run that is not known (nothing is read or written for it). */
    private readonly placeOf: (runKey: string) => RunFilePlace | undefined,
    private readonly onWriteError: (runKey: string, error: unknown) => void = () => {},
    private readonly newId: () => string = randomUUID,
  ) {}

  /** The notes held in memory (undefined: not read yet). */
  peek(runKey: string): ReviewNotes | undefined {
    return this.loaded.get(runKey);
  }

  /** The run's notes, read from its file the first time. */
  notes(runKey: string): Promise<ReviewNotes> {
    const held = this.loaded.get(runKey);
    if (held) {
      return Promise.resolve(held);
    }
    let pending = this.loading.get(runKey);
    if (!pending) {
      const place = this.placeOf(runKey);
      pending = (place ? readReviewNoteFile(place.dir, place.runId) : Promise.resolve(undefined)).then((raw) => {
        this.loading.delete(runKey);
        const notes = this.loaded.get(runKey) ?? readStoredNotes(raw); // a change while reading wins
        this.loaded.set(runKey, notes);
        return notes;
      });
      this.loading.set(runKey, pending);
    }
    return pending;
  }

  async add(runKey: string, anchor: ReviewNoteAnchor, text: string): Promise<ReviewNote> {
    const id = this.newId();
    const next = addNote(await this.notes(runKey), anchor, text, id);
    this.commit(runKey, next);
    return next.find((n) => n.id === id)!;
  }

  async edit(runKey: string, noteId: string, text: string): Promise<void> {
    this.commit(runKey, editNote(await this.notes(runKey), noteId, text));
  }

  async remove(runKey: string, noteId: string): Promise<void> {
    this.commit(runKey, removeNote(await this.notes(runKey), noteId));
  }

  /** Drops every note of the run (Discard Notes). */
  async discard(runKey: string): Promise<void> {
    await this.notes(runKey);
    this.commit(runKey, []);
  }

  /** The send of `sent` was accepted: those notes go; any added meanwhile stay. */
  async sent(runKey: string, sent: ReviewNotes): Promise<void> {
    this.commit(runKey, withoutSent(await this.notes(runKey), sent));
  }

  /** The run was removed: its file went with its other files; forget what is in memory. */
  forget(runKey: string): void {
    this.loaded.delete(runKey);
    this.loading.delete(runKey);
  }

  /** Resolves when every write begun so far is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes.values()]);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private commit(runKey: string, notes: ReviewNotes): void {
    const before = this.loaded.get(runKey);
    if (before === notes || (before?.length === 0 && notes.length === 0)) {
      return;
    }
    this.loaded.set(runKey, notes);
    this.changeEmitter.fire({ runKey, notes });
    const place = this.placeOf(runKey);
    if (!place) {
      return;
    }
    // One write at a time per run, each of the list as it is when the write starts (the last change always lands).
    const previous = this.writes.get(runKey) ?? Promise.resolve();
    const write = previous
      .then(() => {
        const latest = this.loaded.get(runKey) ?? [];
        return writeReviewNoteFile(place.dir, place.runId, latest.length === 0 ? undefined : storedNotes(latest));
      })
      .catch((error: unknown) => this.onWriteError(runKey, error))
      .finally(() => {
        if (this.writes.get(runKey) === write) {
          this.writes.delete(runKey);
        }
      });
    this.writes.set(runKey, write);
  }
}

/**
 * Reading a change set's patch without stalling the extension host (issue #25 §3): the parse of a 4 MiB patch took
 * ~200 ms in one go in whichever view asked first. It is now read once per change-set object in slices
 * (changeSets/patchReading.ts); until it is read, every view shows "reading…" (the side panel, the board's counts),
 * and everything that needs its files — show, open, apply, revert — waits for the whole read (`readChangeSet`):
 * nothing ever sees half a change set. When a read ends, `onDidReadChangeSet` tells the views to derive again.
 * Pure (no `vscode`).
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import { TimeSlices } from '../../base/timeSlices';
import { readGitPatch } from '../../changeSets/patchReading';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo } from '../../model/modelTypes';

export type ParsedChangeSet = { readonly ok: true; readonly files: readonly PatchFile[] } | { readonly ok: false; readonly error: string };

/** Where the read of a change set stands: still reading, or read (its files, or why they cannot be read). */
export type ChangeSetRead = { readonly reading: true } | (ParsedChangeSet & { readonly reading?: false });

interface Entry {
  readonly done: Promise<ParsedChangeSet>;
  result?: ParsedChangeSet;
}

// One read per change-set object: the reducer replaces the object when the change set changes, so identity is the
// key, and a replaced set's entry goes with it.
const reads = new WeakMap<ChangeSetInfo, Entry>();
const readEmitter = new Emitter<ChangeSetInfo>();

/** Fires with a change set whose read just ended (read or unreadable). */
export const onDidReadChangeSet: Event<ChangeSetInfo> = readEmitter.event;

function entryOf(info: ChangeSetInfo): Entry {
  let entry = reads.get(info);
  if (!entry) {
    const done = readGitPatch(info.patch ?? '', new TimeSlices()).then(
      (patch): ParsedChangeSet => ({ ok: true, files: patch.files }),
      (error: unknown): ParsedChangeSet => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    const created: Entry = { done };
    void done.then((result) => {
      created.result = result;
      readEmitter.fire(info);
    });
    reads.set(info, created);
    entry = created;
  }
  return entry;
}

/** The read of a change set as it stands now; starts it if nothing asked before. Never blocks. */
export function changeSetRead(info: ChangeSetInfo): ChangeSetRead {
  return entryOf(info).result ?? { reading: true };
}

/** The whole read of a change set (its files, or why they cannot be read). */
export function readChangeSet(info: ChangeSetInfo): Promise<ParsedChangeSet> {
  return entryOf(info).done;
}

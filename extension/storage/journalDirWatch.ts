/**
 * Watches a connection's journal directory for what other editor windows of this machine change in it (issue #25
 * §1: a second window learned of a new run only at its next 15 s `list_runs`). `fs.watch` (inotify, FSEvents,
 * ReadDirectoryChangesW) names the files that changed; changes are collected and reported together once the
 * directory has been quiet for DEBOUNCE_MS — a streaming run appends many times a second, and a rename of the index
 * reports both of its names.
 *
 * Not every file system can be watched (ENOSPC: out of inotify watches; network and some container file systems;
 * `fs.watch` throwing or emitting `error`): then it says so once and stops, and the driver's own polling (the run
 * lists re-read every 15 s, ui/runListAutoRefresh.ts) is all there is, as before.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';

/** Changes closer together than this are reported once. */
export const DEBOUNCE_MS = 150;

/** Starts watching `dir`; `onChange` gets the names of the files that changed. Returns the stop. */
export function watchJournalDir(dir: string, onChange: (names: ReadonlySet<string>) => void, warn: (message: string) => void): () => void {
  let watcher: FSWatcher | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const names = new Set<string>();
  const failed = (error: unknown): void => {
    if (!stopped) {
      warn(`Not watching ${dir} for other windows' runs (${error instanceof Error ? error.message : String(error)}); their new runs show at the next refresh.`);
    }
    stop();
  };
  const stop = (): void => {
    stopped = true;
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    watcher?.close();
    watcher = undefined;
  };
  void mkdir(dir, { recursive: true }).then(() => {
    if (stopped) {
      return;
    }
    try {
      // Not persistent: a watch must never keep an extension host (or a test) alive.
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (typeof name !== 'string' || stopped) {
          return;
        }
        names.add(name);
        if (timer !== undefined) {
          clearTimeout(timer);
        }
        timer = setTimeout(() => {
          timer = undefined;
          const changed = new Set(names);
          names.clear();
          try {
            onChange(changed);
          } catch (error) {
            warn(`Following other windows' runs: ${error instanceof Error ? error.message : String(error)}`);
          }
        }, DEBOUNCE_MS);
      });
      watcher.on('error', failed);
    } catch (error) {
      failed(error);
    }
  }, failed);
  return stop;
}

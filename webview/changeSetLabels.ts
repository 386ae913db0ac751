/** How a change-set file is named and badged, shared by the file list and the diff's file headers. */
import type { ChangeSetFileView } from '../extension/protocol/webviewMessages';
import { h } from './dom';

const STATUS_LETTER: Readonly<Record<ChangeSetFileView['status'], string>> = {
  added: 'A',
  deleted: 'D',
  modified: 'M',
  renamed: 'R',
  copied: 'C',
};

/** `src/a.ts`, or `old.ts → new.ts` for renames and copies. */
export function fileLabel(file: ChangeSetFileView): string {
  return file.oldPath !== undefined ? `${file.oldPath} → ${file.path}` : file.path;
}

/** `{ name: 'a.ts', dir: 'src/lib' }` (dir '' at the root). */
export function splitPath(path: string): { name: string; dir: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { name: path, dir: '' } : { name: path.slice(slash + 1), dir: path.slice(0, slash) };
}

/** What a screen reader hears for a file: path, status and counts. */
export function fileDescription(file: ChangeSetFileView): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const counts = file.binary ? 'binary' : `${plural(file.additions, 'addition')}, ${plural(file.deletions, 'deletion')}`;
  const author = file.author ? (file.author.kind === 'run' ? `, by ${file.author.title ?? 'another run'}` : ', shared tree') : '';
  return `${fileLabel(file)}, ${file.status}, ${counts}${author}`;
}

/** The one-letter status badge (A, D, M, R, C) with the status word as its tooltip. */
export function statusBadge(file: ChangeSetFileView): HTMLSpanElement {
  return h('span', { class: `cs-status cs-status-${file.status}`, title: file.status, 'aria-hidden': 'true' }, STATUS_LETTER[file.status]);
}

/** `+12 −3` (or `binary`), coloured. */
export function countsView(file: ChangeSetFileView): HTMLSpanElement {
  if (file.binary) {
    return h('span', { class: 'cs-counts', 'aria-hidden': 'true' }, h('span', { class: 'cs-binary' }, 'binary'));
  }
  return h(
    'span',
    { class: 'cs-counts', 'aria-hidden': 'true' },
    h('span', { class: 'cs-additions' }, `+${file.additions}`),
    h('span', { class: 'cs-deletions' }, `−${file.deletions}`),
  );
}

/** `3 files · +10 −4`. */
export function totalsText(files: readonly ChangeSetFileView[]): string {
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  return `${files.length} file${files.length === 1 ? '' : 's'} changed · +${additions} −${deletions}`;
}

/** "by Fix the README" / "shared tree" with why, for a file another run changed (none for the run's own). */
export function authorView(file: ChangeSetFileView): HTMLSpanElement | null {
  const author = file.author;
  if (!author) {
    return null;
  }
  const text = author.kind === 'run' ? `by ${author.title ?? 'another run'}` : 'shared tree';
  const why =
    author.kind === 'run'
      ? `Another run ("${author.title ?? ''}") reported this edit while this run worked in the same folder.`
      : 'Another run worked in the same folder meanwhile and no run reported this edit: who made it is a guess.';
  return h('span', { class: `cs-file-by cs-file-by-${author.kind}`, title: why }, text);
}

/** Whether a file is another run's reported edit (what "Other runs' edits" hides). */
export function byOtherRun(file: ChangeSetFileView): boolean {
  return file.author?.kind === 'run';
}

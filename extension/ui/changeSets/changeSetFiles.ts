/**
 * A change set as a list of files: file labels and the "changeSet" side panel of the run, from the read of its patch
 * (changeSetReading.ts). Pure (no `vscode`), so it is unit-tested under Node.
 */
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo, Panel } from '../../model/modelTypes';
import { protectedPathsOf } from '../../protocol/protectedPaths';
import { changeSetRead } from './changeSetReading';

/** The id of the change-set side panel; its actions are handled by the UI (transcriptActions), not a driver. */
export const CHANGE_SET_PANEL_ID = 'changeSet';
/** The panel entry for the whole change set. */
export const ALL_FILES_ENTRY = 'all';

export const CHANGE_SET_PANEL_ACTIONS = ['openAll', 'applyAll', 'copyPatch', 'savePatch', 'openDiff', 'applyFile', 'applyHunks', 'revertAll', 'revertFile', 'revertHunks'] as const;
export type ChangeSetPanelAction = (typeof CHANGE_SET_PANEL_ACTIONS)[number];

export function fileEntryId(index: number): string {
  return `file:${index}`;
}

/** The file a panel entry id stands for: looked up among the ids the panel gives its files, not parsed. */
export function fileOfEntry(files: readonly PatchFile[], entryId: string): number | undefined {
  const index = files.findIndex((_, i) => fileEntryId(i) === entryId);
  return index >= 0 ? index : undefined;
}

/** A file reference from a command argument: an index, a panel entry id (`file:N`) or a path (new or old). */
export function resolveFileRef(files: readonly PatchFile[], ref: unknown): number | undefined {
  if (typeof ref === 'number') {
    return Number.isInteger(ref) && ref >= 0 && ref < files.length ? ref : undefined;
  }
  if (typeof ref !== 'string') {
    return undefined;
  }
  const entry = fileOfEntry(files, ref);
  if (entry !== undefined) {
    return entry;
  }
  const byNew = files.findIndex((f) => f.newPath === ref);
  const index = byNew >= 0 ? byNew : files.findIndex((f) => f.oldPath === ref);
  return index >= 0 ? index : undefined;
}

/** `src/a.ts`, or `old.ts → new.ts` for renames and copies. */
export function fileLabel(file: PatchFile): string {
  return file.status === 'renamed' || file.status === 'copied' ? `${file.oldPath} → ${file.newPath}` : file.newPath;
}

export function modeChanged(file: PatchFile): boolean {
  return file.oldMode !== undefined && file.newMode !== undefined && file.oldMode !== file.newMode;
}

/** The status words of a file: added, deleted, renamed, copied, modified, plus mode and binary. */
export function fileStatusText(file: PatchFile): string {
  const words: string[] = [file.status];
  if (modeChanged(file)) {
    words.push(`mode ${file.oldMode} → ${file.newMode}`);
  }
  if (file.binary) {
    words.push('binary');
  }
  return words.join(', ');
}

function fileIcon(file: PatchFile): string {
  if (file.binary) {
    return 'file-binary';
  }
  switch (file.status) {
    case 'added':
      return 'diff-added';
    case 'deleted':
      return 'diff-removed';
    case 'renamed':
      return 'diff-renamed';
    case 'copied':
      return 'copy';
    default:
      return 'diff-modified';
  }
}

function counts(additions: number, deletions: number): string {
  return `+${additions} −${deletions}`;
}

/** Whether "Apply hunks…" makes sense: a text file edited in place with hunks to choose from. */
export function hunksSelectable(file: PatchFile): boolean {
  return !file.binary && file.status === 'modified' && file.hunks.length > 0;
}

const panelCache = new WeakMap<ChangeSetInfo, Panel>();

/**
 * The run's "changeSet" side panel for any status of the change set. Derived on every summary the view builds
 * (runPanels.ts), hence built once per change-set object: a patch of thousands of files is not re-listed per event.
 */
export function buildChangeSetPanel(info: ChangeSetInfo): Panel {
  let panel = panelCache.get(info);
  if (!panel) {
    const built = changeSetPanelOf(info);
    if (built === READING) {
      return readingPanel(info);
    }
    panel = built;
    panelCache.set(info, panel);
  }
  return panel;
}

const READING = Symbol('reading');

function titleOf(info: ChangeSetInfo): string {
  return info.source === 'local' ? 'Change set (computed locally)' : 'Change set';
}

/** While the patch is read: no entries, so nothing can be opened or applied from half a change set. */
function readingPanel(info: ChangeSetInfo): Panel {
  return { id: CHANGE_SET_PANEL_ID, title: titleOf(info), emptyText: 'Reading the change set…', entries: [] };
}

function changeSetPanelOf(info: ChangeSetInfo): Panel | typeof READING {
  const title = titleOf(info);
  switch (info.status) {
    case 'capturing':
      return { id: CHANGE_SET_PANEL_ID, title, emptyText: info.reason ?? 'The change set is being captured…', entries: [] };
    case 'unavailable':
      return { id: CHANGE_SET_PANEL_ID, title, emptyText: info.reason ?? 'There is no change set for this run.', entries: [] };
    case 'refused':
      // The delivered patch failed its digest, length or decoding check: nothing of it is shown or applied.
      return { id: CHANGE_SET_PANEL_ID, title, tone: 'error', emptyText: `Refused: ${info.reason ?? 'the change set failed verification.'}`, entries: [] };
    case 'ready':
      break;
  }
  const parsed = changeSetRead(info);
  if (parsed.reading === true) {
    return READING;
  }
  const patchActions = [
    { id: 'copyPatch', label: 'Copy patch' },
    { id: 'savePatch', label: 'Save patch as…' },
  ];
  if (!parsed.ok) {
    return {
      id: CHANGE_SET_PANEL_ID,
      title,
      emptyText: `The patch could not be read: ${parsed.error}`,
      entries: [{ id: ALL_FILES_ENTRY, icon: 'warning', label: 'Unreadable patch', description: 'copy or save it to inspect it', actions: patchActions }],
    };
  }
  if (parsed.files.length === 0) {
    return { id: CHANGE_SET_PANEL_ID, title, emptyText: 'The run changed no files.', entries: [] };
  }
  const local = info.source === 'local';
  const additions = parsed.files.reduce((n, f) => n + f.additions, 0);
  const deletions = parsed.files.reduce((n, f) => n + f.deletions, 0);
  const all = {
    id: ALL_FILES_ENTRY,
    icon: 'diff-multiple',
    label: `${parsed.files.length} file${parsed.files.length === 1 ? '' : 's'} changed`,
    description: counts(additions, deletions),
    // With protected files in it, Apply's own question names them (include / without / cancel) and stands in for
    // this one: two modals in a row would teach people to click through the second.
    actions: [
      { id: 'openAll', label: 'Open all changes' },
      // A local change set is already in the files (the agent wrote them): what the person can do is take it back.
      local ? { id: 'revertAll', label: 'Revert all' } : { id: 'applyAll', label: 'Apply change set', confirm: !touchesProtected(parsed.files) },
      ...patchActions,
    ],
  };
  const files = parsed.files.map((file, index) => ({
    id: fileEntryId(index),
    icon: fileIcon(file),
    label: fileLabel(file),
    description: file.binary ? fileStatusText(file) : `${counts(file.additions, file.deletions)} · ${fileStatusText(file)}`,
    actions: [
      { id: 'openDiff', label: 'Open diff' },
      ...(file.binary ? [] : [local ? { id: 'revertFile', label: 'Revert file' } : { id: 'applyFile', label: 'Apply file' }]),
      ...(hunksSelectable(file) ? [local ? { id: 'revertHunks', label: 'Revert hunks…' } : { id: 'applyHunks', label: 'Apply hunks…' }] : []),
    ],
  }));
  return { id: CHANGE_SET_PANEL_ID, title, count: files.length, entries: [all, ...files] };
}

/** Whether any file of the change set (either side of a rename) is a protected path (protocol/protectedPaths.ts). */
function touchesProtected(files: readonly PatchFile[]): boolean {
  return protectedPathsOf(files.flatMap((f) => [f.oldPath, f.newPath])).length > 0;
}

/**
 * The neutral model of a parsed git patch (files, hunks, lines) that every change-set consumer reads — the diff
 * view, hunk apply, the apply plan and the webview rows. Daemon-independent: the same model describes a patch an
 * A3S harness delivered and one the editor computed from local git tree snapshots.
 */
export type PatchFileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
export type PatchLineKind = 'context' | 'add' | 'del' | 'noeol';

export interface PatchLine {
  readonly kind: PatchLineKind;
  /** The line without its one-character prefix (and without the LF); for `noeol`, the marker text. */
  readonly text: string;
}

export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** The whole `@@ … @@ <section>` line. */
  readonly header: string;
  /** A `noeol` line follows the line that has no final newline. */
  readonly lines: readonly PatchLine[];
}

export interface PatchFile {
  /** Path before (for `added`, equal to `newPath`), without the `a/` prefix, unquoted. */
  readonly oldPath: string;
  /** Path after (for `deleted`, equal to `oldPath`), without the `b/` prefix, unquoted. */
  readonly newPath: string;
  readonly status: PatchFileStatus;
  readonly oldMode?: string;
  readonly newMode?: string;
  readonly binary: boolean;
  /** `similarity index` of a rename/copy, in percent. */
  readonly similarity?: number;
  readonly hunks: readonly PatchHunk[];
  readonly additions: number;
  readonly deletions: number;
}

export interface ParsedPatch {
  readonly files: readonly PatchFile[];
}

export class PatchParseError extends Error {
  constructor(message: string) {
    super(`cannot parse patch: ${message}`);
    this.name = 'PatchParseError';
  }
}

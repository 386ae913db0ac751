/**
 * The windowed transcript's sizes, shared by the host's model (extension/model/transcriptWindow.ts) and the webview:
 * a snapshot carries the last `snapshotItems` items (a few screens of the tallest view); a `range` asks for at most
 * `rangeMax`; `find` reports at most `findMaxHits` indices. No imports: shared with the webview bundle.
 */
export const TRANSCRIPT_WINDOW = { snapshotItems: 150, rangeMax: 400, findMaxHits: 5_000 } as const;

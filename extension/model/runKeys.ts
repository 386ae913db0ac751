/**
 * The one format of the keys the model files runs and approvals under, and the one place that builds or reads it.
 * A run is `<connectionId>::<runId>` (connection ids are `<protocol>:<name>`, one colon), an approval
 * `<runKey>::<approvalId>`. Everything else treats a key as opaque: it is built here from its parts and, where a
 * command argument may be a run key, a connection id or an approval key, told apart here.
 */

const SEPARATOR = '::';

/** A run's key in the model (`ModelState.runs`, `RunInfo.key`). */
export type RunKey = `${string}::${string}`;

/** An approval's key in the model (`ModelState.approvals`, `ApprovalInfo.key`): its run's key and its id. */
export type ApprovalKey = `${RunKey}::${string}`;

export function runKeyOf(connectionId: string, runId: string): RunKey {
  return `${connectionId}${SEPARATOR}${runId}`;
}

/**
 * The run keys of one connection, each built once: a busy stream asks for its run's key several times per record
 * (the door, the recorder, the model action), and a key built afresh is a new string to hash every time. Runs of
 * several streams interleave, so one remembered key is not enough; a removed run is forgotten.
 */
export class RunKeyCache {
  private readonly keys = new Map<string, RunKey>();

  constructor(readonly connectionId: string) {}

  of(runId: string): RunKey {
    let key = this.keys.get(runId);
    if (key === undefined) {
      key = runKeyOf(this.connectionId, runId);
      this.keys.set(runId, key);
    }
    return key;
  }

  forget(runId: string): void {
    this.keys.delete(runId);
  }
}

/** The parts of a run key (a connection id has no `::`; a run id may). */
export function runKeyParts(runKey: string): { readonly connectionId: string; readonly runId: string } | undefined {
  const at = runKey.indexOf(SEPARATOR);
  return at > 0 ? { connectionId: runKey.slice(0, at), runId: runKey.slice(at + SEPARATOR.length) } : undefined;
}

export function approvalKeyOf(runKey: RunKey, approvalId: string): ApprovalKey {
  return `${runKey}${SEPARATOR}${approvalId}`;
}

/**
 * A command argument that names a run (a run key), not a connection (a connection id has no `::`). Palette commands
 * take either as a plain string; this is how they tell them apart.
 */
export function asRunKey(value: unknown): RunKey | undefined {
  return typeof value === 'string' && value.includes(SEPARATOR) ? (value as RunKey) : undefined;
}

/** A command argument that names a connection: a string that is not a run key. */
export function asConnectionId(value: unknown): string | undefined {
  return typeof value === 'string' && !value.includes(SEPARATOR) ? value : undefined;
}

/** A command argument that names an approval: a key of exactly three parts (connection, run, approval). */
export function asApprovalKey(value: unknown): ApprovalKey | undefined {
  return typeof value === 'string' && value.split(SEPARATOR).length === 3 ? (value as ApprovalKey) : undefined;
}

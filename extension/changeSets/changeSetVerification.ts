/**
 * Verification of a change set a daemon delivers as data (A3S today, WIRE.md 3.8): format and encoding, tree ids,
 * the patch length, strict base64 and the sha256 digest — all checked before anything is displayed or applied. A
 * change set that fails a check is refused as a whole, naming the check; nothing partial is ever returned.
 *
 * Daemon-independent: it checks the fields any delivered git-patch change set carries, once the driver has parsed
 * its own wire schema and checked what only that wire has (for A3S: the schema id, the echoed run identity and the
 * terminal state — drivers/a3s/changeSet.ts). The check names are the field names of that delivered shape.
 */
import { createHash } from 'node:crypto';

/** The check a delivered change set failed. */
export type ChangeSetCheck = 'format' | 'encoding' | 'base64' | 'patch_bytes' | 'patch_digest' | 'base_tree' | 'result_tree';

/** The fields of a delivered change set, as the driver read them from its wire (not yet trusted). */
export interface DeliveredChangeSet {
  readonly format: string;
  readonly encoding: string;
  /** `git-tree:<hex>` of the workspace before the run. */
  readonly baseTree: string;
  readonly resultTree: string;
  /** `sha256:<hex>` of the decoded patch. */
  readonly patchDigest: string;
  readonly patchBytes: number;
  readonly patchBase64: string;
}

/** What the daemon's wire promises. */
export interface ChangeSetExpectations {
  /** The patch format name (A3S: `git_unified_diff_v1`). */
  readonly format: string;
  /** The only encoding decoded here. */
  readonly encoding: 'base64';
  /** The largest decoded patch the daemon may send. */
  readonly maxPatchBytes: number;
}

/** A delivered change set that passed every check. */
export interface VerifiedPatch {
  readonly baseTree: string;
  readonly resultTree: string;
  readonly patchDigest: string;
  readonly patchBytes: number;
  /** The decoded git unified diff (empty when nothing changed). */
  readonly patch: Buffer;
}

/** A change set failed one verification check and must not be shown or applied. */
export class ChangeSetRejectedError extends Error {
  constructor(
    readonly check: ChangeSetCheck,
    readonly detail: string,
  ) {
    super(`change set refused (check ${check}): ${detail}`);
    this.name = 'ChangeSetRejectedError';
  }
}

const TREE_ID = /^git-tree:(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SHA256_ID = /^sha256:[0-9a-f]{64}$/;
const MIB = 1_048_576;

/**
 * Strict RFC 4648 standard-alphabet base64 with padding: length a multiple of 4, no whitespace or URL-safe
 * characters, and canonical (zero) trailing bits — the decode re-encodes to exactly the input. Node's own decoder
 * silently skips junk, so it cannot be trusted alone; but its encoder writes only the standard alphabet with
 * canonical padding, so "re-encodes to exactly the input" already excludes every foreign character (the alphabet
 * regex is implied, and on a 4 MiB patch it cost half the verification). Returns `undefined` when the text is not
 * such base64.
 */
export function decodeStrictBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

function reject(check: ChangeSetCheck, detail: string): never {
  throw new ChangeSetRejectedError(check, detail);
}

function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes}-byte`;
}

/** Verifies a delivered change set; throws {@link ChangeSetRejectedError} naming the first failed check. */
export function verifyDeliveredChangeSet(cs: DeliveredChangeSet, expected: ChangeSetExpectations): VerifiedPatch {
  if (cs.format !== expected.format) {
    reject('format', `format is ${JSON.stringify(cs.format)}, expected ${expected.format}`);
  }
  if (cs.encoding !== expected.encoding) {
    reject('encoding', `encoding is ${JSON.stringify(cs.encoding)}, expected ${expected.encoding}`);
  }
  if (!TREE_ID.test(cs.baseTree)) {
    reject('base_tree', `${JSON.stringify(cs.baseTree)} is not git-tree:<40 or 64 lowercase hex>`);
  }
  if (!TREE_ID.test(cs.resultTree)) {
    reject('result_tree', `${JSON.stringify(cs.resultTree)} is not git-tree:<40 or 64 lowercase hex>`);
  }
  if (!SHA256_ID.test(cs.patchDigest)) {
    reject('patch_digest', `${JSON.stringify(cs.patchDigest)} is not sha256:<64 lowercase hex>`);
  }
  if (cs.patchBytes > expected.maxPatchBytes) {
    reject('patch_bytes', `${cs.patchBytes} exceeds the ${expected.maxPatchBytes}-byte limit`);
  }
  // Refuse oversized text before decoding anything.
  if (cs.patchBase64.length > Math.ceil(expected.maxPatchBytes / 3) * 4) {
    reject('patch_bytes', `patch_base64 is longer than a ${sizeText(expected.maxPatchBytes)} patch can be`);
  }
  const patch = decodeStrictBase64(cs.patchBase64);
  if (patch === undefined) {
    reject('base64', 'patch_base64 is not strict padded standard base64');
  }
  if (patch.length !== cs.patchBytes) {
    reject('patch_bytes', `decoded ${patch.length} bytes, patch_bytes says ${cs.patchBytes}`);
  }
  const digest = `sha256:${createHash('sha256').update(patch).digest('hex')}`;
  if (digest !== cs.patchDigest) {
    reject('patch_digest', `decoded bytes hash to ${digest}, patch_digest says ${cs.patchDigest}`);
  }
  return { baseTree: cs.baseTree, resultTree: cs.resultTree, patchDigest: cs.patchDigest, patchBytes: cs.patchBytes, patch };
}

/**
 * A verified patch as text for parsing/display (invalid UTF-8 becomes U+FFFD; git patches of binary files are
 * ASCII). Buffer's decoder replaces exactly like TextDecoder (WHATWG maximal subparts) and is several times faster.
 */
export function patchText(changeSet: Pick<VerifiedPatch, 'patch'>): string {
  return changeSet.patch.toString('utf8');
}

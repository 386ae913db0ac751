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
import type { Pauses } from './patchReading';

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

/** The checks of the fields before the patch is decoded (the same for both ways of decoding it). */
function checkFields(cs: DeliveredChangeSet, expected: ChangeSetExpectations): void {
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
}

/** The checks of the decoded patch (`undefined`: not strict base64), in the order the sync and sliced paths share. */
function checkDecoded(cs: DeliveredChangeSet, patch: Buffer | undefined, digestHex: () => string): VerifiedPatch {
  if (patch === undefined) {
    reject('base64', 'patch_base64 is not strict padded standard base64');
  }
  if (patch.length !== cs.patchBytes) {
    reject('patch_bytes', `decoded ${patch.length} bytes, patch_bytes says ${cs.patchBytes}`);
  }
  const digest = `sha256:${digestHex()}`;
  if (digest !== cs.patchDigest) {
    reject('patch_digest', `decoded bytes hash to ${digest}, patch_digest says ${cs.patchDigest}`);
  }
  return { baseTree: cs.baseTree, resultTree: cs.resultTree, patchDigest: cs.patchDigest, patchBytes: cs.patchBytes, patch };
}

/** Verifies a delivered change set; throws {@link ChangeSetRejectedError} naming the first failed check. */
export function verifyDeliveredChangeSet(cs: DeliveredChangeSet, expected: ChangeSetExpectations): VerifiedPatch {
  checkFields(cs, expected);
  const patch = decodeStrictBase64(cs.patchBase64);
  return checkDecoded(cs, patch, () => createHash('sha256').update(patch!).digest('hex'));
}

/** Base64 characters decoded (and hashed) per slice: a multiple of 4, ~2 ms of work. */
const BASE64_CHUNK = 256 * 1024;

/**
 * `decodeStrictBase64` in chunks, hashing each as it is decoded, giving the loop back between them (issue #25 §3).
 * Exactly as strict: text is strict base64 if and only if every 4-aligned chunk re-encodes to itself and only the
 * last one is padded (a chunk before it that decodes to fewer than 3 bytes per 4 characters had padding).
 */
async function decodeStrictBase64Sliced(text: string, slices: Pauses): Promise<{ readonly bytes: Buffer; readonly digestHex: string } | undefined> {
  if (text.length % 4 !== 0) {
    return undefined;
  }
  const hash = createHash('sha256');
  const parts: Buffer[] = [];
  for (let at = 0; at < text.length; at += BASE64_CHUNK) {
    const piece = text.slice(at, at + BASE64_CHUNK);
    const bytes = Buffer.from(piece, 'base64');
    const last = at + BASE64_CHUNK >= text.length;
    if ((!last && bytes.length * 4 !== piece.length * 3) || bytes.toString('base64') !== piece) {
      return undefined;
    }
    hash.update(bytes);
    parts.push(bytes);
    await slices.pause();
  }
  return { bytes: Buffer.concat(parts), digestHex: hash.digest('hex') };
}

/**
 * `verifyDeliveredChangeSet` without stalling the host: the same checks in the same order, the base64 decoded and
 * hashed in slices. Rejects with {@link ChangeSetRejectedError} naming the first failed check.
 */
export async function readDeliveredChangeSet(cs: DeliveredChangeSet, expected: ChangeSetExpectations, slices: Pauses): Promise<VerifiedPatch> {
  checkFields(cs, expected);
  const decoded = await decodeStrictBase64Sliced(cs.patchBase64, slices);
  return checkDecoded(cs, decoded?.bytes, () => decoded!.digestHex);
}

/**
 * A verified patch as text for parsing/display (invalid UTF-8 becomes U+FFFD; git patches of binary files are
 * ASCII). Buffer's decoder replaces exactly like TextDecoder (WHATWG maximal subparts) and is several times faster.
 */
export function patchText(changeSet: Pick<VerifiedPatch, 'patch'>): string {
  return changeSet.patch.toString('utf8');
}

/** Bytes decoded to text per slice (cut after an ASCII byte, which no UTF-8 sequence continues past). */
const TEXT_CHUNK = 512 * 1024;

/**
 * `patchText` in slices: the same text, since a cut right after an ASCII byte (an LF, if there is one near) leaves
 * the decoder with no sequence in progress, so the pieces decode exactly as the whole does.
 */
export async function patchTextSliced(changeSet: Pick<VerifiedPatch, 'patch'>, slices: Pauses): Promise<string> {
  const bytes = changeSet.patch;
  const pieces: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    let end = Math.min(bytes.length, at + TEXT_CHUNK);
    if (end < bytes.length) {
      const lf = bytes.lastIndexOf(0x0a, end - 1);
      let cut = lf >= at ? lf + 1 : end;
      while (cut > at && (bytes[cut - 1] as number) >= 0x80) {
        cut--;
      }
      // No ASCII byte in the whole chunk (hostile text): the rest is decoded at once, as before.
      end = cut > at ? cut : bytes.length;
    }
    pieces.push(bytes.toString('utf8', at, end));
    at = end;
    await slices.pause();
  }
  return pieces.join('');
}

/**
 * The sliced verification (`readDeliveredChangeSet`, `patchTextSliced`) against the all-at-once one as reference:
 * the same bytes on an honest change set, and the same refused check on every dishonest one — padding or junk in
 * any 256 KiB chunk of the base64, a wrong digest, a lying length, oversized text before anything is decoded.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { TimeSlices } from '../../../extension/base/timeSlices';
import {
  ChangeSetRejectedError,
  patchText,
  patchTextSliced,
  readDeliveredChangeSet,
  verifyDeliveredChangeSet,
} from '../../../extension/changeSets/changeSetVerification';
import type { ChangeSetExpectations, DeliveredChangeSet, VerifiedPatch } from '../../../extension/changeSets/changeSetVerification';
import { prng } from '../../../bench/benchKit';

const EXPECTED: ChangeSetExpectations = { format: 'git_unified_diff_v1', encoding: 'base64', maxPatchBytes: 4_194_304 };
const CHUNK = 256 * 1024;

function delivered(patch: Buffer, over: Partial<DeliveredChangeSet> = {}): DeliveredChangeSet {
  return {
    format: 'git_unified_diff_v1',
    encoding: 'base64',
    baseTree: `git-tree:${'a'.repeat(40)}`,
    resultTree: `git-tree:${'b'.repeat(64)}`,
    patchDigest: `sha256:${createHash('sha256').update(patch).digest('hex')}`,
    patchBytes: patch.length,
    patchBase64: patch.toString('base64'),
    ...over,
  };
}

type Outcome = { readonly ok: true; readonly value: VerifiedPatch } | { readonly ok: false; readonly check: string; readonly detail: string };

function outcomeOf(run: () => VerifiedPatch): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    assert.ok(error instanceof ChangeSetRejectedError, String(error));
    return { ok: false, check: error.check, detail: error.detail };
  }
}

async function slicedOutcomeOf(cs: DeliveredChangeSet, expected = EXPECTED): Promise<Outcome> {
  try {
    return { ok: true, value: await readDeliveredChangeSet(cs, expected, new TimeSlices(0)) };
  } catch (error) {
    assert.ok(error instanceof ChangeSetRejectedError, String(error));
    return { ok: false, check: error.check, detail: error.detail };
  }
}

function bytes(n: number, seed: number): Buffer {
  const random = prng(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
}

describe('sliced change-set verification', () => {
  it('refuses exactly what the all-at-once verification refuses, with the same check and words', async () => {
    const big = bytes(CHUNK * 2 + 1000, 1); // three chunks of base64
    const b64 = big.toString('base64');
    const cases: Record<string, DeliveredChangeSet> = {
      honest: delivered(big),
      empty: delivered(Buffer.alloc(0)),
      'one byte': delivered(Buffer.from('A')),
      'wrong digest': delivered(big, { patchDigest: `sha256:${'0'.repeat(64)}` }),
      'one bit flipped': delivered(big, { patchBase64: `${b64.slice(0, CHUNK + 8)}${b64[CHUNK + 8] === 'A' ? 'B' : 'A'}${b64.slice(CHUNK + 9)}` }),
      'padding at a chunk boundary': delivered(big, { patchBase64: `${b64.slice(0, CHUNK - 4)}QQ==${b64.slice(CHUNK)}` }),
      'padding inside the first chunk': delivered(big, { patchBase64: `QQ==${b64.slice(4)}` }),
      'a space in the second chunk': delivered(big, { patchBase64: `${b64.slice(0, CHUNK + 4)} ${b64.slice(CHUNK + 5)}` }),
      'url-safe characters': delivered(big, { patchBase64: b64.replace(/\+/g, '-') }),
      'non-canonical last bits': delivered(Buffer.from('A'), { patchBase64: 'QR==' }),
      'length not a multiple of 4': delivered(big, { patchBase64: b64.slice(0, -1) }),
      'lying length': delivered(big, { patchBytes: big.length - 1 }),
      'over the limit': delivered(big, { patchBytes: 5_000_000 }),
      'oversized text': delivered(big, { patchBytes: 1, patchBase64: 'A'.repeat(Math.ceil(4_194_304 / 3) * 4 + 4) }),
      'bad tree': delivered(big, { baseTree: 'git-tree:xyz' }),
    };
    for (const [label, cs] of Object.entries(cases)) {
      const want = outcomeOf(() => verifyDeliveredChangeSet(cs, EXPECTED));
      const got = await slicedOutcomeOf(cs);
      assert.deepEqual(got, want, label);
    }
    assert.equal(outcomeOf(() => verifyDeliveredChangeSet(cases.honest!, EXPECTED)).ok, true);
    assert.equal((await slicedOutcomeOf(cases['padding at a chunk boundary']!)).ok, false);
  });

  it('decodes text in slices to exactly what one decode gives, invalid UTF-8 and split sequences included', async () => {
    const texts = [
      Buffer.from('é'.repeat(400_000) + '\n' + 'x'.repeat(300_000) + '日本'.repeat(200_000)),
      bytes(1_300_000, 2), // random bytes: invalid sequences everywhere, few LFs
      Buffer.alloc(1_100_000, 0xc3), // lead bytes only: no ASCII byte to cut after
      Buffer.alloc(0),
    ];
    for (const [i, patch] of texts.entries()) {
      assert.equal(await patchTextSliced({ patch }, new TimeSlices(0)), patchText({ patch }), `text ${i}`);
    }
  });
});

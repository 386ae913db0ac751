/**
 * The daemon-independent checks of a delivered change set. The A3S wire wrapper (schema, identity, state, and the
 * same checks seen through the A3S body) is covered in test/unit/drivers/a3s/changeSet.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  ChangeSetRejectedError,
  decodeStrictBase64,
  patchText,
  verifyDeliveredChangeSet,
} from '../../../extension/changeSets/changeSetVerification';
import type { ChangeSetCheck, ChangeSetExpectations, DeliveredChangeSet } from '../../../extension/changeSets/changeSetVerification';

const PATCH = Buffer.from('diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
const EXPECTED: ChangeSetExpectations = { format: 'git_unified_diff_v1', encoding: 'base64', maxPatchBytes: 4_194_304 };

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

describe('delivered change-set verification', () => {
  it('accepts an honest change set, including an empty one, and returns the decoded bytes', () => {
    const ok = verifyDeliveredChangeSet(delivered(PATCH), EXPECTED);
    assert.deepEqual(ok.patch, PATCH);
    assert.equal(patchText(ok), PATCH.toString('utf8'));
    assert.deepEqual(
      { baseTree: ok.baseTree, resultTree: ok.resultTree, patchBytes: ok.patchBytes },
      { baseTree: `git-tree:${'a'.repeat(40)}`, resultTree: `git-tree:${'b'.repeat(64)}`, patchBytes: PATCH.length },
    );
    assert.equal(verifyDeliveredChangeSet(delivered(Buffer.alloc(0)), EXPECTED).patch.length, 0);
  });

  const b64 = PATCH.toString('base64');
  const tampered: [ChangeSetCheck, Partial<DeliveredChangeSet>][] = [
    ['format', { format: 'git_unified_diff_v2' }],
    ['encoding', { encoding: 'base64url' }],
    ['base_tree', { baseTree: `git-tree:${'A'.repeat(40)}` }],
    ['result_tree', { resultTree: `git-tree:${'b'.repeat(39)}` }],
    ['patch_digest', { patchDigest: `sha256:${'0'.repeat(64)}` }],
    ['patch_digest', { patchDigest: createHash('sha256').update(b64).digest('hex') }],
    ['patch_bytes', { patchBytes: PATCH.length + 1 }],
    ['patch_bytes', { patchBytes: 4_194_305 }],
    ['base64', { patchBase64: b64.replace(/=+$/, '') }],
    ['base64', { patchBase64: 'QR==', patchBytes: 1 }],
  ];
  for (const [check, over] of tampered) {
    it(`refuses ${check}: ${JSON.stringify(over).slice(0, 60)}`, () => {
      assert.throws(() => verifyDeliveredChangeSet(delivered(PATCH, over), EXPECTED), (e: unknown) => {
        assert.ok(e instanceof ChangeSetRejectedError, String(e));
        assert.equal(e.check, check);
        assert.match(e.message, new RegExp(`check ${check}`));
        return true;
      });
    });
  }

  it('the length limit is the wire’s, and oversized text is refused before decoding', () => {
    const small: ChangeSetExpectations = { ...EXPECTED, maxPatchBytes: PATCH.length - 1 };
    assert.throws(() => verifyDeliveredChangeSet(delivered(PATCH), small), (e: unknown) => e instanceof ChangeSetRejectedError && e.check === 'patch_bytes');
    const lying = delivered(PATCH, { patchBytes: 1 });
    assert.throws(
      () => verifyDeliveredChangeSet(lying, { ...EXPECTED, maxPatchBytes: 3 }),
      (e: unknown) => e instanceof ChangeSetRejectedError && e.check === 'patch_bytes' && /longer than a 3-byte patch/.test(e.detail),
    );
    const huge = delivered(PATCH, { patchBytes: 1, patchBase64: 'A'.repeat(Math.ceil(4_194_304 / 3) * 4 + 4) });
    assert.throws(
      () => verifyDeliveredChangeSet(huge, EXPECTED),
      (e: unknown) => e instanceof ChangeSetRejectedError && /longer than a 4 MiB patch/.test(e.detail),
    );
  });

  it('strict base64: canonical padding and bits only', () => {
    assert.deepEqual(decodeStrictBase64('QQ=='), Buffer.from('A'));
    for (const bad of ['QQ=', 'QQ', 'QR==', 'Q===', 'QQ==QQ==', ' QQ==', 'QQ-_']) {
      assert.equal(decodeStrictBase64(bad), undefined, bad);
    }
  });
});

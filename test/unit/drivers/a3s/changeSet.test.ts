import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patchText } from '../../../../extension/changeSets/changeSetVerification';
import { fetchA3sChangeSet, verifyA3sChangeSet } from '../../../../extension/drivers/a3s/changeSet';
import { A3sChangeSetRejectedError, A3sNoChangeSetError } from '../../../../extension/drivers/a3s/a3sErrors';
import type { A3sChangeSetCheck } from '../../../../extension/drivers/a3s/a3sErrors';
import { A3sClient } from '../../../../extension/drivers/a3s/client';
import { applyHunks } from '../../../../extension/changeSets/hunkApply';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import { pageA3sUntilCaughtUp } from '../../../../extension/drivers/a3s/runPoller';
import { buildRunIdentity } from '../../../../extension/protocol/a3s';
import type { A3sRunIdentity } from '../../../../extension/protocol/a3s';
import { A3sHarness } from '../../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../../fixtures/a3s/harnessWire';

const id = (runId: string) => buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId });
const fast = { initialDelayMs: 10, maxDelayMs: 40, maxAttempts: 200 };

async function waitTerminal(client: A3sClient, identity: A3sRunIdentity): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await pageA3sUntilCaughtUp(client, identity, null)).terminal) {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('run did not finish');
}

/** Resolves once a 425 was seen after index `from` (the capture is held, so one comes). */
async function until425(statuses: readonly number[], from: number): Promise<void> {
  while (!statuses.slice(from).includes(425)) {
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('change sets from a real git workspace', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'a3s-ws-'));
  // Zero latency; a capture is made to take as long as a test needs with holdCaptures, not with a delay.
  const harness = new A3sHarness({ workspace, gitInit: true, zeroLatency: true });
  let client: A3sClient;
  const statuses: number[] = [];
  before(async () => {
    await harness.start();
    client = new A3sClient({
      baseUrl: harness.url,
      frameTap: (dir, _f, http) => void (dir === 'in' && http?.path === '/v1/agent/changes' && statuses.push(http.status ?? 0)),
    });
  });
  after(async () => {
    client.dispose();
    await harness.stop();
    rmSync(workspace, { recursive: true, force: true, maxRetries: 20 });
  });

  it('retries 425 until captured, verifies, parses, and the patch reproduces the edits', async () => {
    const readmeBefore = readFileSync(join(workspace, 'README.md'), 'utf8');
    harness.holdCaptures(true);
    await client.start('q', id('run-edit'), 'please edit the files');
    const mark = statuses.length;
    const fetched = fetchA3sChangeSet(client, id('run-edit'), fast);
    await until425(statuses, mark);
    harness.holdCaptures(false);
    const cs = await fetched;
    assert.ok(statuses.filter((s) => s === 425).length >= 1, `saw ${statuses.join(',')}`);
    assert.equal(statuses.at(-1), 200);
    assert.match(cs.baseTree, /^git-tree:[0-9a-f]{40}$/);
    assert.notEqual(cs.baseTree, cs.resultTree);
    const files = parseGitPatch(patchText(cs)).files;
    const summary = Object.fromEntries(files.map((f) => [f.newPath, [f.status, f.binary]]));
    assert.deepEqual(summary, {
      'README.md': ['modified', false],
      'a3s-blob.bin': ['added', true],
      'a3s-created.txt': ['added', false],
      'a3s-delete-me.txt': ['deleted', false],
      'a3s-long.txt': ['modified', false],
      'a3s-renamed.txt': ['renamed', false],
      'notes/été.txt': ['added', false],
    });
    const readme = files.find((f) => f.newPath === 'README.md');
    assert.ok(readme);
    assert.deepEqual(applyHunks(readmeBefore, readme), { ok: true, text: readFileSync(join(workspace, 'README.md'), 'utf8') });
  });

  it('422 after a capture lost to a restart; the replayed start gets no change set', async () => {
    // The capture is held, so the restart certainly finds it in flight.
    const slow = new A3sHarness({ workspace, zeroLatency: true });
    slow.holdCaptures(true);
    await slow.start();
    const c = new A3sClient({ baseUrl: slow.url });
    try {
      await c.start('q', id('run-lost'), 'edit again');
      await waitTerminal(c, id('run-lost'));
      slow.simulateRestart();
      const replay = await c.start('q', id('run-lost'), 'edit again');
      assert.equal(replay.replayed, true);
      await assert.rejects(fetchA3sChangeSet(c, id('run-lost'), { ...fast, replayed: replay.replayed }), (e: unknown) => e instanceof A3sNoChangeSetError && /replayed/.test(e.reason));
    } finally {
      c.dispose();
      await slow.stop();
    }
  });

  it('422 when the diff exceeds 4 MiB', async () => {
    await client.start('q', id('run-huge'), 'edit huge');
    await assert.rejects(fetchA3sChangeSet(client, id('run-huge'), fast), A3sNoChangeSetError);
  });

  it('gives up on 425 after the bounded number of attempts', async () => {
    await client.start('q', id('run-held'), 'wait here');
    await assert.rejects(fetchA3sChangeSet(client, id('run-held'), { initialDelayMs: 1, maxAttempts: 3 }), /still being captured after 3 attempts/);
    await client.cancel('q2', id('run-held'), 'done');
  });
});

describe('change sets without git', () => {
  it('422 for a non-git workspace, with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-nogit-'));
    const harness = new A3sHarness({ workspace: dir, zeroLatency: true });
    await harness.start();
    const client = new A3sClient({ baseUrl: harness.url });
    try {
      await client.start('q', id('run-plain'), 'edit');
      await assert.rejects(fetchA3sChangeSet(client, id('run-plain'), fast), (e: unknown) => e instanceof A3sNoChangeSetError && /not a git repository/.test(e.message));
    } finally {
      client.dispose();
      await harness.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

function body(patch: Buffer, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: 'a3s.code.agent-change-set.v1',
    identity: id('r'),
    state: 'completed',
    format: 'git_unified_diff_v1',
    encoding: 'base64',
    base_tree: `git-tree:${'a'.repeat(40)}`,
    result_tree: `git-tree:${'b'.repeat(64)}`,
    patch_digest: `sha256:${createHash('sha256').update(patch).digest('hex')}`,
    patch_bytes: patch.length,
    patch_base64: patch.toString('base64'),
    observed_at_ms: 1_760_000_000_000,
    ...over,
  };
}

const PATCH = Buffer.from('diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');

describe('change-set verification', () => {
  it('accepts an honest change set, including an empty one', () => {
    const ok = verifyA3sChangeSet(body(PATCH), id('r'));
    assert.deepEqual(ok.patch, PATCH);
    const empty = verifyA3sChangeSet(body(Buffer.alloc(0)));
    assert.equal(empty.patchBytes, 0);
    assert.deepEqual(parseGitPatch(patchText(empty)).files, []);
  });

  const b64 = PATCH.toString('base64');
  const tampered: [A3sChangeSetCheck, Record<string, unknown>][] = [
    ['patch_digest', { patch_digest: `sha256:${'0'.repeat(64)}` }],
    ['patch_digest', { patch_digest: createHash('sha256').update(b64).digest('hex') }],
    ['patch_bytes', { patch_bytes: PATCH.length + 1 }],
    ['patch_bytes', { patch_bytes: 4_194_305 }],
    ['base64', { patch_base64: `${b64.slice(0, 8)}*${b64.slice(9)}` }],
    ['base64', { patch_base64: b64.replace(/=+$/, '') }],
    ['base64', { patch_base64: `${b64.slice(0, 40)}\n${b64.slice(40)}` }],
    ['base64', { patch_base64: b64.replace(/\+/g, '-').replace(/\//g, '_') + (b64.includes('+') || b64.includes('/') ? '' : '!') }],
    ['base64', { patch_base64: 'QR==', patch_bytes: 1 }],
    ['base_tree', { base_tree: `git-tree:${'A'.repeat(40)}` }],
    ['base_tree', { base_tree: 'a'.repeat(40) }],
    ['result_tree', { result_tree: `git-tree:${'b'.repeat(39)}` }],
    ['format', { format: 'git_unified_diff_v2' }],
    ['encoding', { encoding: 'base64url' }],
    ['schema', { schema: 'a3s.code.agent-change-set.v0' }],
    ['schema', { patch_bytes: -1 }],
    ['state', { state: 'executing' }],
    ['identity', { identity: id('someone-else') }],
  ];
  for (const [check, over] of tampered) {
    it(`refuses ${check}: ${JSON.stringify(over).slice(0, 60)}`, () => {
      assert.throws(() => verifyA3sChangeSet(body(PATCH, over), id('r')), (e: unknown) => {
        assert.ok(e instanceof A3sChangeSetRejectedError, String(e));
        assert.equal(e.check, check);
        assert.match(e.message, new RegExp(`check ${check}`));
        return true;
      });
    });
  }

  it('decodes, verifies and parses a 4 MiB patch', () => {
    const line = `+${'z'.repeat(62)}\n`;
    const count = Math.floor((4_194_304 - 200) / line.length);
    const header = `diff --git a/big.txt b/big.txt\nnew file mode 100644\nindex 0000000..1234567\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${count} @@\n`;
    const patch = Buffer.from(header + line.repeat(count));
    assert.ok(patch.length <= 4_194_304 && patch.length > 4_100_000);
    const started = Date.now();
    const cs = verifyA3sChangeSet(body(patch));
    const files = parseGitPatch(patchText(cs)).files;
    assert.deepEqual([files.length, files[0]?.additions, files[0]?.status], [1, count, 'added']);
    assert.ok(Date.now() - started < 10_000);
    const over = Buffer.concat([patch, Buffer.alloc(4_194_305 - patch.length, 0x41)]);
    assert.throws(() => verifyA3sChangeSet(body(over)), (e: unknown) => e instanceof A3sChangeSetRejectedError && e.check === 'patch_bytes');
  });
});

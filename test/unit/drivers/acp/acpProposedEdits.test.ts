/**
 * What the user approves is what will happen: the ACP driver against the reference agent sending region diffs the
 * way the real agents do (oldText/newText are only the changed lines). The approval's patch, applied to the file as
 * the editor has it (model/editProposal.ts, what *Show diff* does), changes only those lines; after *Allow* the file
 * on disk is exactly the proposal. A region that no longer matches (the user edited the file meanwhile) is said in
 * the title and shown as the region alone, never as a whole file.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diffLines } from 'diff';
import { REGION_MISMATCH } from '../../../../extension/drivers/acp/acpProposal';
import { proposedFiles } from '../../../../extension/model/editProposal';
import type { ProposedFile } from '../../../../extension/model/editProposal';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { CREATED_TEXT, replacedLine } from '../../../fixtures/acp/editTool';
import { until } from '../driverKit';
import type { Rig } from './acpDriverKit';
import { idle, rig, run } from './acpDriverKit';

const LONG_LINES = Array.from({ length: 200 }, (_, i) => `const v${i + 1} = ${i + 1};\n`);
const LONG_TEXT = LONG_LINES.join('');

type ApprovalItem = Extract<TranscriptItem, { kind: 'approval' }>;

/** Starts a run on a 200-line file and waits for its approval card. */
async function proposal(r: Rig, prompt: string): Promise<{ runId: string; card: ApprovalItem; files: ProposedFile[] }> {
  const runId = await r.driver.startRun({ prompt, workspaceRoots: [r.ws.dir] });
  const approvalId = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  const card = r.items(runId).find((i): i is ApprovalItem => i.kind === 'approval' && i.approvalId === approvalId)!;
  const files = await proposedFiles(card.detail, async (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return '';
    }
  });
  return { runId, card, files };
}

/** Lines unchanged, removed and added between two texts. */
function lineCounts(before: string, after: string): { same: number; removed: number; added: number } {
  const counts = { same: 0, removed: 0, added: 0 };
  for (const part of diffLines(before, after)) {
    counts[part.added ? 'added' : part.removed ? 'removed' : 'same'] += part.count;
  }
  return counts;
}

async function allowAndFinish(r: Rig, runId: string, card: ApprovalItem): Promise<void> {
  await r.driver.decideApproval(runId, card.approvalId, 'allow_once', 'transcript');
  await until('the turn ended', () => idle(r, runId));
}

test('an edit in the middle of a 200-line file: the diff changes that line only, and Allow writes exactly that', { timeout: 30_000 }, async () => {
  const r = await rig();
  const file = join(r.ws.dir, 'long.ts');
  writeFileSync(file, LONG_TEXT);
  const { runId, card, files } = await proposal(r, 'edit:long.ts:100');
  assert.equal(card.hasDiff, true, 'Show diff offered');
  assert.doesNotMatch(card.title, /does not match/);
  assert.equal(files.length, 1);
  const [f] = files;
  assert.equal(f!.original, LONG_TEXT, 'compared with the whole current file');
  assert.equal(f!.regionOnly, undefined);
  assert.deepEqual(lineCounts(f!.original, f!.proposed), { same: 199, removed: 1, added: 1 }, 'one line changed, 199 unchanged');
  assert.equal(f!.proposed.split('\n')[99], replacedLine(100));
  await allowAndFinish(r, runId, card);
  assert.equal(readFileSync(file, 'utf8'), f!.proposed, 'what was approved is what was written');
});

test('several regions of one file in one call apply in order; a deleted region shows as a deletion', { timeout: 30_000 }, async () => {
  const r = await rig();
  const file = join(r.ws.dir, 'long.ts');
  writeFileSync(file, LONG_TEXT);
  const several = await proposal(r, 'edit:long.ts:10,150');
  const [f] = several.files;
  assert.deepEqual(lineCounts(f!.original, f!.proposed), { same: 198, removed: 2, added: 2 });
  assert.deepEqual([f!.proposed.split('\n')[9], f!.proposed.split('\n')[149]], [replacedLine(10), replacedLine(150)]);
  await allowAndFinish(r, several.runId, several.card);
  assert.equal(readFileSync(file, 'utf8'), f!.proposed);

  const before = readFileSync(file, 'utf8');
  await r.driver.sendMessage(several.runId, 'delete:long.ts:50');
  const approvalId = await until('a second approval', () => run(r, several.runId)?.pendingApprovals[0]);
  const card = r.items(several.runId).find((i): i is ApprovalItem => i.kind === 'approval' && i.approvalId === approvalId)!;
  const [d] = await proposedFiles(card.detail, async (p) => readFileSync(p, 'utf8'));
  assert.deepEqual(lineCounts(d!.original, d!.proposed), { same: 199, removed: 1, added: 0 }, 'the line is removed, nothing added');
  assert.match(card.detail as string, /^-const v50 = 50;$/m, 'the patch says it: a removed line');
  assert.equal(d!.original, before);
  await allowAndFinish(r, several.runId, card);
  assert.equal(readFileSync(file, 'utf8'), d!.proposed);
});

test('a new file (oldText null) is proposed whole, against nothing', { timeout: 30_000 }, async () => {
  const r = await rig();
  const { card, files } = await proposal(r, 'edit:NEW.md');
  assert.match(card.detail as string, /^--- \/dev\/null$/m);
  assert.deepEqual(files.map((f) => [f.path, f.original, f.proposed]), [[join(r.ws.dir, 'NEW.md'), '', CREATED_TEXT]]);
});

test('a region the user changed meanwhile: the mismatch is said, the region is shown alone, and Allow writes nothing', { timeout: 30_000 }, async () => {
  const file = (dir: string): string => join(dir, 'long.ts');
  let edited = false;
  const r = await rig({
    workspace: (disk) => ({
      ...disk,
      // The user types in line 100 right after the agent has read the file.
      readText: async (path, line, limit) => {
        const text = await disk.readText(path, line, limit);
        if (path.endsWith('long.ts') && !edited) {
          edited = true;
          writeFileSync(path, text.replace('const v100 = 100;', 'const v100 = 1000; // the user'));
        }
        return text;
      },
    }),
  });
  writeFileSync(file(r.ws.dir), LONG_TEXT);
  const { runId, card, files } = await proposal(r, 'edit:long.ts:100');
  assert.ok(edited, 'the agent read the file before the user changed it');
  assert.ok(card.title.endsWith(REGION_MISMATCH), card.title);
  assert.match(card.summary ?? '', /not in the file/);
  assert.equal(card.hasDiff, true);
  assert.deepEqual(files.map((f) => [f.regionOnly, f.original, f.proposed]), [[true, 'const v100 = 100;\n', `${replacedLine(100)}\n`]], 'the region alone, not a fake whole file');
  assert.match(files[0]!.problem ?? '', /does not match/);
  await allowAndFinish(r, runId, card);
  assert.match(readFileSync(file(r.ws.dir), 'utf8'), /const v100 = 1000; \/\/ the user/, "the user's edit stays");
  const key = runKeyOf(r.setup.connectionId, runId);
  assert.equal(r.setup.store.state.approvals.get(`${key}::${card.approvalId}`)?.status, 'decided');
});

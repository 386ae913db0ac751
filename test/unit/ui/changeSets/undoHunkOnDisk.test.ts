/**
 * *Undo* of one hunk an agent wrote to disk, and its *Redo* (issue #26), on a real git work tree, with the pieces the
 * host's Undo (ui/changeSets/changeSetReviews.ts → changeSetEdits.ts → changeSetApply.ts) is made of: the local change
 * set's file reversed (changeSets/patchReverse.ts), planned against the file as it is on disk, all or nothing
 * (applyPlan.ts), the path checked (applyTargets.ts); and the review marks (changeSets/reviewState.ts), which follow
 * the hunk's content through the Undo and back. VS Code's WorkspaceEdit, which writes the planned text, is the
 * integration tier's.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import { reversePatchFile } from '../../../../extension/changeSets/patchReverse';
import type { PatchFile } from '../../../../extension/changeSets/patchTypes';
import { NO_MARKS, reviewProgress, reviewUnitsOf, withReview } from '../../../../extension/changeSets/reviewState';
import type { ReviewMarks } from '../../../../extension/changeSets/reviewState';
import { planChangeSetApply, unsafePathProblem } from '../../../../extension/ui/changeSets/applyPlan';
import { checkApplyTargets } from '../../../../extension/ui/changeSets/applyTargets';
import { TempGitRepo } from '../../changeSets/tempGitRepo';

const repo = new TempGitRepo();
after(() => repo.dispose());

const BASE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const text = (edits: Readonly<Record<number, string>>): string => `${BASE.map((line, i) => edits[i + 1] ?? line).join('\n')}\n`;
const AGENT = text({ 3: 'line three', 25: 'line twenty-five' });

repo.write('src/a.txt', text({}));
repo.write('.vscode/settings.json', '{}\n');
repo.commitAll();

/** The run's local change set now: the working tree against the commit the run started from. */
function changeSetNow(): PatchFile[] {
  const files = parseGitPatch(repo.stagedPatch()).files;
  repo.git('reset', '-q');
  return [...files];
}

const onDisk = (path: string): string => readFileSync(join(repo.dir, path), 'utf8');

/** Plans `selection` of `files` against the disk and writes it, as the one WorkspaceEdit would; or the problems. */
function write(files: readonly PatchFile[], index: number, hunks: readonly number[]): string[] {
  const plan = planChangeSetApply(files, [{ index, hunks }], (p) => ({ exists: true, text: onDisk(p) }));
  if (!plan.ok) {
    return plan.problems.map((p) => `${p.path}: ${p.reason}`);
  }
  for (const op of plan.operations) {
    assert.equal(op.kind, 'modify');
    if (op.kind === 'modify') {
      writeFileSync(join(repo.dir, op.path), op.text);
    }
  }
  return [];
}

function markAll(files: readonly PatchFile[]): ReviewMarks {
  const units = reviewUnitsOf(files);
  return units.reduce((marks, fileUnits) => withReview(marks, { units: fileUnits, fileUnits, reviewed: true, now: 1 }), NO_MARKS);
}

test('Undo of one hunk writes back only that hunk; Redo brings it back, and its review mark with it', () => {
  repo.write('src/a.txt', AGENT);
  const before = changeSetNow();
  const a = before.findIndex((f) => f.newPath === 'src/a.txt');
  assert.equal(before[a]!.hunks.length, 2);
  const marks = markAll(before);

  // Undo hunk 1 (line 3): the reversed file's hunk, planned on the file as the agent left it.
  assert.deepEqual(write(before.map((f) => reversePatchFile(f)!), a, [0]), []);
  assert.equal(onDisk('src/a.txt'), text({ 25: 'line twenty-five' }), 'line 3 is the original again; line 25 stays the agent\'s');
  const afterUndo = changeSetNow();
  const left = afterUndo.find((f) => f.newPath === 'src/a.txt')!;
  assert.equal(left.hunks.length, 1);
  const progress = reviewProgress(marks, reviewUnitsOf(afterUndo));
  assert.equal(progress.files[afterUndo.indexOf(left)]!.reviewed[0], true, 'the hunk that stayed keeps its mark');

  // Redo: the hunk of the change set as it was, applied to the file as it is now.
  assert.deepEqual(write(before, a, [0]), []);
  assert.equal(onDisk('src/a.txt'), AGENT);
  const afterRedo = changeSetNow();
  assert.deepEqual(reviewProgress(marks, reviewUnitsOf(afterRedo)).files[afterRedo.findIndex((f) => f.newPath === 'src/a.txt')], { reviewed: [true, true], dropped: 0 });
});

test('Undo is refused, nothing written, when the file changed so that the hunk no longer applies', () => {
  repo.write('src/a.txt', AGENT);
  const files = changeSetNow();
  const a = files.findIndex((f) => f.newPath === 'src/a.txt');
  // The person (or another run) edits line 3 after the change set was shown.
  const edited = text({ 3: 'line three, edited by the person', 25: 'line twenty-five' });
  repo.write('src/a.txt', edited);
  const problems = write(files.map((f) => reversePatchFile(f)!), a, [0]);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^src\/a\.txt: hunk 1 \(@@ -1,6 \+1,6 @@\) does not match: line 3 is "line three, edited by the person", the change set expects "line three"/);
  assert.equal(onDisk('src/a.txt'), edited, 'nothing was written');
  // The other hunk still undoes on its own.
  assert.deepEqual(write(files.map((f) => reversePatchFile(f)!), a, [1]), []);
  assert.equal(onDisk('src/a.txt'), text({ 3: 'line three, edited by the person' }));
});

test('a protected path needs a decision; .git is never written', async () => {
  repo.write('.vscode/settings.json', '{ "agent": true }\n');
  const files = changeSetNow();
  const settings = files.find((f) => f.newPath === '.vscode/settings.json');
  assert.ok(settings, 'the agent\'s edit of .vscode/settings.json is in the change set');
  const checked = await checkApplyTargets(repo.dir, [repo.dir], ['.vscode/settings.json', 'src/a.txt']);
  assert.deepEqual(checked.guarded.map((g) => g.path), ['.vscode/settings.json'], 'named to the person before anything is written');
  assert.deepEqual(checked.problems, []);
  assert.match(unsafePathProblem('.git/config') ?? '', /\.git/);
});

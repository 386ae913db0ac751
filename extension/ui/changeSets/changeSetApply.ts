/**
 * Applies (part of) a change set to the workspace: check where every path really leads (applyTargets.ts: no symlink
 * out of the workspace, nothing into `.git`), read every file involved, plan all or nothing (applyPlan.ts), name the
 * protected files it would write (`.vscode`, workspace files) and let the person include or leave them out, then one
 * `WorkspaceEdit` with the creates, deletes, renames and content replacements, applied through `workspace.applyEdit`
 * so a single Undo reverts it. Documents that were clean before are saved afterwards, so the files on disk match;
 * documents with unsaved edits are left dirty (their edits are the user's to save).
 */
import * as vscode from 'vscode';
import { readTreeBlob } from '../../changeSets/gitTrees';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo } from '../../model/modelTypes';
import type { ProtectedPath } from '../../protocol/protectedPaths';
import type { ApplyOperation, ApplyPlan, ApplyProblem, FileSelection, WorkspaceFileState } from './applyPlan';
import { pathsToRead, planChangeSetApplySliced, unsafePathProblem } from './applyPlan';
import { TimeSlices } from '../../base/timeSlices';
import { checkApplyTargets } from './applyTargets';
import { availableTrees } from './changeSetSides';
import type { ChangeSetTarget } from './changeSetWorkspace';
import { workspaceUri } from './changeSetWorkspace';

export interface ApplyOutcome {
  /** Workspace paths written (created, modified, deleted, renamed to). */
  readonly applied: readonly string[];
  /** Why nothing was applied (empty when applied). */
  readonly problems: readonly ApplyProblem[];
  readonly notes: readonly string[];
  /** Protected files the person chose to leave out ("Apply Without These"). */
  readonly skipped?: readonly string[];
  /** The person cancelled when asked about protected files: nothing was applied. */
  readonly cancelled?: boolean;
}

/** What Apply needs from the editor besides the change set: its open folders, and the protected-files question. */
export interface ApplyGuard {
  readonly openFolders: readonly string[];
  ask(files: readonly ProtectedPath[]): Promise<'include' | 'exclude' | 'cancel'>;
}

type Planned = Extract<ApplyPlan, { ok: true }>;
/** A selection checked and planned against the workspace as it is now, ready to write, or why not. */
type Prepared = { readonly plan: Planned; readonly docs: Map<string, vscode.TextDocument>; readonly guarded: readonly ProtectedPath[] } | { readonly outcome: ApplyOutcome };

const MAX_TEXT_BYTES = 16 * 1024 * 1024;

async function readWorkspaceFile(uri: vscode.Uri, docs: Map<string, vscode.TextDocument>, path: string): Promise<WorkspaceFileState> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    return { exists: false };
  }
  if (!(stat.type & vscode.FileType.File) || stat.size > MAX_TEXT_BYTES) {
    return { exists: true };
  }
  // Checked (and later edited) as the document the user sees, which may hold unsaved edits.
  try {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
    docs.set(path, doc);
    return { exists: true, text: doc.getText() };
  } catch {
    return { exists: true }; // e.g. VS Code refuses to open a binary file as text
  }
}

/** The result content of each path the daemon's result tree holds (to recognise changes already present). */
async function expectedResults(target: ChangeSetTarget, info: ChangeSetInfo, files: readonly PatchFile[], selection: readonly FileSelection[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (target.repo === undefined) {
    return out;
  }
  const trees = await availableTrees({ repo: target.repo, ...(info.resultTree ? { resultTree: info.resultTree } : {}) });
  if (trees.result === undefined) {
    return out;
  }
  for (const { index } of selection) {
    const file = files[index];
    if (file && file.status !== 'deleted' && !file.binary && unsafePathProblem(file.newPath) === undefined) {
      const blob = await readTreeBlob(target.repo, trees.result, file.newPath);
      if (blob !== undefined) {
        out.set(file.newPath, blob.toString('utf8'));
      }
    }
  }
  return out;
}

function fullRange(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
}

async function buildEdit(target: ChangeSetTarget, operations: readonly ApplyOperation[], docs: Map<string, vscode.TextDocument>): Promise<vscode.WorkspaceEdit> {
  const edit = new vscode.WorkspaceEdit();
  const metadata: vscode.WorkspaceEditEntryMetadata = { label: 'Apply change set', needsConfirmation: false };
  const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
  for (const op of operations) {
    switch (op.kind) {
      case 'create':
        edit.createFile(workspaceUri(target, op.path), { overwrite: false, contents: bytes(op.text) }, metadata);
        break;
      case 'delete':
        edit.deleteFile(workspaceUri(target, op.path), { ignoreIfNotExists: false }, metadata);
        break;
      case 'modify': {
        const uri = workspaceUri(target, op.path);
        const doc = docs.get(op.path) ?? (await vscode.workspace.openTextDocument(uri));
        docs.set(op.path, doc);
        edit.replace(uri, fullRange(doc), op.text, metadata);
        break;
      }
      case 'rename':
        if (op.text === undefined) {
          edit.renameFile(workspaceUri(target, op.from), workspaceUri(target, op.to), { overwrite: false }, metadata);
        } else {
          edit.deleteFile(workspaceUri(target, op.from), {}, metadata);
          edit.createFile(workspaceUri(target, op.to), { overwrite: false, contents: bytes(op.text) }, metadata);
        }
        break;
    }
  }
  return edit;
}

/** Checks targets, reads and plans `selection` (nothing written). */
async function prepare(target: ChangeSetTarget, info: ChangeSetInfo, files: readonly PatchFile[], selection: readonly FileSelection[], openFolders: readonly string[]): Promise<Prepared> {
  const docs = new Map<string, vscode.TextDocument>();
  const paths = pathsToRead(files, selection);
  const checked = await checkApplyTargets(
    target.root,
    openFolders,
    paths.filter((p) => unsafePathProblem(p) === undefined),
  );
  const refused = new Set(checked.problems.map((p) => p.path));
  const states = new Map<string, WorkspaceFileState>();
  for (const path of paths) {
    // A path that leads out of the workspace (or into .git) is not even read.
    states.set(path, unsafePathProblem(path) === undefined && !refused.has(path) ? await readWorkspaceFile(workspaceUri(target, path), docs, path) : { exists: false });
  }
  const expected = await expectedResults(target, info, files, selection);
  // Planned in slices (issue #25 §3): all or nothing still, since nothing is written before the whole plan is made.
  const plan = await planChangeSetApplySliced(files, selection, (p) => states.get(p) ?? { exists: false }, (p) => expected.get(p), new TimeSlices());
  const problems = [...checked.problems, ...(plan.ok ? [] : plan.problems.filter((p) => !refused.has(p.path)))];
  if (!plan.ok || problems.length > 0) {
    return { outcome: { applied: [], problems, notes: [] } };
  }
  if (plan.operations.length === 0) {
    return { outcome: { applied: [], problems: [], notes: plan.notes } };
  }
  const written = new Set(plan.operations.flatMap((op) => (op.kind === 'rename' ? [op.from, op.to] : [op.path])));
  return { plan, docs, guarded: checked.guarded.filter((g) => written.has(g.path)) };
}

/** The selection without the files that write any of `paths`. */
function without(files: readonly PatchFile[], selection: readonly FileSelection[], paths: ReadonlySet<string>): FileSelection[] {
  return selection.filter(({ index }) => {
    const file = files[index];
    return !file || (!paths.has(file.oldPath) && !paths.has(file.newPath));
  });
}

/**
 * Checks the whole selection first; applies it as one undoable edit only if every file applies cleanly. Protected
 * files are named to the person first (`guard.ask`); after the answer everything is checked and planned again, so
 * what is written is what the workspace holds now, and a protected file that was not named is never written.
 */
export async function applyChangeSetSelection(
  target: ChangeSetTarget,
  info: ChangeSetInfo,
  files: readonly PatchFile[],
  selection: readonly FileSelection[],
  guard: ApplyGuard,
): Promise<ApplyOutcome> {
  const first = await prepare(target, info, files, selection, guard.openFolders);
  if ('outcome' in first) {
    return first.outcome;
  }
  if (first.guarded.length === 0) {
    return write(target, first.plan, first.docs);
  }
  const choice = await guard.ask(first.guarded);
  const named = new Set(first.guarded.map((g) => g.path));
  if (choice === 'cancel') {
    return { applied: [], problems: [], notes: [], cancelled: true };
  }
  const chosen = choice === 'include' ? selection : without(files, selection, named);
  const skipped = choice === 'include' ? [] : [...named];
  if (chosen.length === 0) {
    return { applied: [], problems: [], notes: [], skipped };
  }
  const second = await prepare(target, info, files, chosen, guard.openFolders);
  if ('outcome' in second) {
    return { ...second.outcome, skipped };
  }
  const unnamed = second.guarded.filter((g) => choice === 'exclude' || !named.has(g.path));
  if (unnamed.length > 0) {
    return { applied: [], problems: unnamed.map((g) => ({ path: g.path, reason: 'became a protected path while you were deciding; nothing was applied' })), notes: [], skipped };
  }
  return { ...(await write(target, second.plan, second.docs)), skipped };
}

/** Writes a plan as one undoable edit and saves the documents that were clean before. */
async function write(target: ChangeSetTarget, plan: Planned, docs: Map<string, vscode.TextDocument>): Promise<ApplyOutcome> {
  const dirtyBefore = new Set([...docs.values()].filter((d) => d.isDirty).map((d) => d.uri.toString()));
  const edit = await buildEdit(target, plan.operations, docs);
  if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) {
    return { applied: [], problems: [{ path: '(workspace)', reason: 'VS Code refused the edit (a file changed meanwhile?); nothing was applied' }], notes: [] };
  }
  for (const op of plan.operations) {
    const doc = op.kind === 'modify' ? docs.get(op.path) : undefined;
    if (doc && doc.isDirty && !dirtyBefore.has(doc.uri.toString())) {
      await doc.save();
    }
  }
  const applied = plan.operations.map((op) => (op.kind === 'rename' ? op.to : op.path));
  return { applied, problems: [], notes: plan.notes };
}

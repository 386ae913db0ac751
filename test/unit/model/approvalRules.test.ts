import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRule, RuleContext, RuleScope } from '../../../extension/model/approvalRules';
import { matchRules, patternFor, ruleFor, ruleOutlived, storageLabel } from '../../../extension/model/approvalRules';
import { RunStore } from '../../../extension/model/runStore';
import { subjectOf } from '../../../extension/model/approvalSubject';

const here: RuleContext = { runKey: 'ap:A::run-1', connectionId: 'ap:A', epoch: 1 };
const run: RuleScope = { kind: 'run', runKey: here.runKey };
const connection: RuleScope = { kind: 'connection', connectionId: 'ap:A', epoch: 1 };

test('an edit proposes the directory glob of its path', () => {
  const rule = ruleFor(subjectOf('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }), 'allow', run, 'r1', 5);
  assert.deepEqual(rule.pattern, { kind: 'pathGlob', glob: 'src/**' });
  assert.equal(rule.tool, 'Edit');
  assert.equal(rule.label, 'Allow Edit on files matching src/**');
  assert.deepEqual(patternFor(subjectOf('Edit', { file_path: '/home/u/proj/README.md' })), { kind: 'pathGlob', glob: '/home/u/proj/**' });
  // Several files: their common directory.
  assert.deepEqual(patternFor(subjectOf('ApplyPatch', { patch: '--- a/src/x/a.ts\n+++ b/src/x/a.ts\n--- /dev/null\n+++ b/src/y/b.ts\n' })), { kind: 'pathGlob', glob: 'src/**' });
  // A bare file name: that file only.
  assert.deepEqual(patternFor(subjectOf('Edit', { path: 'NOTES.md' })), { kind: 'pathGlob', glob: 'NOTES.md' });
});

test('a shell command proposes its first word(s); anything else the whole tool', () => {
  assert.deepEqual(patternFor(subjectOf('Bash', { command: 'npm test -- --grep x' })), { kind: 'commandPrefix', prefix: 'npm test' });
  assert.deepEqual(patternFor(subjectOf('Bash', { command: 'ls -la src' })), { kind: 'commandPrefix', prefix: 'ls' });
  assert.deepEqual(patternFor(subjectOf('shell', { command: ['bash', '-lc', 'cargo build --release'] })), { kind: 'commandPrefix', prefix: 'cargo build' });
  assert.deepEqual(patternFor(subjectOf('WebFetch', { url: 'https://example.com' })), { kind: 'anyInput' });
  assert.deepEqual(patternFor(subjectOf('Edit', { file_path: '../outside/a.ts' })), { kind: 'anyInput' }, 'no glob is built over ..');
});

test('a rule answers only requests of its tool that match its pattern', () => {
  const rules = [ruleFor(subjectOf('Edit', { file_path: 'src/a.ts' }), 'allow', run, 'r1', 0), ruleFor(subjectOf('Bash', { command: 'npm test' }), 'allow', run, 'r2', 0)];
  assert.equal(matchRules(rules, subjectOf('Edit', { file_path: 'src/deep/b.ts' }), here)?.id, 'r1');
  assert.equal(matchRules(rules, subjectOf('Edit', { file_path: 'test/b.ts' }), here), undefined, 'another directory');
  assert.equal(matchRules(rules, subjectOf('Write', { file_path: 'src/b.ts' }), here), undefined, 'another tool');
  assert.equal(matchRules(rules, subjectOf('Edit', { file_path: 'src/../etc/passwd' }), here), undefined, 'a path leaving the directory');
  assert.equal(matchRules(rules, subjectOf('Edit', { patch: '+++ b/src/a.ts\n+++ b/lib/c.ts\n' }), here), undefined, 'every path must match');
  assert.equal(matchRules(rules, subjectOf('Bash', { command: 'npm test -- --watch' }), here)?.id, 'r2');
  assert.equal(matchRules(rules, subjectOf('Bash', { command: 'npm testify' }), here), undefined, 'a prefix ends at a word');
  assert.equal(matchRules(rules, subjectOf('Bash', { command: 'npm test && rm -rf ~' }), here), undefined, 'nothing chained after the prefix');
  assert.equal(matchRules(rules, subjectOf('Bash', { command: 'npm test $(curl x)' }), here), undefined);
  assert.equal(matchRules(rules, subjectOf('Bash', {}), here), undefined, 'no command, no match');
  assert.equal(matchRules(rules, undefined, here), undefined, 'a request without a subject is always asked');
});

test('deny wins over allow', () => {
  const allow = ruleFor(subjectOf('Edit', { file_path: 'src/a.ts' }), 'allow', run, 'allow', 0);
  const deny = ruleFor(subjectOf('Edit', { file_path: 'src/x/a.ts' }), 'deny', connection, 'deny', 0);
  assert.equal(matchRules([allow, deny], subjectOf('Edit', { file_path: 'src/x/b.ts' }), here)?.id, 'deny');
  assert.equal(matchRules([allow, deny], subjectOf('Edit', { file_path: 'src/y/b.ts' }), here)?.id, 'allow', 'the deny rule does not cover it');
});

test('nothing crosses its scope: other run, other connection, a reopened connection', () => {
  const subject = subjectOf('Edit', { file_path: 'src/a.ts' });
  const byRun = ruleFor(subject, 'allow', run, 'run', 0);
  const byConnection = ruleFor(subject, 'allow', connection, 'conn', 0);
  const byWorkspace = ruleFor(subject, 'allow', { kind: 'workspace', connectionId: 'ap:A' }, 'ws', 0);
  const rules: ApprovalRule[] = [byRun, byConnection, byWorkspace];
  const ids = (context: RuleContext) => rules.filter((r) => matchRules([r], subject, context)).map((r) => r.id);
  assert.deepEqual(ids(here), ['run', 'conn', 'ws']);
  assert.deepEqual(ids({ ...here, runKey: 'ap:A::run-2' }), ['conn', 'ws'], 'another run of the same connection');
  assert.deepEqual(ids({ ...here, epoch: 2 }), ['run', 'ws'], 'the connection closed and opened again');
  assert.deepEqual(ids({ runKey: 'ap:B::run-1', connectionId: 'ap:B', epoch: 1 }), [], 'another connection');
});

test('each scope says where it is kept', () => {
  assert.match(storageLabel(connection), /until this connection closes/);
  assert.match(storageLabel(run), /in memory/);
  assert.match(storageLabel({ kind: 'workspace', connectionId: 'x' }), /workspace/);
});

test('subjects: paths, argv commands, ACP locations', () => {
  assert.deepEqual(subjectOf('edit', { abs: 1 }, ['/w/a.ts', '/w/a.ts']), { tool: 'edit', paths: ['/w/a.ts'], complete: true });
  assert.deepEqual(subjectOf('exec', { cmd: ['git', 'status'] }), { tool: 'exec', command: 'git status', complete: true });
  assert.deepEqual(subjectOf('', 'not an object'), { tool: 'tool' }, 'a tool without a name is not whole');
  assert.deepEqual(subjectOf('ApplyPatch', '*** Begin Patch\n*** Update File: src/a.ts\n*** Add File: src/b.ts\n'), { tool: 'ApplyPatch', paths: ['src/a.ts', 'src/b.ts'], complete: true });
});

test('a run rule outlives nothing: it goes when its run ends or is removed; connection and workspace rules have other owners', () => {
  const store = new RunStore(() => 1, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'ap:A', name: 'A', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'ap:A', runId: 'run-1', fields: { title: 'Fix', state: 'running' } });
  const rule = ruleFor(subjectOf('Edit', { file_path: 'src/a.ts' }), 'allow', run, 'r1', 5);
  assert.equal(ruleOutlived(rule, store.state), false, 'running');
  for (const state of ['idle', 'waiting_approval'] as const) {
    store.dispatch({ type: 'runUpserted', connectionId: 'ap:A', runId: 'run-1', fields: { state } });
    assert.equal(ruleOutlived(rule, store.state), false, `${state}: the run may still ask`);
  }
  for (const state of ['completed', 'failed', 'canceled', 'interrupted', 'lost', 'stopped'] as const) {
    store.dispatch({ type: 'runUpserted', connectionId: 'ap:A', runId: 'run-1', fields: { state } });
    assert.equal(ruleOutlived(rule, store.state), true, state);
  }
  store.dispatch({ type: 'runRemoved', runKey: here.runKey });
  assert.equal(ruleOutlived(rule, store.state), true, 'removed');
  assert.equal(ruleOutlived({ ...rule, scope: connection }, store.state), false);
  assert.equal(ruleOutlived({ ...rule, scope: { kind: 'workspace', connectionId: 'ap:A' } }, store.state), false);
});

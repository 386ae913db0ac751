/** Which agent modes act without asking, as the run and the mode pickers say. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autonomyOfMode, modeDetail, shownModeName } from '../../../../extension/drivers/acp/autonomousModes';

test("the modes that act without asking are marked (Claude Code's, Codex's full access); the ones that ask are not", () => {
  const cases: readonly (readonly [string, string, string | undefined])[] = [
    ['default', 'Default', undefined],
    ['default', 'Manual', undefined],
    ['plan', 'Plan', undefined],
    ['read-only', 'Read Only', undefined],
    ['auto', 'Auto', 'decides permissions itself, without asking'],
    ['acceptEdits', 'Accept Edits', 'edits files without asking'],
    ['bypassPermissions', 'Bypass Permissions', 'runs tools and edits without asking'],
    ['full-access', 'Full Access', 'runs tools and edits without asking'],
    ['agent-full', 'Agent (full access)', 'runs tools and edits without asking'],
    ['autocomplete', 'Autocomplete', undefined],
    // Codex 2.6's modes (its default is `agent`), Gemini CLI's.
    ['agent', 'Auto review', 'edits workspace files without asking; asks only for what it judges unsafe'],
    ['workspace-write', 'Workspace access', 'edits workspace files without asking'],
    ['agent-full-access', 'Full access', 'runs tools and edits without asking'],
    ['autoEdit', 'Auto Edit', 'edits files without asking'],
    ['yolo', 'YOLO', 'runs tools and edits without asking'],
    ['automation-review', 'Review', undefined],
  ];
  for (const [id, name, expected] of cases) {
    assert.equal(autonomyOfMode(id, name), expected, `${id} / ${name}`);
  }
  assert.equal(shownModeName('plan', 'Plan'), 'Plan');
  assert.equal(shownModeName('auto', 'Auto'), 'Auto ⚠ decides permissions itself, without asking');
});

test('a picker says what such a mode lets the agent do before its own description', () => {
  assert.deepEqual(modeDetail({ id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' }), {
    detail: '⚠ The agent decides permissions itself, without asking. Claude handles permission decisions',
  });
  assert.deepEqual(modeDetail({ id: 'default', name: 'Default', description: 'Asks before edits' }), { detail: 'Asks before edits' });
  assert.deepEqual(modeDetail({ id: 'plan', name: 'Plan' }), {});
});

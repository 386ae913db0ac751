/**
 * The run-state display table (extension/protocol/runStateDisplay.ts): one entry per RunState, read by the tree
 * (extension/ui/runPresentation.ts) and the transcript header (webview/runStateDisplay.ts); every colour it names
 * has its class in media/transcript.css.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RUN_STATE_DISPLAY, runStateDisplay, themeColorClass } from '../../../extension/protocol/runStateDisplay';
import { runStateSchema } from '../../../extension/protocol/transcriptTypes';
import { stateDisplay } from '../../../webview/runStateDisplay';

const states = runStateSchema.options;

test('every RunState has an entry, and the table has no other', () => {
  assert.deepEqual(Object.keys(RUN_STATE_DISPLAY).sort(), [...states].sort());
  for (const state of states) {
    const d = runStateDisplay(state);
    assert.match(d.icon, /^[a-z][a-z0-9-]*$/, `${state}: a bare codicon name (spinning is the spin flag, not ~spin)`);
    assert.match(d.label, /^[A-Z]/, `${state}: a sentence-case label`);
    assert.equal(typeof d.spin, 'boolean');
  }
});

test('a run waiting for your message says so with a still speech bubble; working states spin, ended ones do not', () => {
  assert.deepEqual(runStateDisplay('idle'), { icon: 'comment-discussion', label: 'Waiting for your message', color: 'charts.green', spin: false });
  assert.deepEqual(states.filter((s) => runStateDisplay(s).spin).sort(), ['finishing', 'running', 'starting']);
});

test('the webview header shows exactly the table: icon, label, colour class and spin', () => {
  for (const state of states) {
    const d = runStateDisplay(state);
    const shown = stateDisplay(state);
    assert.equal(shown.icon, d.icon);
    assert.equal(shown.label, d.label);
    assert.equal(shown.extra.includes('codicon-modifier-spin'), d.spin, state);
    assert.equal(d.color === undefined || shown.extra.includes(themeColorClass(d.color)), true, state);
  }
});

test('media/transcript.css colours every theme colour the table names', () => {
  const css = readFileSync(join(__dirname, '..', '..', '..', 'media', 'transcript.css'), 'utf8');
  for (const color of new Set(states.map((s) => runStateDisplay(s).color).filter((c) => c !== undefined))) {
    const cls = themeColorClass(color);
    const rule = new RegExp(`\\.run-state-icon\\.${cls}\\s*\\{[^}]*var\\(--vscode-${color.replace(/\./g, '-')}\\b`);
    assert.match(css, rule, `a .run-state-icon.${cls} rule using --vscode-${color.replace(/\./g, '-')}`);
  }
});

/** New Run's provider list: every reported provider, its state, and the hint when it cannot run. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderChoice } from '../../../../extension/drivers/driver';
import { presentProvider, presentProviders } from '../../../../extension/drivers/kit/providerChoices';

const claude: ProviderChoice = { provider: 'claude', installed: true, version: '2.1.0', authState: 'logged_in', detail: '', loginHint: 'claude login' };
const codexMissing: ProviderChoice = { provider: 'codex', installed: false, authState: 'unknown', detail: '', loginHint: 'codex login' };
const copilotOut: ProviderChoice = { provider: 'copilot', installed: true, version: '1.0.3', authState: 'logged_out', detail: '', loginHint: 'copilot login' };

test('a not-installed provider stays in the list when another is installed, after the runnable ones', () => {
  const shown = presentProviders([codexMissing, claude, copilotOut]);
  assert.deepEqual(shown.map((p) => [p.provider, p.runnable]), [['claude', true], ['codex', false], ['copilot', false]]);
});

test('not installed: the install command as hint; logged out: the daemon’s loginHint', () => {
  assert.deepEqual(presentProvider(codexMissing), {
    provider: 'codex',
    description: 'not installed',
    detail: 'Install it: npm install -g @openai/codex',
    runnable: false,
    hint: 'Install it: npm install -g @openai/codex',
    command: 'npm install -g @openai/codex',
  });
  const out = presentProvider(copilotOut);
  assert.equal(out.runnable, false);
  assert.equal(out.description, '1.0.3 · logged out');
  assert.equal(out.hint, 'Log in first: copilot login');
  assert.equal(out.command, 'copilot login');
});

test('the daemon’s own detail wins for an unknown provider, and a provider without hints gets a generic one', () => {
  const odd = presentProvider({ provider: 'gemini', installed: false, authState: 'unknown', detail: 'not on PATH', loginHint: '' });
  assert.equal(odd.detail, 'not on PATH');
  assert.equal(odd.hint, 'Install the gemini CLI on this machine.');
  assert.equal(odd.command, undefined);
  const noLogin = presentProvider({ ...copilotOut, loginHint: '  ' });
  assert.equal(noLogin.hint, 'Log in to copilot first.');
  assert.equal(noLogin.command, undefined);
});

test('logged in and unknown login state can run; outdated is said', () => {
  assert.deepEqual(presentProvider({ ...claude, outdated: true }), { provider: 'claude', description: '2.1.0 · logged in · update available', runnable: true });
  const unknown = presentProvider({ ...claude, authState: 'unknown' });
  assert.equal(unknown.runnable, true);
  assert.equal(unknown.description, '2.1.0 · login state unknown');
  assert.equal(unknown.detail, 'If the run fails, log in: claude login');
});

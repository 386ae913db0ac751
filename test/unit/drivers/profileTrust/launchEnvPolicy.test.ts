/** Which env keys a repository's profile may not set: the ones that change what code runs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changesWhatRuns, codeChangingKeys } from '../../../../extension/drivers/profileTrust/launchEnvPolicy';

test('the loader, runtime preload, shell start-up and config-home variables change what runs', () => {
  for (const key of ['PATH', 'NODE_OPTIONS', 'NODE_PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'BASH_ENV', 'ENV', 'PYTHONPATH', 'PYTHONSTARTUP', 'PERL5OPT', 'RUBYOPT', 'ELECTRON_RUN_AS_NODE', 'GIT_SSH_COMMAND', 'GIT_CONFIG_COUNT', 'npm_config_registry', 'HOME', 'SHELL']) {
    assert.equal(changesWhatRuns(key), true, key);
  }
});

test('names are matched case-insensitively (Windows has one Path)', () => {
  assert.equal(changesWhatRuns('Path'), true);
  assert.equal(changesWhatRuns('node_options'), true);
  assert.equal(changesWhatRuns('Ld_Preload'), true);
});

test('ordinary variables pass', () => {
  for (const key of ['DEBUG', 'ANTHROPIC_MODEL', 'LANG', 'TZ', 'NO_COLOR', 'MY_PATH', 'GITHUB_TOKEN_HINT', 'OLD_PRELOAD']) {
    assert.equal(changesWhatRuns(key), false, key);
  }
});

test('codeChangingKeys lists the refused keys of an env in its order', () => {
  assert.deepEqual(codeChangingKeys({ DEBUG: '1', NODE_OPTIONS: '--require ./x.js', LANG: 'C', PATH: '/tmp' }), ['NODE_OPTIONS', 'PATH']);
  assert.deepEqual(codeChangingKeys(undefined), []);
});

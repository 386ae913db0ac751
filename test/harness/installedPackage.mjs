// The "Installed package" launch's set-up (runIntegration.mjs): the extension packaged and installed as a user
// installs it, and a stand-in extension under development, so that the launch runs the package, not the working tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Packages the extension as `npm run package` does (agent-switchboard.vsix: a production build and what
 * .vscodeignore lets through) and installs it with code-server's --install-extension into `userData`'s extensions
 * directory, the one the launch on `userData` uses. Returns that directory.
 */
export function installPackage(env, userData) {
  execFileSync('npm', ['run', 'package'], { cwd: root, stdio: 'inherit' });
  const extensions = join(userData, 'extensions');
  // A config file of its own: without one, code-server writes a default one into the user's home.
  const config = join(userData, 'install-config.yaml');
  writeFileSync(config, '{}\n');
  execFileSync(env.CODE_SERVER_NODE, [env.CODE_SERVER_ENTRY, '--config', config, '--user-data-dir', join(userData, 'user-data'), '--extensions-dir', extensions, '--install-extension', join(root, 'agent-switchboard.vsix')], {
    cwd: root,
    stdio: 'inherit',
  });
  return extensions;
}

/**
 * VS Code runs an extensionTestsPath only beside an extension under development, and this launch must not develop
 * ours (it would load the working tree instead of the package): an empty extension of another name stands in.
 */
export function testRunnerExtension(dir) {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'switchboard-test-runner', publisher: 'agent-switchboard', version: '0.0.0', engines: { vscode: '^1.139.0' } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  return dir;
}

/** Mocha entry run inside the VS Code extension host; prints the `N passed, N failed` line the runner reads. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000 });
  const grep = process.env.SWITCHBOARD_INTEGRATION_GREP;
  if (grep) {
    // "/a|b/" is a regular expression (several suites in one window, as the full run has them); anything else is a
    // plain substring, which mocha escapes.
    const regex = /^\/(.+)\/$/.exec(grep);
    mocha.grep(regex ? new RegExp(regex[1]!) : grep);
    if (process.env.SWITCHBOARD_INTEGRATION_INVERT === '1') {
      mocha.invert();
    }
  }
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) {
      mocha.addFile(path.join(__dirname, file));
    }
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      console.log(`${runner.stats?.passes ?? 0} passed, ${failures} failed`);
      if (failures > 0) {
        reject(new Error(`${failures} integration tests failed.`));
      } else {
        resolve();
      }
    });
  });
}

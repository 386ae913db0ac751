/**
 * One door into the model: a driver's folder may not dispatch to the store (only the kit's DriverRuns does), and the
 * drivers as they are obey it. Proves the lint rule fires for every daemon's folder — the ones there are today,
 * read from the file system, so a new daemon is covered without editing this test.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..', '..');
const driversDir = join(root, 'extension', 'drivers');
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } }, rules: { '@typescript-eslint/no-floating-promises': 'off' } },
});

async function doorErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const daemonFolders = readdirSync(driversDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'kit')
  .map((entry) => entry.name);

const dispatches = [
  "export function f(store: { dispatch(a: unknown): void }): void {\n  store.dispatch({ type: 'connectionRemoved', connectionId: 'x' });\n}\n",
  "export class D {\n  constructor(private readonly ctx: { store: { dispatch(a: unknown): void } }) {}\n  f(): void {\n    this.ctx.store.dispatch({ type: 'runRemoved', runKey: 'k' });\n  }\n}\n",
];

test('every driver folder is found (the ACP driver and the four daemons at least)', () => {
  for (const daemon of ['acp', 'agencyProxy', 'a3s', 'hive', 'scv']) {
    assert.ok(daemonFolders.includes(daemon), daemon);
  }
});

for (const daemon of daemonFolders) {
  test(`a store.dispatch in extension/drivers/${daemon}/ is an error: the door is this.runs`, async () => {
    for (const code of dispatches) {
      const errors = await doorErrors(`extension/drivers/${daemon}/doorProbe.ts`, code);
      assert.equal(errors.length, 1, code);
      assert.match(errors[0]!, /only through its door/);
    }
  });
}

test('the kit itself may dispatch (it is the door), and a default export in a driver is still refused', async () => {
  assert.deepEqual(await doorErrors('extension/drivers/kit/doorProbe.ts', dispatches[0]!), []);
  const errors = await doorErrors('extension/drivers/scv/doorProbe.ts', 'export default function f(): void {}\n');
  assert.deepEqual(errors, ['Use named exports.']);
});

test('no driver folder dispatches to the store today', async () => {
  const files = daemonFolders.map((daemon) => join(driversDir, daemon, '**', '*.ts'));
  const results = await eslint.lintFiles(files);
  const found = results.flatMap((r) => r.messages.filter((m) => /only through its door/.test(m.message)).map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(found, []);
});

test('a default export is refused everywhere in extension/, also where a block lists syntax rules of its own', async () => {
  for (const file of ['extension/ui/doorProbe.ts', 'extension/extension.ts', 'extension/model/doorProbe.ts', 'extension/drivers/kit/doorProbe.ts']) {
    assert.deepEqual(await doorErrors(file, 'export default function f(): void {}\n'), ['Use named exports.'], file);
  }
});

/**
 * One module knows the run/approval key format: building a key with '::' or taking one apart by it anywhere in
 * extension/ or webview/ except model/runKeys.ts is a lint error, and the sources as they are obey it. The zones'
 * own no-restricted-syntax selectors still fire beside it (the rule has a name of its own, so it adds, not replaces).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } }, rules: { '@typescript-eslint/no-floating-promises': 'off' } },
});

async function errorsIn(file: string, code: string): Promise<{ readonly rule: string | null; readonly message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'runKeys/no-key-format' || m.ruleId === 'no-restricted-syntax').map((m) => ({ rule: m.ruleId, message: m.message }));
}

const keyCode = [
  'export const key = (connectionId: string, runId: string): string => `${connectionId}::${runId}`;\n',
  "export const parts = (key: string): string[] => key.split('::');\n",
  "export const isRun = (key: string): boolean => key.includes('::');\n",
  "export const key = (connectionId: string, runId: string): string => connectionId + '::' + runId;\n",
];

const places = ['extension/ui/commands/keyProbe.ts', 'extension/drivers/acp/keyProbe.ts', 'extension/model/keyProbe.ts', 'extension/extension.ts', 'webview/keyProbe.ts'];

for (const place of places) {
  test(`building or reading a key with '::' in ${place} is an error`, async () => {
    for (const code of keyCode) {
      const errors = await errorsIn(place, code);
      assert.ok(errors.length >= 1, code);
      assert.ok(errors.every((e) => e.rule === 'runKeys/no-key-format' && /only by extension\/model\/runKeys\.ts/.test(e.message)), JSON.stringify(errors));
    }
  });
}

test('model/runKeys.ts itself may, and the IPv6 loopback address is not a key', async () => {
  for (const code of keyCode) {
    assert.deepEqual(await errorsIn('extension/model/runKeys.ts', code), []);
  }
  assert.deepEqual(await errorsIn('extension/transport/keyProbe.ts', "export const loopback = (host: string): boolean => host === '::1';\n"), []);
});

test("the zones' own selectors still fire beside it (a driver's store.dispatch, the UI's protocol-name branch)", async () => {
  const dispatch = await errorsIn('extension/drivers/scv/keyProbe.ts', "export function f(store: { dispatch(a: unknown): void }): void {\n  store.dispatch({ type: 'x' });\n}\n");
  assert.ok(dispatch.some((e) => e.rule === 'no-restricted-syntax' && /only through its door/.test(e.message)), JSON.stringify(dispatch));
  const branch = await errorsIn('extension/ui/keyProbe.ts', "export const isScv = (p: string): boolean => p === 'scv';\n");
  assert.ok(branch.some((e) => e.rule === 'no-restricted-syntax' && /protocol name/.test(e.message)), JSON.stringify(branch));
});

test("no file in extension/ or webview/ builds or reads a key with '::' today", async () => {
  const results = await eslint.lintFiles([join(root, 'extension', '**', '*.ts'), join(root, 'webview', '**', '*.ts')]);
  const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'runKeys/no-key-format').map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(found, []);
});

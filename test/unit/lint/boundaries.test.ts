/** The layer boundaries are enforced by ESLint; these tests prove the rules fire (and stay quiet when they should). */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { daemonRegistry } from '../../../extension/drivers/daemonRegistry';
import { PROTOCOL_NAMES } from '../../../extension/protocol/protocolNames';

const root = join(import.meta.dirname, '..', '..', '..');

/** What eslint.config.mjs exports besides the config: how it derives the daemons' zones. */
interface ZoneDerivation {
  readProtocolNames(file?: string): string[];
  daemonDriverFolders(protocolNames?: readonly string[], driversDir?: string): string[];
  sharedDriverFolders: readonly string[];
}
async function zoneDerivation(): Promise<ZoneDerivation> {
  return (await import(pathToFileURL(join(root, 'eslint.config.mjs')).href)) as ZoneDerivation;
}
/**
 * The daemons' driver folders as the daemon registry has them: the folders it takes its drivers from. The config
 * derives its zones from PROTOCOL_NAMES instead; a test below proves the two agree.
 */
const daemonFolders = [...new Set([...readFileSync(join(root, 'extension/drivers/daemonRegistry.ts'), 'utf8').matchAll(/from '\.\/(\w+)\//g)].map((m) => m[1]!))]
  .filter((folder) => folder !== 'kit')
  .sort();
// The probes are linted as text at paths that do not exist, so type-aware parsing is switched off here; the
// boundary rules do not need type information.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});

async function restrictedImportErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const vscodeImport = "import * as vscode from 'vscode';\nexport const x = vscode.version;\n";

test('a vscode import in webview/ is an error', async () => {
  const errors = await restrictedImportErrors('webview/boundaryProbe.ts', vscodeImport);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /webviews/);
});

test('a vscode import in extension/model/ is an error', async () => {
  const errors = await restrictedImportErrors('extension/model/boundaryProbe.ts', vscodeImport);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /Only extension\/ui/);
});

for (const layer of ['protocol', 'transport', 'drivers', 'base', 'changeSets']) {
  test(`a vscode import in extension/${layer}/ is an error`, async () => {
    assert.equal((await restrictedImportErrors(`extension/${layer}/boundaryProbe.ts`, vscodeImport)).length, 1);
  });
}

test('extension/drivers/kit imports no vscode, no ui and no concrete driver, but may use the model, base and transport', async () => {
  const probe = 'extension/drivers/kit/boundaryProbe.ts';
  assert.equal((await restrictedImportErrors(probe, vscodeImport)).length, 1);
  for (const code of [
    "import { errorText } from '../../ui/commands/commandContext';\nexport const e = errorText;\n",
    "import { AgencyProxyDriver } from '../agencyProxy/agencyProxyDriver';\nexport const d = AgencyProxyDriver;\n",
    "import type { ScvClient } from '../scv/client';\nexport type C = ScvClient;\n",
    "import { daemonRegistry } from '../daemonRegistry';\nexport const r = daemonRegistry;\n",
  ]) {
    const errors = await restrictedImportErrors(probe, code);
    assert.equal(errors.length, 1, code);
    assert.match(errors[0]!, /drivers\/kit may not import extension\/ui or a concrete driver/);
  }
  // The kit sits between the model and the drivers: the base driver writes into the model.
  for (const code of [
    "import { RunStore } from '../../model/runStore';\nexport const s = RunStore;\n",
    "import type { ProtocolName } from '../../model/modelTypes';\nexport type P = ProtocolName;\n",
    "import { Emitter } from '../../base/emitter';\nimport { Backoff } from '../../transport/backoff';\nexport const x = [Emitter, Backoff];\n",
    "import type { DriverContext } from '../connectionManager';\nimport type { Driver } from '../driver';\nexport type X = [DriverContext, Driver];\n",
  ]) {
    assert.deepEqual(await restrictedImportErrors(probe, code), [], code);
  }
});

async function syntaxErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('extension/ui reaches daemon features through declarations: no driver classes, no protocol-name branches', async () => {
  const probe = 'extension/ui/boundaryProbe.ts';
  const driverImport = await syntaxErrors(probe, "import { ScvDriver } from '../drivers/scv/scvDriver';\nexport const d = ScvDriver;\n");
  assert.equal(driverImport.length, 1);
  assert.match(driverImport[0]!, /concrete driver/);
  const instance = await syntaxErrors(probe, 'declare const ScvDriver: new () => object;\nexport const f = (d: unknown): boolean => d instanceof ScvDriver;\n');
  assert.equal(instance.length, 1);
  assert.match(instance[0]!, /daemon action/);
  for (const code of ["export const f = (p: string): boolean => p === 'agency-proxy';\n", "export const f = (c: { protocol: string }): boolean => 'hive' !== c.protocol;\n"]) {
    const branch = await syntaxErrors(probe, code);
    assert.equal(branch.length, 1, code);
    assert.match(branch[0]!, /protocol name/);
  }
  // What the UI does use stays quiet: the Driver interface, the registry, vscode instanceof checks.
  assert.deepEqual(
    await syntaxErrors(
      probe,
      "import * as vscode from 'vscode';\nimport type { Driver } from '../drivers/driver';\nimport { registeredActions } from '../drivers/daemonRegistry';\nexport const f = (u: unknown, d?: Driver): boolean => u instanceof vscode.Uri && registeredActions().length > 0 && d !== undefined;\n",
    ),
    [],
  );
});

test("the per-daemon zones are the daemon registry's protocols, each on the folder the registry takes its driver from", async () => {
  const zones = await zoneDerivation();
  // The config reads PROTOCOL_NAMES from its source; the registry is keyed by the same list (Record<ProtocolName, …>).
  assert.deepEqual(zones.readProtocolNames(), [...PROTOCOL_NAMES]);
  assert.deepEqual(Object.keys(daemonRegistry), [...PROTOCOL_NAMES]);
  assert.deepEqual([...zones.daemonDriverFolders()].sort(), daemonFolders);
  assert.ok(daemonFolders.includes('acp') && daemonFolders.includes('agencyProxy'), daemonFolders.join());
});

test('a daemon added to the registry without its driver folder, or a driver folder no zone covers, stops lint', async () => {
  const zones = await zoneDerivation();
  assert.throws(() => zones.daemonDriverFolders([...PROTOCOL_NAMES, 'open-hands']), /no driver folder extension\/drivers\/openHands/);
  const driversDir = mkdtempSync(join(tmpdir(), 'zones-'));
  try {
    for (const folder of [...daemonFolders, ...zones.sharedDriverFolders, 'openHandsDriver']) {
      mkdirSync(join(driversDir, folder));
    }
    assert.throws(() => zones.daemonDriverFolders(PROTOCOL_NAMES, driversDir), /openHandsDriver is neither a daemon's folder/);
    assert.deepEqual(zones.daemonDriverFolders([...PROTOCOL_NAMES, 'open-hands-driver'], driversDir).sort(), [...daemonFolders, 'openHandsDriver'].sort());
  } finally {
    rmSync(driversDir, { recursive: true, force: true });
  }
});

for (const [index, daemon] of daemonFolders.entries()) {
  test(`extension/drivers/${daemon} imports only the kit, its own protocol, the model and the lower layers`, async () => {
    const probe = `extension/drivers/${daemon}/boundaryProbe.ts`;
    const other = daemonFolders[(index + 1) % daemonFolders.length]!;
    assert.equal((await restrictedImportErrors(probe, vscodeImport)).length, 1);
    for (const code of [
      `import * as other from '../${other}/client';\nexport const o = other;\n`,
      `import * as otherProtocol from '../../protocol/${other}';\nexport const p = otherProtocol;\n`,
      "import type { CommandContext } from '../../ui/commands/commandContext';\nexport type C = CommandContext;\n",
      "import { daemonRegistry } from '../daemonRegistry';\nexport const r = daemonRegistry;\n",
      "import type { HostToWebview } from '../../protocol/webviewMessages';\nexport type H = HostToWebview;\n",
      "import * as webview from '../../../webview/transcriptStore';\nexport const w = webview;\n",
    ]) {
      assert.equal((await restrictedImportErrors(probe, code)).length, 1, code);
    }
    for (const code of [
      `import * as own from './client';\nexport const o = own;\n`,
      `import * as ownProtocol from '../../protocol/${daemon}';\nexport const p = ownProtocol;\n`,
      `import * as ownSplit from '../../protocol/${daemon}Events';\nimport * as ownNested from '../../protocol/${daemon}/events';\nexport const p = [ownSplit, ownNested];\n`,
      "import type { RunState } from '../../protocol/transcriptTypes';\nimport type { ConnectionProfile } from '../../protocol/connectionProfile';\nimport type { Panel } from '../../protocol/panels';\nexport type X = [RunState, ConnectionProfile, Panel];\n",
      "import { BaseDriver } from '../kit/baseDriver';\nimport type { Driver } from '../driver';\nimport type { DriverContext } from '../connectionManager';\nexport const b = BaseDriver;\nexport type X = [Driver, DriverContext];\n",
      "import { resolveAgentCommand } from '../profileTrust/commandResolution';\nexport const r = resolveAgentCommand;\n",
      "import { RunStore } from '../../model/runStore';\nimport { Backoff } from '../../transport/backoff';\nimport { Emitter } from '../../base/emitter';\nexport const x = [RunStore, Backoff, Emitter];\n",
      "import { RunJournal } from '../../storage/runJournal';\nimport { LocalChangeSets } from '../../changeSets/localChangeSet';\nexport const x = [RunJournal, LocalChangeSets];\n",
      "import { createHash } from 'node:crypto';\nimport { z } from 'zod';\nexport const x = [createHash, z];\n",
    ]) {
      assert.deepEqual(await restrictedImportErrors(probe, code), [], code);
    }
  });
}

test('extension/model may not import the webview contract, but may import the protocol modules it shares', async () => {
  const probe = 'extension/model/boundaryProbe.ts';
  for (const code of [
    "import type { Panel } from '../protocol/webviewMessages';\nexport type P = Panel;\n",
    "import { runSummarySchema } from '../protocol/webviewMessages';\nexport const s = runSummarySchema;\n",
  ]) {
    const errors = await restrictedImportErrors(probe, code);
    assert.equal(errors.length, 1, code);
    assert.match(errors[0]!, /extension\/model may not import protocol\/webviewMessages/);
  }
  assert.equal((await restrictedImportErrors('extension/model/nested/boundaryProbe.ts', "import type { Panel } from '../../protocol/webviewMessages';\nexport type P = Panel;\n")).length, 1);
  // The model keeps the vscode ban of its layer alongside the new pattern.
  assert.equal((await restrictedImportErrors(probe, vscodeImport)).length, 1);
  for (const code of [
    "import type { Panel } from '../protocol/panels';\nexport type P = Panel;\n",
    "import type { RunState } from '../protocol/transcriptTypes';\nexport type S = RunState;\n",
  ]) {
    assert.deepEqual(await restrictedImportErrors(probe, code), [], code);
  }
  // Only the model is barred: the ui still speaks the contract.
  assert.deepEqual(await restrictedImportErrors('extension/ui/boundaryProbe.ts', "import type { Panel } from '../protocol/webviewMessages';\nexport type P = Panel;\n"), []);
});

test("outside extension/model, RunInfo's streaming bookkeeping is read through runQueries, not directly", async () => {
  const code = 'declare const run: { openTools: Map<string, string>; itemCount: number };\nexport const n = [run.openTools.size, run.itemCount];\n';
  const propertyErrors = async (file: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.message);
  };
  const errors = await propertyErrors('extension/drivers/scv/boundaryProbe.ts');
  assert.equal(errors.length, 2);
  assert.match(errors[0]!, /runQueries/);
  assert.equal((await propertyErrors('extension/ui/boundaryProbe.ts')).length, 2);
  assert.deepEqual(await propertyErrors('extension/model/boundaryProbe.ts'), []);
});

test('extension/ui may import vscode', async () => {
  assert.deepEqual(await restrictedImportErrors('extension/ui/boundaryProbe.ts', vscodeImport), []);
});

test('the webview may not import Node built-ins or host code, only the message schemas', async () => {
  assert.equal((await restrictedImportErrors('webview/boundaryProbe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).length, 1);
  assert.equal(
    (await restrictedImportErrors('webview/boundaryProbe.ts', "import { RunStore } from '../extension/model/runStore';\nexport const s = RunStore;\n")).length,
    1,
  );
  assert.deepEqual(
    await restrictedImportErrors(
      'webview/boundaryProbe.ts',
      "import { hostToWebviewSchema } from '../extension/protocol/webviewMessages';\nexport const s = hostToWebviewSchema;\n",
    ),
    [],
  );
  assert.deepEqual(
    await restrictedImportErrors('webview/boundaryProbe.ts', "import { buildDiffRows } from '../extension/protocol/changeSetRows';\nexport const b = buildDiffRows;\n"),
    [],
  );
  assert.deepEqual(
    await restrictedImportErrors('webview/boundaryProbe.ts', "import { visibleText } from '../extension/protocol/visibleText';\nexport const v = visibleText;\n"),
    [],
  );
  assert.deepEqual(
    await restrictedImportErrors(
      'webview/boundaryProbe.ts',
      "import { applyPatch } from '../extension/protocol/transcriptPatch';\nimport { runStateDisplay } from '../extension/protocol/runStateDisplay';\nexport const p = [applyPatch, runStateDisplay];\n",
    ),
    [],
  );
  assert.equal(
    (await restrictedImportErrors('webview/boundaryProbe.ts', "import { a3sEventSchema } from '../extension/protocol/a3s';\nexport const a = a3sEventSchema;\n")).length,
    1,
  );
});

test('extension/protocol may not import Node built-ins', async () => {
  assert.equal((await restrictedImportErrors('extension/protocol/boundaryProbe.ts', "import { Buffer } from 'node:buffer';\nexport const b = Buffer;\n")).length, 1);
});

test('extension/changeSets may import protocol and Node built-ins, not drivers, model, ui or other layers', async () => {
  const probe = 'extension/changeSets/boundaryProbe.ts';
  for (const code of [
    "import type { DriverLog } from '../drivers/connectionManager';\nexport type L = DriverLog;\n",
    "import { RunStore } from '../model/runStore';\nexport const s = RunStore;\n",
    "import { runChangeSetPanelAction } from '../ui/changeSets/changeSetPanels';\nexport const p = runChangeSetPanelAction;\n",
    "import { RunJournal } from '../storage/runJournal';\nexport const j = RunJournal;\n",
    "import * as labels from '../../webview/changeSetLabels';\nexport const w = labels;\n",
  ]) {
    const errors = await restrictedImportErrors(probe, code);
    assert.equal(errors.length, 1, code);
    assert.match(errors[0]!, /extension\/changeSets is the daemon-independent change-set engine/);
  }
  assert.equal((await restrictedImportErrors('extension/changeSets/nested/boundaryProbe.ts', "import { RunStore } from '../../model/runStore';\nexport const s = RunStore;\n")).length, 1);
  for (const code of [
    "import { A3S_LIMITS } from '../protocol/a3s';\nexport const l = A3S_LIMITS;\n",
    "import { createHash } from 'node:crypto';\nexport const h = createHash;\n",
    "import { applyPatch } from 'diff';\nexport const a = applyPatch;\n",
    "import { parseGitPatch } from './patchParser';\nexport const p = parseGitPatch;\n",
  ]) {
    assert.deepEqual(await restrictedImportErrors(probe, code), [], code);
  }
  assert.deepEqual(
    await restrictedImportErrors('extension/changeSets/nested/boundaryProbe.ts', "import { A3S_LIMITS } from '../../protocol/a3s';\nexport const l = A3S_LIMITS;\n"),
    [],
  );
});

test('drivers and ui may import extension/changeSets', async () => {
  assert.deepEqual(
    await restrictedImportErrors('extension/drivers/boundaryProbe.ts', "import { LocalChangeSets } from '../changeSets/localChangeSet';\nexport const l = LocalChangeSets;\n"),
    [],
  );
  assert.deepEqual(
    await restrictedImportErrors('extension/drivers/a3s/boundaryProbe.ts', "import { LocalChangeSets } from '../../changeSets/localChangeSet';\nexport const l = LocalChangeSets;\n"),
    [],
  );
  assert.deepEqual(
    await restrictedImportErrors('extension/ui/changeSets/boundaryProbe.ts', "import { parseGitPatch } from '../../changeSets/patchParser';\nexport const p = parseGitPatch;\n"),
    [],
  );
});

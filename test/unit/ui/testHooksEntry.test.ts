/**
 * The test hooks are the test host's only: activated as VS Code activates it for a user (ExtensionMode.Production),
 * the extension registers no command handing them out and its API has none; activated for tests
 * (ExtensionMode.Test) the command is there and returns them. Runs extension.ts under the bench's vscode stub.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { createVscodeStub } from '../../../bench/vscodeStub';
import type { SwitchboardApi } from '../../../extension/switchboardApi';
import { TEST_HOOKS_COMMAND } from '../../../extension/switchboardTestHooks';

type ModuleLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };
type ExtensionModule = { activate(context: unknown): Promise<SwitchboardApi | undefined>; deactivate(): Promise<void> };

const ROOT = resolve(__dirname, '../../..');
/** One user profile (not connected), so the API has a profile to hand out. */
const PROFILE_ID = 'agency-proxy:Probe';
const { api: stub, record } = createVscodeStub({ configuration: { connections: [{ name: 'Probe', protocol: 'agency-proxy', socketPath: '/tmp/probe.sock' }], autoConnect: false } });
const Uri = stub.Uri as { file(p: string): unknown };
const ExtensionMode = stub.ExtensionMode as { Production: number; Test: number };
const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
let storage = '';
let extension: ExtensionModule;

before(async () => {
  storage = mkdtempSync(join(tmpdir(), 'sb-hooks-'));
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  extension = (await import(join(ROOT, 'extension', 'extension.ts'))) as ExtensionModule;
});

after(() => {
  loader._load = originalLoad;
  rmSync(storage, { recursive: true, force: true });
});

/** Activates in `extensionMode`; `whileActive` runs before the extension is deactivated and disposed. */
async function activated(extensionMode: number, whileActive: (api: SwitchboardApi) => void = () => undefined): Promise<{ api: SwitchboardApi; commands: string[] }> {
  const from = record.commands.length;
  const subscriptions: { dispose(): unknown }[] = [];
  const memento = { get: () => undefined, update: () => Promise.resolve(), keys: () => [] };
  const api = await extension.activate({
    subscriptions,
    extensionMode,
    extensionUri: Uri.file(ROOT),
    extensionPath: ROOT,
    globalStorageUri: Uri.file(storage),
    storageUri: undefined,
    secrets: { get: () => Promise.resolve(undefined), store: () => Promise.resolve(), delete: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) },
    extension: { packageJSON: { version: 'test' } },
    globalState: memento,
    workspaceState: memento,
  });
  assert.ok(api, 'activate() succeeded under the stub');
  whileActive(api);
  await extension.deactivate();
  for (const s of subscriptions.reverse()) {
    s.dispose();
  }
  assert.ok(api, 'activate() succeeded under the stub');
  return { api, commands: record.commands.slice(from) };
}

test('a user host: no test-hooks command, and the API has no test hooks', async () => {
  const { api, commands } = await activated(ExtensionMode.Production);
  assert.ok(commands.includes('agentSwitchboard.newRun'), 'the commands were registered');
  assert.equal(commands.includes(TEST_HOOKS_COMMAND), false);
  assert.equal('testHooks' in api, false);
});

test('a test host: the test-hooks command is registered (the API still has no hooks)', async () => {
  const { api, commands } = await activated(ExtensionMode.Test);
  assert.equal(commands.includes(TEST_HOOKS_COMMAND), true);
  assert.equal('testHooks' in api, false);
});

/**
 * Every member of the API, as `path: kind` (a getter, a function or a frozen plain object, walked into), in order.
 * An object that is not frozen or not plain, or a member with a setter, is named so, and the assertion fails on it.
 */
function shapeOf(value: object, prefix = ''): string[] {
  const members: string[] = [];
  if (!Object.isFrozen(value)) {
    members.push(`${prefix || '(api)'}: not frozen`);
  }
  // A class instance would carry methods on its prototype, which the walk below does not see.
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    members.push(`${prefix || '(api)'}: not a plain object`);
  }
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    const path = `${prefix}${name}`;
    if (descriptor.get || descriptor.set) {
      members.push(`${path}: ${descriptor.set ? 'settable' : 'getter'}`);
    } else if (typeof descriptor.value === 'function') {
      members.push(`${path}: function`);
    } else if (typeof descriptor.value === 'object' && descriptor.value !== null) {
      members.push(...shapeOf(descriptor.value as object, `${path}.`));
    } else {
      members.push(`${path}: ${typeof descriptor.value}`);
    }
  }
  return members;
}

test('the public API is read-only views: exactly these members, all frozen; none decides, connects, writes or asks', async () => {
  for (const mode of [ExtensionMode.Production, ExtensionMode.Test]) {
    const { api } = await activated(mode, (live) => {
      // A profile read through the API is a frozen copy: what a connection runs cannot be changed through it.
      const profile = live.connections.profile(PROFILE_ID);
      assert.equal(profile?.name, 'Probe', [...live.store.state.connections.keys()].join());
      assert.ok(profile && Object.isFrozen(profile));
      assert.throws(() => {
        (profile as { socketPath: string }).socketPath = '/tmp/elsewhere.sock';
      }, TypeError);
      assert.equal(live.connections.profile(PROFILE_ID)?.socketPath, '/tmp/probe.sock');
    });
    assert.deepEqual(shapeOf(api), [
      'store.state: getter',
      'store.transcript: function',
      'store.onDidChange: function',
      'store.onDidPatch: function',
      'connections.profile: function',
      'connections.originOf: function',
      'selection.runKey: getter',
      'selection.onDidChange: function',
      'board.provider.snapshot: function',
      'board.provider.groupOf: function',
      'reloadProfiles: function',
      'flushTrace: function',
      'transcriptTabs.list: function',
      'agentTerminals.list: function',
      'drafts.get: function',
      'drafts.flush: function',
    ]);
    // Frozen: a caller cannot put its own function in place of one (strict mode throws on the assignment).
    assert.throws(() => {
      (api.store as { transcript: unknown }).transcript = () => undefined;
    }, TypeError);
    // The views hand out no service: the store view has no dispatch, whatever the object behind it has.
    assert.equal('dispatch' in api.store, false);

  }
});

/**
 * ui/lazyCommands.ts: a command whose handler lives in a bundle loaded on first use loads it at a call, not at
 * registration, and passes its arguments and result through; a bundle that cannot be loaded (or lacks the handler) is said in an error message
 * and the call rejects — never a silent no-op. Runs under the bench's vscode stub.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { after, before, test } from 'node:test';
import { createVscodeStub } from '../../../bench/vscodeStub';
import type * as LazyCommandsModule from '../../../extension/ui/lazyCommands';

type ModuleLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };

const { api: stub, record } = createVscodeStub({});
const errors: string[] = [];
(stub.window as Record<string, unknown>).showErrorMessage = (message: string) => (errors.push(message), Promise.resolve(undefined));
const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
let module: typeof LazyCommandsModule;

before(async () => {
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  module = await import('../../../extension/ui/lazyCommands');
});
after(() => {
  loader._load = originalLoad;
});

const run = (id: string, ...args: unknown[]): unknown => record.handlers.get(id)!(...args);

test('nothing loads at registration; each command reaches its own handler with its arguments and result', () => {
  let loads = 0;
  module.registerLazyCommands(['test.a', 'test.b'], () => {
    loads++;
    return new Map([
      ['test.a', (x: unknown) => `a:${String(x)}`],
      ['test.b', () => 'b'],
    ]);
  }, 'test feature');
  assert.equal(loads, 0, 'nothing loads at registration');
  assert.equal(run('test.a', 1), 'a:1');
  assert.equal(run('test.b'), 'b');
  assert.ok(loads > 0, 'loaded at a call');
});

test('a bundle that cannot load is said in an error message naming the feature, and the call rejects', () => {
  errors.length = 0;
  module.registerLazyCommands(['test.missing'], () => {
    throw new Error("Cannot find module './missingFeature'");
  }, 'missing feature');
  assert.throws(() => run('test.missing'), /Cannot find module/);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /could not load its missing feature \(test\.missing\): Cannot find module/);
});

test('a bundle without the handler is said the same way', () => {
  errors.length = 0;
  module.registerLazyCommands(['test.orphan'], () => new Map(), 'orphan feature');
  assert.throws(() => run('test.orphan'), /no handler/);
  assert.match(errors[0] ?? '', /could not load its orphan feature \(test\.orphan\)/);
});

/**
 * Extension UI modules under plain Node: `vscode` is resolved to the bench's stub (bench/vscodeStub.ts) until
 * `unload` puts Node's module loader back. Import the module under test (dynamically) after this.
 */
import Module from 'node:module';
import { createVscodeStub } from '../../../bench/vscodeStub';

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

export function stubVscodeModule(): { unload(): void } {
  const loader = Module as unknown as ModuleLoader;
  const originalLoad = loader._load;
  const { api } = createVscodeStub();
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? api : originalLoad.call(this, request, parent, isMain);
  };
  return { unload: () => (loader._load = originalLoad) };
}

/**
 * The run board's tree provider with bench/vscodeStub.ts as `vscode` (its unit tests), and a board to give it: one
 * connected AgencyProxy connection with a run started now per id, some of them with a request waiting.
 */
import type { BoardNode } from '../../../../extension/ui/board/boardItems';
import type { BoardTreeProvider } from '../../../../extension/ui/board/boardTreeProvider';
import { BoardAcknowledgements } from '../../../../extension/ui/board/boardAcknowledgements';
import { RunStore } from '../../../../extension/model/runStore';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { stubVscodeModule } from '../vscodeStubLoader';

/** Loads the provider with the stub as `vscode`; `unload` puts the module loader back. */
export async function loadBoardProvider(): Promise<{ readonly Provider: typeof BoardTreeProvider; unload(): void }> {
  const { unload } = stubVscodeModule();
  const { BoardTreeProvider: Provider } = await import('../../../../extension/ui/board/boardTreeProvider');
  return { Provider, unload };
}

export const runKey = (id: string): string => runKeyOf('ap', id);

export function requestFor(store: RunStore, id: string): void {
  store.dispatch({ type: 'runEvent', runKey: runKey(id), event: { kind: 'approvalRequested', approvalId: `${id}-1`, title: 'Edit a.ts', detail: {}, options: ['allow_once', 'deny'] } });
}

export function decide(store: RunStore, id: string): void {
  store.dispatch({ type: 'runEvent', runKey: runKey(id), event: { kind: 'approvalSettled', approvalId: `${id}-1`, decision: 'deny', by: 'board' } });
}

/** The board of runs `ids` (`asking`: with a request), what its view was told to redraw, and a row's description. */
export function board(Provider: typeof BoardTreeProvider, ids: readonly string[], asking: readonly string[]) {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'ap', name: 'work', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'connectionInfo', connectionId: 'ap', capabilities: ['run.start', 'run.inject', 'run.cancel', 'run.end', 'approvals'] });
  store.dispatch({ type: 'connectionState', connectionId: 'ap', state: { kind: 'connected', since: 0 } });
  for (const id of ids) {
    store.dispatch({ type: 'runUpserted', connectionId: 'ap', runId: id, fields: { title: id, state: 'running', createdAt: Date.now() } });
  }
  asking.forEach((id) => requestFor(store, id));
  const memento = { get: () => undefined, update: () => Promise.resolve() };
  const provider = new Provider(store, () => false, { count: () => 0, onDidChange: () => ({ dispose: () => undefined }) }, new BoardAcknowledgements(memento));
  const fired: (readonly string[] | 'all')[] = [];
  provider.onDidChangeTreeData((e: BoardNode | BoardNode[] | undefined) => {
    fired.push(e === undefined ? 'all' : (Array.isArray(e) ? e : [e]).map((n) => (n.type === 'run' ? n.key.split('::')[1]! : n.type)));
  });
  const description = (id: string): string => String(provider.getTreeItem(provider.runNode(runKey(id))).description);
  return { store, provider, fired, description };
}

/**
 * A Connections tree element's item keeps its id for the element's life (ui/connectionsTreeProvider.ts runNode): a
 * run row that gains or loses subagents under it is a new element. VS Code changes an item's handle in place when an
 * element comes back with another id, its renderer keeps the old item, and a later re-render of every row asks for
 * its parent ("[TreeView] Failed to resolve parent … Data tree node not found"), as the run board did.
 * Loaded with bench/vscodeStub.ts as `vscode`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ConnectionsTreeProvider as Provider, TreeNode } from '../../../extension/ui/connectionsTreeProvider';
import { RunStore } from '../../../extension/model/runStore';
import { stubVscodeModule } from './vscodeStubLoader';

let ConnectionsTreeProvider: typeof Provider;
let unload: () => void;

before(async () => {
  ({ unload } = stubVscodeModule());
  ({ ConnectionsTreeProvider } = await import('../../../extension/ui/connectionsTreeProvider'));
});

after(() => unload());

test('a run row that gains a subagent is a new element; the old one keeps its id; losing it gives a leaf again', () => {
  const store = new RunStore();
  const tree = new ConnectionsTreeProvider(store, () => []);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'acp', name: 'agent', protocol: 'acp' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'p', fields: { title: 'Refactor', state: 'running', createdAt: 1 } });
  const key = 'acp::p';
  const id = (node: TreeNode) => tree.getTreeItem(node).id;
  const connection = tree.connectionNode('acp');
  const leaf = tree.runNode(key);
  assert.equal(tree.runNode(key), leaf, 'one element while its shape stays');
  assert.deepEqual(tree.getChildren(connection), [leaf]);
  assert.equal(id(leaf), `run:${key}`);

  store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'k', fields: { title: 'Explore', state: 'running', createdAt: 2, parentRunId: 'p' } });
  const nested = tree.runNode(key);
  assert.notEqual(nested, leaf);
  assert.deepEqual([id(leaf), id(nested)], [`run:${key}`, `run:${key}:nested`], 'the old element still says its old id');
  assert.deepEqual(tree.getChildren(connection), [nested], 'the tree has the new one');
  const [child] = tree.getChildren(nested);
  assert.equal(tree.getParent(child!), nested, 'the subagent’s parent is the element the tree shows');

  store.dispatch({ type: 'runRemoved', runKey: 'acp::k' });
  assert.equal(store.state.runs.has('acp::k'), false);
  const again = tree.runNode(key);
  assert.notEqual(again, nested);
  assert.deepEqual([id(nested), id(again)], [`run:${key}:nested`, `run:${key}`]);
  assert.deepEqual(tree.getChildren(connection), [again]);
  tree.dispose();
});

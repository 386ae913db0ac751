/**
 * A board element's tree item keeps its id for the element's life (ui/board/boardNodes.ts): a run row that gains or
 * loses rows under it is a new element. VS Code changes an item's handle in place when a queued refresh of an
 * element comes back with another id, its renderer then keeps the old item, and a theme change asks for its parent:
 * "[TreeView] Failed to resolve parent … Data tree node not found" (seen in every integration run).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BoardTreeProvider } from '../../../../extension/ui/board/boardTreeProvider';
import { board, decide, loadBoardProvider, requestFor, runKey } from './boardProviderKit';

let Provider: typeof BoardTreeProvider;
let unload: () => void;

before(async () => ({ Provider, unload } = await loadBoardProvider()));
after(() => unload());

test('a run row that gains a request is a new element; the old one (and a decided request) keeps its id until the refresh that drops it', () => {
  const b = board(Provider, ['r'], []);
  const id = (node: ReturnType<typeof b.provider.runNode>) => b.provider.getTreeItem(node).id;
  const leaf = b.provider.runNode(runKey('r'));
  assert.equal(b.provider.runNode(runKey('r')), leaf, 'one element while its shape stays');
  assert.equal(id(leaf), `run:${runKey('r')}`);
  requestFor(b.store, 'r');
  b.provider.snapshot();
  const nested = b.provider.runNode(runKey('r'));
  assert.notEqual(nested, leaf);
  assert.deepEqual([id(leaf), id(nested)], [`run:${runKey('r')}`, `run:${runKey('r')}:nested`], 'a refresh of the old element still says its old id');
  assert.ok(b.provider.getChildren(b.provider.groupNode('needsYou')).includes(nested), 'the tree has the new one');
  assert.deepEqual(b.fired.at(-1), 'all', 'and is redrawn whole');
  const [request] = b.provider.getChildren(nested);
  const requestId = b.provider.getTreeItem(request!).id;
  assert.equal(requestId, `approval:${runKey('r')}::r-1`);
  decide(b.store, 'r');
  b.provider.snapshot();
  assert.deepEqual([b.provider.getTreeItem(request!).label, b.provider.getTreeItem(request!).id], ['(decided)', requestId], 'a decided request keeps its id too');
  const again = b.provider.runNode(runKey('r'));
  assert.notEqual(again, nested);
  assert.deepEqual([id(nested), id(again)], [`run:${runKey('r')}:nested`, `run:${runKey('r')}`]);
  assert.equal(b.provider.getParent(again), b.provider.groupNode('working'));
  b.provider.dispose();
});

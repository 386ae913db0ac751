/** FenwickTree against a naive prefix-sum model (pure; runs in Node). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FenwickTree } from '../../webview/fenwickTree';

function naivePrefix(values: number[], end: number): number {
  return values.slice(0, end).reduce((a, b) => a + b, 0);
}

function naiveIndexAt(values: number[], offset: number): number {
  if (values.length === 0 || offset <= 0) {
    return 0;
  }
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i] ?? 0;
    if (sum > offset) {
      return i;
    }
  }
  return values.length - 1;
}

test('push / set / prefix / indexAt agree with a naive model under random operations', () => {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const tree = new FenwickTree(4);
  const values: number[] = [];
  for (let step = 0; step < 3000; step++) {
    const r = random();
    if (r < 0.5 || values.length === 0) {
      const v = Math.floor(random() * 100) + 1;
      tree.push(v);
      values.push(v);
    } else {
      const i = Math.floor(random() * values.length);
      const v = Math.floor(random() * 100) + 1;
      tree.set(i, v);
      values[i] = v;
    }
    if (step % 97 === 0) {
      assert.equal(tree.length, values.length);
      for (const end of [0, 1, Math.floor(values.length / 2), values.length]) {
        assert.equal(tree.prefix(end), naivePrefix(values, end));
      }
      const total = naivePrefix(values, values.length);
      for (const offset of [-5, 0, 1, total / 3, total / 2, total - 1, total, total + 10]) {
        assert.equal(tree.indexAt(offset), naiveIndexAt(values, offset), `indexAt(${offset})`);
      }
    }
  }
});

test('reset builds in O(n) and matches', () => {
  const values = Array.from({ length: 100_000 }, (_, i) => (i % 7) + 20);
  const tree = new FenwickTree();
  tree.reset(values);
  assert.equal(tree.total, values.reduce((a, b) => a + b, 0));
  assert.equal(tree.prefix(50_000), naivePrefix(values, 50_000));
  assert.equal(tree.indexAt(tree.prefix(77_777)), 77_777);
  assert.equal(tree.indexAt(tree.prefix(77_777) - 0.5), 77_776);
  tree.push(5);
  tree.set(0, 1000);
  assert.equal(tree.total, values.reduce((a, b) => a + b, 0) + 5 + 1000 - (values[0] ?? 0));
});

test('empty tree', () => {
  const tree = new FenwickTree();
  assert.equal(tree.total, 0);
  assert.equal(tree.indexAt(100), 0);
  tree.set(3, 10); // out of range: ignored
  assert.equal(tree.total, 0);
});

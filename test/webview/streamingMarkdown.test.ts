/** lastBlockBoundary: where streamed markdown may be committed (pure; runs in Node). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastBlockBoundary } from '../../webview/streamingMarkdown';

test('the last blank line outside fences', () => {
  assert.equal(lastBlockBoundary('a\n\nb\n\nc', 0), 'a\n\nb\n\n'.length);
  assert.equal(lastBlockBoundary('no blank line yet', 0), 0);
  assert.equal(lastBlockBoundary('a\n\n', 0), 3);
  assert.equal(lastBlockBoundary('a\n  \t\nb', 0), 'a\n  \t\n'.length);
});

test('blank lines inside a fenced block do not count, until it closes', () => {
  const open = 'p\n\n```ts\nx\n\ny\n';
  assert.equal(lastBlockBoundary(open, 0), 3);
  const closed = `${open}\`\`\`\n\nafter`;
  assert.equal(lastBlockBoundary(closed, 0), closed.length - 'after'.length);
  assert.equal(lastBlockBoundary('~~~~\n\n```\n\n~~~\n\n', 0), 0, 'a shorter or different fence does not close');
  assert.equal(lastBlockBoundary('~~~~\n\n~~~~~\n\n', 0), '~~~~\n\n~~~~~\n\n'.length);
});

test('only complete lines count and scanning starts at from', () => {
  assert.equal(lastBlockBoundary('a\n\nb\n ', 0), 3);
  assert.equal(lastBlockBoundary('a\n\nb\n\nc', 3), 6);
  assert.equal(lastBlockBoundary('a\n\nb', 3), 3);
});

/**
 * The output a terminal keeps (transport/terminalOutput.ts): within the byte limit, cut from the start at a character
 * boundary, and never ending in half a character while the command still writes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TerminalOutput, completeEnd } from '../../../extension/transport/terminalOutput';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

test('under the limit everything is kept, not truncated', () => {
  const out = new TerminalOutput(100);
  out.append(bytes('line 1\n'));
  out.append(bytes('line 2\n'));
  assert.equal(out.text(false), 'line 1\nline 2\n');
  assert.equal(out.truncated, false);
});

test('over the limit the oldest bytes go: the last byteLimit bytes are kept', () => {
  const out = new TerminalOutput(10);
  for (let i = 0; i < 5; i++) {
    out.append(bytes(`line ${i}\n`));
  }
  assert.equal(out.text(true), ' 3\nline 4\n');
  assert.equal(out.byteLength, 10);
  assert.equal(out.truncated, true);
});

test('a cut through a multi-byte character drops the rest of it: fewer bytes than the limit, valid text', () => {
  const out = new TerminalOutput(6);
  // "€" is 3 bytes (E2 82 AC); the last 6 bytes of "a€€b" (8 bytes) start inside the first "€".
  out.append(bytes('a€€b'));
  assert.equal(out.text(true), '€b');
  assert.equal(out.byteLength, 4);
  assert.equal(out.truncated, true);
  const emoji = new TerminalOutput(5);
  emoji.append(bytes('x😀😀')); // 9 bytes; the last 5 start in the first 4-byte emoji
  assert.equal(emoji.text(true), '😀');
});

test('a character split across reads is shown whole once its last byte came, not as U+FFFD before', () => {
  const out = new TerminalOutput(100);
  const euro = bytes('€');
  out.append(bytes('price: '));
  out.append(euro.subarray(0, 2));
  assert.equal(out.text(false), 'price: ', 'the incomplete character waits');
  out.append(euro.subarray(2));
  assert.equal(out.text(false), 'price: €');
});

test('completeEnd finds the end of the last whole character', () => {
  assert.equal(completeEnd(bytes('abc')), 3);
  assert.equal(completeEnd(bytes('ab€').subarray(0, 4)), 2);
  assert.equal(completeEnd(bytes('ab€')), 5);
  assert.equal(completeEnd(bytes('😀').subarray(0, 3)), 0);
});

test('a zero limit keeps nothing and says so', () => {
  const out = new TerminalOutput(0);
  out.append(bytes('anything'));
  assert.equal(out.text(true), '');
  assert.equal(out.truncated, true);
});

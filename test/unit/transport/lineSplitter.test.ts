/**
 * The stdout line splitter (transport/lineSplitter.ts): lines across any chunking, each byte scanned once (counted
 * through a chunk whose `indexOf` records how far it looked), and an unfinished line past the limit is an overflow
 * that leaves nothing held.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineOverflowError, LineSplitter } from '../../../extension/transport/lineSplitter';

const text = (lines: readonly Uint8Array[]): string[] => lines.map((l) => Buffer.from(l).toString('utf8'));

test('lines split across chunks, several per chunk, CRLF kept for the JSON parser, the last one on flush', () => {
  const splitter = new LineSplitter(1024);
  const input = Buffer.from('{"a":1}\n{"b":\r\n2}\n\n{"c":"é"}\n{"tail"');
  const out: string[] = [];
  // Every chunking of the input gives the same lines: cut it at each pair of positions.
  for (let cut = 1; cut < input.length; cut += 3) {
    out.push(...text(splitter.push(input.subarray(0, cut))), ...text(splitter.push(input.subarray(cut))));
    out.push(...text([splitter.flush()!]));
    assert.deepEqual(out, ['{"a":1}', '{"b":\r', '2}', '', '{"c":"é"}', '{"tail"'], `cut at ${cut}`);
    out.length = 0;
  }
  assert.equal(splitter.flush(), undefined);
});

/** A chunk that counts how many bytes `indexOf` looked at. */
class CountingChunk extends Uint8Array {
  static scanned = 0;
  override indexOf(value: number, from = 0): number {
    const found = super.indexOf(value, from);
    CountingChunk.scanned += (found === -1 ? this.length : found + 1) - from;
    return found;
  }
}

test('32 MiB without a newline in 64 KiB chunks: each byte is scanned once, and the line comes out whole', () => {
  const chunk = 64 * 1024;
  const total = 32 * 1024 * 1024;
  const splitter = new LineSplitter(64 * 1024 * 1024);
  CountingChunk.scanned = 0;
  for (let sent = 0; sent < total; sent += chunk) {
    assert.deepEqual(splitter.push(new CountingChunk(chunk).fill(0x61)), []);
  }
  const end = new CountingChunk(2);
  end.set([0x62, 0x0a]);
  const [line] = splitter.push(end);
  assert.equal(CountingChunk.scanned, total + 2, 'no byte is looked at twice');
  assert.equal(line?.length, total + 1);
  assert.equal(line?.[total], 0x62);
  assert.equal(splitter.pendingBytes, 0);
});

test('past the limit without a newline: an overflow, nothing held, nothing taken afterwards', () => {
  const splitter = new LineSplitter(100);
  assert.deepEqual(text(splitter.push(Buffer.from(`${'x'.repeat(100)}\n`))), ['x'.repeat(100)], 'exactly the limit is a line');
  splitter.push(Buffer.alloc(60, 0x61));
  assert.equal(splitter.pendingBytes, 60);
  assert.throws(() => splitter.push(Buffer.alloc(41, 0x61)), (e: unknown) => e instanceof LineOverflowError && /longer than .* MiB without a newline; it was stopped/.test(e.message));
  assert.equal(splitter.pendingBytes, 0);
  assert.deepEqual(splitter.push(Buffer.from('ok\n')), []);
  assert.equal(splitter.flush(), undefined);
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FrameKind,
  LengthPrefixedDecoder,
  MAX_FRAME_LENGTH,
  encodeCloseFrame,
  encodeFrame,
  encodeJsonFrame,
} from '../../../extension/transport/lengthPrefixed';
import type { DecodeResult } from '../../../extension/transport/lengthPrefixed';

function header(length: number, kind?: number): Buffer {
  const b = Buffer.alloc(kind === undefined ? 4 : 5);
  b.writeUInt32BE(length, 0);
  if (kind !== undefined) {
    b[4] = kind;
  }
  return b;
}

function messages(results: readonly DecodeResult[]): unknown[] {
  return results.map((r) => (r.type === 'message' ? r.value : r));
}

describe('length-prefixed codec', () => {
  it('encodes the WIRE.md example byte for byte', () => {
    const json = '{"requestId":2,"type":"list_runs"}';
    assert.equal(Buffer.byteLength(json), 34);
    const frame = encodeJsonFrame({ requestId: 2, type: 'list_runs' });
    assert.deepEqual([...frame.subarray(0, 9)], [0x00, 0x00, 0x00, 0x23, 0x00, 0x7b, 0x22, 0x72, 0x65]);
    assert.equal(frame.length, 4 + 35);
  });

  it('counts UTF-8 bytes, not UTF-16 units, in the length', () => {
    const frame = encodeJsonFrame({ t: 'é🙂' });
    assert.equal(frame.readUInt32BE(0), 1 + Buffer.byteLength('{"t":"é🙂"}'));
    assert.deepEqual(messages(new LengthPrefixedDecoder().push(frame)), [{ t: 'é🙂' }]);
  });

  it('decodes a frame fed byte by byte (including a multi-byte character split across pushes)', () => {
    const value = { requestId: 7, type: 'text', body: 'héllo 🙂 wörld' };
    const bytes = encodeJsonFrame(value);
    const decoder = new LengthPrefixedDecoder();
    const out: DecodeResult[] = [];
    for (const byte of bytes) {
      out.push(...decoder.push(Buffer.from([byte])));
    }
    assert.deepEqual(messages(out), [value]);
    assert.equal(decoder.bufferedBytes, 0);
    assert.deepEqual(decoder.end(), []);
  });

  it('decodes many frames in one chunk, and a chunk boundary inside the header', () => {
    const values = Array.from({ length: 500 }, (_, i) => ({ i, s: 'x'.repeat(i % 17) }));
    const all = Buffer.concat(values.map((v) => encodeJsonFrame(v)));
    assert.deepEqual(messages(new LengthPrefixedDecoder().push(all)), values);
    const decoder = new LengthPrefixedDecoder();
    const cut = encodeJsonFrame(values[0]).length + 2; // two bytes into the second frame's header
    const out = [...decoder.push(all.subarray(0, cut)), ...decoder.push(all.subarray(cut))];
    assert.deepEqual(messages(out), values);
  });

  it('handles a large frame split over many chunks without quadratic work', () => {
    const big = { s: 'y'.repeat(MAX_FRAME_LENGTH - 1 - '{"s":""}'.length) };
    const bytes = encodeJsonFrame(big);
    assert.equal(bytes.readUInt32BE(0), MAX_FRAME_LENGTH, 'exactly 1 MiB + 1 is the limit and is accepted');
    const decoder = new LengthPrefixedDecoder();
    const started = Date.now();
    const out: DecodeResult[] = [];
    for (let i = 0; i < bytes.length; i += 64) {
      out.push(...decoder.push(bytes.subarray(i, i + 64)));
    }
    assert.equal(out.length, 1);
    assert.equal(out[0]!.type, 'message');
    assert.ok(Date.now() - started < 2000, 'a 16k-chunk frame decodes quickly');
  });

  it('refuses one byte over the limit as soon as the header arrives, before any body', () => {
    const decoder = new LengthPrefixedDecoder();
    const out = decoder.push(header(MAX_FRAME_LENGTH + 1));
    assert.equal(out.length, 1);
    assert.equal(out[0]!.type, 'error');
    assert.equal(out[0]!.type === 'error' && out[0]!.code, 'bad_length');
    assert.match(out[0]!.type === 'error' ? out[0]!.message : '', /1048578 exceeds/);
    assert.equal(decoder.bufferedBytes, 0);
    assert.deepEqual(decoder.push(Buffer.alloc(1000)), [], 'the decoder stops after an error');
    assert.ok(decoder.isFinished);
  });

  it('refuses length 0', () => {
    const out = new LengthPrefixedDecoder().push(header(0));
    assert.equal(out[0]!.type === 'error' && out[0]!.code, 'bad_length');
  });

  it('reports non-Text frames (ping, binary, unknown kind) as errors', () => {
    for (const [kind, name] of [[FrameKind.ping, 'ping'], [FrameKind.binary, 'binary'], [9, 'unknown kind 9']] as const) {
      const out = new LengthPrefixedDecoder().push(encodeFrame(kind, Buffer.from('hi')));
      assert.equal(out.length, 1);
      const result = out[0]!;
      assert.equal(result.type === 'error' && result.code, 'unexpected_kind');
      assert.ok(result.type === 'error' && result.message.includes(name), `message names ${name}`);
    }
  });

  it('with ignorePingPong (the client side) skips Ping and Pong, also split over chunks; Binary is still an error', () => {
    const decoder = new LengthPrefixedDecoder({ ignorePingPong: true });
    const stream = Buffer.concat([encodeFrame(FrameKind.ping, Buffer.from('hb')), encodeJsonFrame({ ok: 1 }),
      encodeFrame(FrameKind.pong), encodeJsonFrame({ ok: 2 }), encodeFrame(FrameKind.binary, Buffer.from('x'))]);
    const out: ReturnType<LengthPrefixedDecoder['push']> = [];
    for (let i = 0; i < stream.length; i += 3) {
      out.push(...decoder.push(stream.subarray(i, i + 3)));
    }
    assert.deepEqual(out.map((r) => (r.type === 'message' ? r.value : r.type)), [{ ok: 1 }, { ok: 2 }, 'error']);
    assert.equal(decoder.skippedControlFrames, 2);
  });

  it('ends cleanly on EOF at a frame boundary and reports EOF inside a frame', () => {
    const clean = new LengthPrefixedDecoder();
    clean.push(encodeJsonFrame({ a: 1 }));
    assert.deepEqual(clean.end(), []);
    const partial = new LengthPrefixedDecoder();
    const frame = encodeJsonFrame({ a: 1 });
    assert.deepEqual(partial.push(frame.subarray(0, frame.length - 3)), []);
    const out = partial.end();
    assert.equal(out.length, 1);
    assert.equal(out[0]!.type === 'error' && out[0]!.code, 'truncated');
    const headerOnly = new LengthPrefixedDecoder();
    headerOnly.push(Buffer.from([0, 0]));
    assert.equal(headerOnly.end()[0]?.type, 'error');
  });

  it('decodes Close frames with and without code + reason, and stops there', () => {
    const bare = new LengthPrefixedDecoder().push(encodeCloseFrame());
    assert.deepEqual(bare, [{ type: 'close' }]);
    const decoder = new LengthPrefixedDecoder();
    const out = decoder.push(Buffer.concat([encodeCloseFrame(1001, 'going away'), encodeJsonFrame({ late: true })]));
    assert.deepEqual(out, [{ type: 'close', code: 1001, reason: 'going away' }]);
    assert.deepEqual(decoder.end(), []);
  });

  it('reports invalid JSON and invalid UTF-8 as errors', () => {
    const json = new LengthPrefixedDecoder().push(encodeFrame(FrameKind.text, Buffer.from('{"a":')));
    assert.equal(json[0]!.type === 'error' && json[0]!.code, 'invalid_json');
    const utf8 = new LengthPrefixedDecoder().push(encodeFrame(FrameKind.text, Buffer.from([0x22, 0xff, 0x22])));
    assert.equal(utf8[0]!.type === 'error' && utf8[0]!.code, 'invalid_utf8');
  });

  it('delivers the frames before an error and nothing after it', () => {
    const decoder = new LengthPrefixedDecoder();
    const out = decoder.push(Buffer.concat([encodeJsonFrame({ ok: 1 }), encodeFrame(FrameKind.ping), encodeJsonFrame({ ok: 2 })]));
    assert.deepEqual(out.map((r) => r.type), ['message', 'error']);
  });

  it('refuses to encode more than 1 MiB of JSON', () => {
    assert.throws(() => encodeJsonFrame({ s: 'z'.repeat(MAX_FRAME_LENGTH) }), RangeError);
  });
});

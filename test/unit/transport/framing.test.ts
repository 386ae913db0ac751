/** The two framings of `StreamConnection`, without a socket: round trips, chunking, limits, bad input. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameEncodeError } from '../../../extension/transport/framing';
import type { FrameResult, Framing } from '../../../extension/transport/framing';
import { FrameKind, encodeCloseFrame, encodeFrame } from '../../../extension/transport/lengthPrefixed';
import { lengthPrefixedFraming } from '../../../extension/transport/lengthPrefixedFraming';
import { ndjsonFraming } from '../../../extension/transport/ndjsonFraming';

const VALUES: readonly unknown[] = [
  { type: 'hello', n: 1 },
  { text: 'ünïcödé ✓ and a\nnewline inside a string', nested: { list: [1, 2, null, true] } },
  [],
  'a string',
  42,
  null,
];

const framings: readonly [string, () => Framing][] = [
  ['length-prefixed', () => lengthPrefixedFraming()],
  ['NDJSON', () => ndjsonFraming({ maxFrameBytes: 1 << 20 })],
];

function frames(results: readonly FrameResult[]): unknown[] {
  return results.map((r) => {
    assert.equal(r.kind, 'frame', JSON.stringify(r));
    return r.kind === 'frame' ? r.value : undefined;
  });
}

function errorsOf(results: readonly FrameResult[]): { code: string; fatal: boolean }[] {
  return results.flatMap((r) => (r.kind === 'error' ? [{ code: r.error.code, fatal: r.error.fatal }] : []));
}

for (const [name, make] of framings) {
  describe(`${name} framing`, () => {
    it('round-trips every JSON value, several frames in one chunk', () => {
      const framing = make();
      const bytes = Buffer.concat(VALUES.map((v) => framing.encode(v)));
      const decoder = framing.createDecoder();
      assert.deepEqual(frames(decoder.push(bytes)), VALUES);
      assert.equal(decoder.bufferedBytes, 0);
      assert.deepEqual(decoder.end(), []);
    });

    it('reassembles frames split across chunks at every byte', () => {
      const framing = make();
      const bytes = Buffer.concat(VALUES.map((v) => framing.encode(v)));
      for (const size of [1, 2, 3, 7, 64]) {
        const decoder = framing.createDecoder();
        const got: FrameResult[] = [];
        for (let i = 0; i < bytes.length; i += size) {
          got.push(...decoder.push(bytes.subarray(i, i + size)));
        }
        assert.deepEqual(frames(got), VALUES, `chunks of ${size}`);
      }
    });

    it('refuses to encode what is not JSON', () => {
      const framing = make();
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      for (const value of [undefined, 10n, cyclic]) {
        assert.throws(() => framing.encode(value), (e: unknown) => e instanceof FrameEncodeError && e.reason === 'not_json');
      }
    });

    it('reports a frame cut off by EOF as truncated, with the bytes left', () => {
      const framing = make();
      const bytes = Buffer.from(framing.encode({ a: 'b' }));
      const decoder = framing.createDecoder();
      assert.deepEqual(decoder.push(bytes.subarray(0, bytes.length - 2)), []);
      const end = decoder.end();
      assert.deepEqual(errorsOf(end), [{ code: 'truncated', fatal: true }]);
      assert.equal(end[0]?.kind === 'error' && end[0].error.bytes, bytes.length - 2);
    });
  });
}

describe('length-prefixed specifics', () => {
  it('a JSON over the limit is refused when encoding and fatal when decoding', () => {
    const framing = lengthPrefixedFraming({ maxJsonBytes: 16 });
    assert.throws(
      () => framing.encode({ text: 'x'.repeat(20) }),
      (e: unknown) => e instanceof FrameEncodeError && e.reason === 'too_large' && e.limit === 16 && /exceeds the 17-byte limit/.test(e.message),
    );
    const decoder = framing.createDecoder();
    const big = lengthPrefixedFraming().encode({ text: 'x'.repeat(20) });
    const results = decoder.push(Buffer.concat([big, lengthPrefixedFraming().encode({ after: 1 })]));
    assert.deepEqual(errorsOf(results), [{ code: 'bad_length', fatal: true }]);
    assert.equal(results.length, 1, 'nothing after a fatal error');
    assert.deepEqual(decoder.push(Buffer.from(lengthPrefixedFraming().encode({ later: 1 }))), []);
  });

  it('invalid JSON and non-Text frames are fatal; Ping/Pong are skipped only when asked', () => {
    const notJson = encodeFrame(FrameKind.text, Buffer.from('{nope'));
    assert.deepEqual(errorsOf(lengthPrefixedFraming().createDecoder().push(notJson)), [{ code: 'invalid_json', fatal: true }]);
    const ping = encodeFrame(FrameKind.ping);
    assert.deepEqual(errorsOf(lengthPrefixedFraming().createDecoder().push(ping)), [{ code: 'unexpected_kind', fatal: true }]);
    const client = lengthPrefixedFraming({ ignorePingPong: true }).createDecoder();
    assert.deepEqual(frames(client.push(Buffer.concat([ping, lengthPrefixedFraming().encode({ ok: 1 })]))), [{ ok: 1 }]);
  });

  it('a Close frame is a close result with its code and reason, and ends decoding', () => {
    const decoder = lengthPrefixedFraming().createDecoder();
    const results = decoder.push(Buffer.concat([encodeCloseFrame(1000, 'bye'), lengthPrefixedFraming().encode({ after: 1 })]));
    assert.deepEqual(results, [{ kind: 'close', code: 1000, reason: 'bye' }]);
    assert.deepEqual(lengthPrefixedFraming().createDecoder().push(encodeCloseFrame()), [{ kind: 'close' }]);
    assert.deepEqual(Buffer.from(lengthPrefixedFraming().closeFrame!()), encodeCloseFrame());
  });
});

describe('NDJSON specifics', () => {
  it('strips a trailing CR; a line that is not JSON is reported and the next line is read', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 100 }).createDecoder();
    const results = decoder.push(Buffer.from('{"a":1}\r\nnot json\n\n{"b":2}\n'));
    assert.deepEqual(results.map((r) => r.kind), ['frame', 'error', 'error', 'frame']);
    assert.deepEqual(errorsOf(results), [{ code: 'invalid_json', fatal: false }, { code: 'invalid_json', fatal: false }]);
    assert.equal(results[1]?.kind === 'error' && results[1].error.text, 'not json');
    assert.deepEqual(results[0], { kind: 'frame', value: { a: 1 } });
    assert.deepEqual(results[3], { kind: 'frame', value: { b: 2 } });
  });

  it('skips blank lines when asked', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 100, skipBlankLines: true }).createDecoder();
    assert.deepEqual(frames(decoder.push(Buffer.from('\n  \r\n{"a":1}\n'))), [{ a: 1 }]);
  });

  it('an oversized line is skipped and reported once it ends (skip), then decoding resyncs', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 8 }).createDecoder();
    const results = [...decoder.push(Buffer.from('{"long":"')), ...decoder.push(Buffer.from('xxxxxxxx"}\n{"a":1}\n'))];
    assert.deepEqual(errorsOf(results), [{ code: 'too_large', fatal: false }]);
    assert.equal(results[0]?.kind === 'error' && results[0].error.bytes, 19);
    assert.deepEqual(results[1], { kind: 'frame', value: { a: 1 } });
    assert.ok(decoder.bufferedBytes <= 9);
  });

  it('an oversized line fails at once when the peer owes one line (fail)', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 8, oversized: 'fail' }).createDecoder();
    const results = decoder.push(Buffer.from('{"long":"xxxx')); // no newline yet
    assert.deepEqual(errorsOf(results), [{ code: 'too_large', fatal: true }]);
    assert.deepEqual(decoder.push(Buffer.from('"}\n{"a":1}\n')), [], 'nothing after a fatal error');
    assert.deepEqual(decoder.end(), []);
  });

  it('the limit can be raised while reading', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 8 }).createDecoder();
    decoder.setMaxFrameBytes(64);
    assert.equal(decoder.maxFrameBytes, 64);
    assert.deepEqual(frames(decoder.push(Buffer.from('{"text":"longer than eight"}\n'))), [{ text: 'longer than eight' }]);
  });

  it('an unterminated last line is a frame at EOF when asked', () => {
    const decoder = ndjsonFraming({ maxFrameBytes: 100, unterminatedLastLine: 'frame' }).createDecoder();
    assert.deepEqual(decoder.push(Buffer.from('{"kind":"status"')), []);
    assert.deepEqual(decoder.push(Buffer.from(',"unread":0}')), []);
    assert.deepEqual(frames(decoder.end()), [{ kind: 'status', unread: 0 }]);
  });

  it('refuses to send a line over its outgoing limit', () => {
    const framing = ndjsonFraming({ maxFrameBytes: 100, maxOutgoingBytes: 10 });
    assert.equal(Buffer.from(framing.encode({ a: 1 })).toString(), '{"a":1}\n');
    assert.throws(() => framing.encode({ a: 'x'.repeat(10) }), (e: unknown) => e instanceof FrameEncodeError && e.reason === 'too_large' && e.bytes === 18);
  });
});

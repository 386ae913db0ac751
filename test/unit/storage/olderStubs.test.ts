/**
 * The index digest's older runs kept as text (storage/olderStubs.ts, issue #25 §2): a connect reads only their number;
 * what asks for them decodes the lines it needs. Ids come from daemons, so an id with tabs, newlines and quotes must
 * come back exactly, and a damaged line must decode to nothing rather than to another run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OlderStubs } from '../../../extension/storage/olderStubs';
import type { OlderStub } from '../../../extension/storage/olderStubs';

const hostile = ['plain', 'tab\there', 'new\nline', 'quote"and\\slash', '\u2028sep', '__proto__', '', '\t"x"\n'];

test('ids a daemon chose come back exactly, most recently active first, ties by id', () => {
  const stubs: OlderStub[] = hostile.map((runId, i) => [runId, 1_796_288_416_451 + i, i % 3 === 0 ? 5 : 100 - i]);
  const packed = OlderStubs.of(stubs);
  assert.equal(packed.count, hostile.length);
  assert.equal(packed.text.split('\n').length - 1, hostile.length, 'one line per run: no id breaks a line');
  const back = new OlderStubs(packed.text, packed.count).all();
  const expected = [...stubs].sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  assert.deepEqual(back, expected);
  for (const runId of hostile) {
    assert.ok(packed.has(runId), JSON.stringify(runId));
  }
  assert.equal(packed.has('x'), false, 'a piece of an id is not an id');
  assert.equal(packed.has('tab'), false);
});

test('a line is decoded on its own; a binary search, a head and a tail cut the text at line ends', () => {
  const stubs: OlderStub[] = Array.from({ length: 1000 }, (_, i) => [`run-${i}`, i, 10_000 - i]);
  const packed = new OlderStubs(OlderStubs.of(stubs).text, 1000);
  assert.deepEqual(packed.at(0), ['run-0', 0, 10_000]);
  assert.deepEqual(packed.at(999), ['run-999', 999, 9001]);
  assert.equal(packed.at(1000), undefined);
  assert.equal(packed.at(-1), undefined);
  assert.equal(packed.firstWhere(([, , at]) => at < 9500), 501);
  assert.equal(packed.firstWhere(() => false), 1000, 'none: the count');
  assert.equal(packed.firstWhere(() => true), 0);
  const head = packed.head(501);
  const tail = packed.from(501);
  assert.equal(head.count + tail.count, 1000);
  assert.deepEqual(head.all().at(-1), ['run-500', 500, 9500]);
  assert.deepEqual(tail.all()[0], ['run-501', 501, 9499]);
  assert.ok(head.has('run-500') && !head.has('run-501') && tail.has('run-501') && !tail.has('run-500'));
  assert.equal(packed.head(5000), packed, 'past the end: all of it');
  assert.deepEqual(packed.without(new Set(['run-1', 'run-3'])).all().map(([runId]) => runId).slice(0, 3), ['run-0', 'run-2', 'run-4']);
});

test('a damaged text decodes to fewer runs, never to other ones', () => {
  const text = OlderStubs.of([['a', 1, 3], ['b', 1, 2], ['c', 1, 1]]).text;
  const broken = new OlderStubs(text.replace('"b"', '"b'), 3);
  assert.deepEqual(broken.all().map(([runId]) => runId), ['a', 'c']);
  assert.equal(broken.at(1), undefined);
  const short = new OlderStubs(text.slice(0, text.indexOf('\n') + 1), 3);
  assert.deepEqual(short.all().map(([runId]) => runId), ['a']);
  assert.equal(short.at(2), undefined, 'a line the text does not have');
  assert.equal(new OlderStubs('7\tx\t"id"\n', 1).at(0), undefined, 'a time that is not a number');
  // A count past what the text can hold (a damaged digest says a billion) allocates nothing for lines it lacks.
  const huge = new OlderStubs(text, 1e9);
  assert.equal(huge.count, Math.floor(text.length / 7));
  assert.deepEqual(huge.all().map(([runId]) => runId), ['a', 'b', 'c']);
  assert.equal(huge.firstWhere(([, , activeAt]) => activeAt < 2), 2);
  assert.equal(new OlderStubs('', 5).count, 0);
});

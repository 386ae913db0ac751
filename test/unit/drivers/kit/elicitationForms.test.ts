/** Every typed elicitation answer is checked against what the agent asked for before it is sent (elicitationForms.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitationField } from '../../../../extension/drivers/kit/elicitationForms';
import { checkPicked, checkTyped } from '../../../../extension/drivers/kit/elicitationForms';

type Typed = Extract<ElicitationField, { kind: 'text' | 'number' }>;
const text = (more: Partial<Typed> = {}): Typed => ({ name: 'f', title: 'Name', required: false, kind: 'text', ...more }) as Typed;
const num = (more: Partial<Typed> = {}): Typed => ({ name: 'n', title: 'Count', required: false, kind: 'number', integer: false, ...more }) as Typed;

test('text: required, lengths, pattern and formats', () => {
  assert.deepEqual(checkTyped(text(), ''), { ok: true, value: undefined });
  assert.deepEqual(checkTyped(text({ required: true }), ''), { ok: false, message: 'Name is required.' });
  assert.deepEqual(checkTyped(text({ minLength: 3 }), 'ab'), { ok: false, message: 'At least 3 characters.' });
  assert.deepEqual(checkTyped(text({ maxLength: 2 }), 'abc'), { ok: false, message: 'At most 2 characters.' });
  assert.deepEqual(checkTyped(text({ pattern: '^[a-z-]+$' }), 'Feature'), { ok: false, message: 'It must match ^[a-z-]+$.' });
  assert.deepEqual(checkTyped(text({ pattern: '^[a-z-]+$' }), 'feature-x'), { ok: true, value: 'feature-x' });
  assert.equal(checkTyped(text({ format: 'email' }), 'nope').ok, false);
  assert.equal(checkTyped(text({ format: 'email' }), 'a@b.c').ok, true);
  assert.equal(checkTyped(text({ format: 'uri' }), 'example.com').ok, false);
  assert.equal(checkTyped(text({ format: 'date' }), '2026-12-02').ok, true);
  assert.equal(checkTyped(text({ format: 'date' }), '12/02/2026').ok, false);
  assert.deepEqual(checkTyped(text({ pattern: '(' }), 'x'), { ok: true, value: 'x' }, 'a broken pattern of the agent refuses nothing');
});

test('numbers: parsed, whole when integer, within bounds', () => {
  assert.deepEqual(checkTyped(num(), '2.5'), { ok: true, value: 2.5 });
  assert.deepEqual(checkTyped(num({ integer: true } as Partial<Typed>), '2.5'), { ok: false, message: 'Enter a whole number.' });
  assert.deepEqual(checkTyped(num(), 'two'), { ok: false, message: 'Enter a number.' });
  assert.deepEqual(checkTyped(num({ minimum: 1 } as Partial<Typed>), '0'), { ok: false, message: 'At least 1.' });
  assert.deepEqual(checkTyped(num({ maximum: 5 } as Partial<Typed>), '6'), { ok: false, message: 'At most 5.' });
  assert.deepEqual(checkTyped(num({ required: true }), ''), { ok: false, message: 'Count is required.' });
});

test('multi-select: bounds and required', () => {
  const field = { name: 't', title: 'Tags', required: false, kind: 'choices', options: [], minItems: 1, maxItems: 2 } as const;
  assert.deepEqual(checkPicked(field, []), { ok: false, message: 'Pick at least 1.' });
  assert.deepEqual(checkPicked(field, ['a', 'b', 'c']), { ok: false, message: 'Pick at most 2.' });
  assert.deepEqual(checkPicked(field, ['a']), { ok: true, value: ['a'] });
  assert.deepEqual(checkPicked({ ...field, minItems: undefined }, []), { ok: true, value: undefined });
  assert.deepEqual(checkPicked({ ...field, minItems: undefined, required: true }, []), { ok: false, message: 'Tags is required.' });
});

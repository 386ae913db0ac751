/** The trust gate and the consent states of a workspace-defined profile. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsentFacts } from '../../../../extension/drivers/profileTrust/consentStatus';
import { consentStatusOf } from '../../../../extension/drivers/profileTrust/consentStatus';

const facts: ConsentFacts = { trusted: true, refusal: undefined, digest: 'd1', allowed: [], declined: new Set() };

test('an untrusted workspace wins over everything, even a stored consent', () => {
  assert.equal(consentStatusOf({ ...facts, trusted: false, allowed: ['d1'] }), 'untrusted');
  assert.equal(consentStatusOf({ ...facts, trusted: false, refusal: 'x' }), 'untrusted');
});

test('a refused profile stays refused whatever was allowed', () => {
  assert.equal(consentStatusOf({ ...facts, refusal: 'relative path', allowed: ['d1'] }), 'refused');
});

test('allowed only for the exact digest; declined is remembered for the window; otherwise unreviewed', () => {
  assert.equal(consentStatusOf(facts), 'unreviewed');
  assert.equal(consentStatusOf({ ...facts, allowed: ['d1'] }), 'allowed');
  assert.equal(consentStatusOf({ ...facts, allowed: ['d0'] }), 'unreviewed', 'a consent to other content does not count');
  assert.equal(consentStatusOf({ ...facts, declined: new Set(['d1']) }), 'declined');
  assert.equal(consentStatusOf({ ...facts, allowed: ['d1'], declined: new Set(['d1']) }), 'allowed');
});

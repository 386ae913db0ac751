/**
 * When a removed profile's secrets are deleted (ui/removedProfiles.ts): on a clean read of the settings that lacks
 * it, not while the settings have a problem (a half-typed edit that makes the entry invalid for a moment).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionProfile } from '../../../extension/protocol/connectionProfile';
import { RemovedProfiles } from '../../../extension/ui/removedProfiles';

const a: ConnectionProfile = { name: 'A', protocol: 'acp', command: 'a' };
const b: ConnectionProfile = { name: 'B', protocol: 'acp', command: 'b' };

test('a removal seen on a clean read is certain at once, and reported once', () => {
  const removed = new RemovedProfiles();
  assert.deepEqual(removed.observe([a], [b], true), [a]);
  assert.deepEqual(removed.observe([], [b], true), []);
});

test('a profile missing during a read with problems that comes back keeps its secrets', () => {
  const removed = new RemovedProfiles();
  assert.deepEqual(removed.observe([a], [b], false), [], 'invalid for a moment: wait');
  assert.deepEqual(removed.observe([], [a, b], true), [], 'it is back');
  assert.deepEqual(removed.observe([], [a, b], true), []);
});

test('a profile missing during a read with problems and still missing on the next clean read is removed', () => {
  const removed = new RemovedProfiles();
  assert.deepEqual(removed.observe([a, b], [], false), []);
  assert.deepEqual(removed.observe([], [], false), []);
  assert.deepEqual(removed.observe([], [b], true), [a]);
});

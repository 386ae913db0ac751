/**
 * The connection-profile shape is defined once (extension/protocol/connectionProfile.ts); package.json's JSON schema
 * for `agentSwitchboard.connections` (what VS Code's settings editor validates) must say the same: the same
 * properties with the same types, the same required list, the same protocols in the same order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as z from 'zod';
import { connectionProfileSchema, PROTOCOL_NAMES } from '../../../extension/protocol/connectionProfile';
import { protocolNameSchema } from '../../../extension/protocol/webviewMessages';

interface JsonSchema {
  readonly type?: string;
  readonly enum?: readonly string[];
  readonly minLength?: number;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, JsonSchema> } };
};
const setting = manifest.contributes.configuration.properties['agentSwitchboard.connections'];
const fromPackage = setting?.items;
const fromZod = z.toJSONSchema(connectionProfileSchema) as JsonSchema;

/** The parts both must agree on: per property its type, enum and minLength. */
function shape(schema: JsonSchema): Record<string, { type?: string; enum?: readonly string[]; minLength?: number }> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, p]) => [
      name,
      { type: p.type, ...(p.enum ? { enum: p.enum } : {}), ...(p.minLength !== undefined ? { minLength: p.minLength } : {}) },
    ]),
  );
}

test('package.json: agentSwitchboard.connections is an array of profile objects', () => {
  assert.equal(setting?.type, 'array');
  assert.equal(fromPackage?.type, 'object');
});

test('package.json and the profile schema have the same properties, types and protocols', () => {
  assert.ok(fromPackage);
  assert.deepEqual(Object.keys(shape(fromPackage)).sort(), Object.keys(shape(fromZod)).sort(), 'property names');
  assert.deepEqual(shape(fromPackage), shape(fromZod));
});

test('package.json and the profile schema require the same properties', () => {
  assert.deepEqual([...(fromPackage?.required ?? [])].sort(), [...(fromZod.required ?? [])].sort());
});

test('the protocol list is the one list: settings enum, profile schema and webview contract', () => {
  assert.deepEqual(fromPackage?.properties?.['protocol']?.enum, [...PROTOCOL_NAMES]);
  assert.deepEqual(protocolNameSchema.options, [...PROTOCOL_NAMES]);
});

test('the settings validation accepts a minimal profile and refuses an unknown protocol or an empty name', () => {
  assert.equal(connectionProfileSchema.safeParse({ name: 'local', protocol: 'scv' }).success, true);
  assert.equal(connectionProfileSchema.safeParse({ name: 'local', protocol: 'acp', command: 'claude-agent-acp', args: ['--x'], env: { A: 'b' } }).success, true);
  assert.equal(connectionProfileSchema.safeParse({ name: 'local', protocol: 'gopher' }).success, false);
  assert.equal(connectionProfileSchema.safeParse({ name: 'local', protocol: 'acp', env: { A: 1 } }).success, false);
  assert.equal(connectionProfileSchema.safeParse({ name: '', protocol: 'hive' }).success, false);
  assert.equal(connectionProfileSchema.safeParse({ name: 'x', protocol: 'a3s', allowRemote: 'yes' }).success, false);
});

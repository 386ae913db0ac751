/**
 * The log wrapper (ui/redactingLog.ts) redacts known secret values from everything written through it: messages of
 * every level, string and Error arguments, objects (by key and by value), `append`/`appendLine`; and passes the rest
 * (the level, show, dispose) through.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { SecretValues } from '../../../extension/transport/secretValues';
import { redactingLog } from '../../../extension/ui/redactingLog';

const SECRET = 'ghp_abcdefghijklmnop0123';

test('every way of writing to the log is redacted', () => {
  const written: unknown[][] = [];
  const record = (name: string) => (...args: unknown[]) => void written.push([name, ...args]);
  const channel = {
    name: 'Agent Switchboard',
    logLevel: 1,
    onDidChangeLogLevel: () => ({ dispose: () => undefined }),
    trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'),
    append: record('append'), appendLine: record('appendLine'), replace: record('replace'),
    clear: record('clear'), show: record('show'), hide: record('hide'), dispose: record('dispose'),
  } as unknown as vscode.LogOutputChannel;
  const values = new SecretValues();
  values.add(SECRET);
  const log = redactingLog(channel, values);
  log.trace(`frame ${SECRET}`);
  log.debug('d', SECRET);
  log.info('i', { headers: { 'x-api-key': 'other' }, text: `key ${SECRET}` });
  log.warn(`w ${SECRET}`);
  log.error(new Error(`failed with ${SECRET}`));
  log.error('e', new Error(SECRET));
  log.append(SECRET);
  log.appendLine(`${SECRET}!`);
  log.show(true);
  assert.equal(log.logLevel, 1);
  assert.equal(log.name, 'Agent Switchboard');
  const text = JSON.stringify(written);
  assert.equal(text.includes(SECRET), false, text);
  assert.equal(text.includes('other'), false, 'secret keys are redacted in objects');
  assert.equal(written.length, 9);
  assert.deepEqual(written[0], ['trace', 'frame <redacted>']);
  assert.match(String(written[4]![1]), /^Error: failed with <redacted>/);
  assert.deepEqual(written.at(-1), ['show', true]);
});

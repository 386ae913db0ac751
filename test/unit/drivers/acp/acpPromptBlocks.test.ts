/** `@file` mentions in an ACP prompt: embedded (with the editor's text and a line range) or linked, never outside the workspace. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mentionsOf, promptBlocks } from '../../../../extension/drivers/acp/acpPromptBlocks';
import { makeWorkspace } from './acpWorkspace';
import { diskWorkspace } from './diskWorkspace';

test('mentions name existing files inside the workspace only, once each, with optional line ranges', () => {
  const ws = makeWorkspace();
  try {
    mkdirSync(join(ws.dir, 'src'));
    writeFileSync(join(ws.dir, 'src', 'app.ts'), 'a\nb\nc\nd\n');
    const found = mentionsOf('see @src/app.ts:2-3 and @README.md, not @missing.ts nor @../etc/passwd; again @README.md, mail a@b.c', ws.dir);
    assert.deepEqual(found, [
      { path: join(ws.dir, 'src', 'app.ts'), line: 2, endLine: 3 },
      { path: ws.readme },
    ]);
  } finally {
    ws.remove();
  }
});

test('embedded when the agent takes embedded context (the editor\'s text of the range), else a resource link', async () => {
  const ws = makeWorkspace();
  try {
    writeFileSync(join(ws.dir, 'notes.txt'), 'one\ntwo\nthree\n');
    const text = 'summarise @notes.txt:2-3';
    const embedded = await promptBlocks(text, ws.dir, { embeddedContext: true }, diskWorkspace([ws.dir]));
    assert.deepEqual(embedded[0], { type: 'text', text });
    assert.equal(embedded[1]?.type, 'resource');
    assert.equal(embedded[1]?.type === 'resource' && 'text' in embedded[1].resource ? embedded[1].resource.text : '', 'two\nthree');
    const linked = await promptBlocks(text, ws.dir, { embeddedContext: false }, diskWorkspace([ws.dir]));
    assert.equal(linked[1]?.type, 'resource_link');
    assert.equal(linked[1]?.type === 'resource_link' ? linked[1].name : '', 'notes.txt');
    assert.deepEqual(await promptBlocks('no mentions here', ws.dir, { embeddedContext: true }, undefined), [{ type: 'text', text: 'no mentions here' }]);
  } finally {
    ws.remove();
  }
});

/**
 * A tool row whose command runs in an editor terminal (ACP terminal content, `terminals` on the item): "Show
 * terminal" is there — one per terminal — and clicking it posts the typed `revealTerminal` with the run and the
 * terminal's id; a row without terminals has no such link; a terminal linked later (a patch) adds it.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';

const items = (): TranscriptItem[] => [
  { id: 'u1', kind: 'user', text: 'run the long command' },
  {
    id: 't1',
    kind: 'tool',
    callId: 'call_1',
    name: 'Run the long command',
    input: { command: 'sh', args: ['-c', 'for i in 1 2 3; do echo $i; done; exit 3'] },
    status: 'failed',
    output: 'The command exited with code 3.',
    truncated: false,
    terminals: ['term-abc'],
  },
  { id: 't2', kind: 'tool', callId: 'call_2', name: 'Read', input: { path: 'README.md' }, status: 'succeeded', output: '# Readme', truncated: false },
  { id: 't3', kind: 'tool', callId: 'call_3', name: 'Run two', input: null, status: 'running', output: '', truncated: false },
];

describe('tool rows linked to terminals', () => {
  let harness: Harness;
  before(async () => {
    harness = await openHarness();
    await harness.deliver(snapshot(items(), sampleRun({ protocol: 'acp' })));
  });
  after(async () => {
    await harness?.close();
  });

  test('a row with a terminal shows "Show terminal"; one without has none', async () => {
    const link = harness.page.locator('[data-item-id="t1"] .tool-terminal-link');
    assert.equal(await link.count(), 1);
    assert.equal((await link.innerText()).trim(), 'Show terminal');
    assert.equal(await harness.page.locator('[data-item-id="t2"] .tool-terminal-link').count(), 0);
  });

  test('clicking it posts revealTerminal with the run and the terminal id', async () => {
    await harness.clearPosted();
    await harness.page.locator('[data-item-id="t1"] .tool-terminal-link').click();
    const posted = await harness.waitForPost((m) => m.type === 'revealTerminal');
    assert.deepEqual(posted, { type: 'revealTerminal', runKey: RUN_KEY, terminalId: 'term-abc' });
  });

  test('terminals linked by a later patch appear, one link each', async () => {
    await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: 1, patches: [{ op: 'update', id: 't3', changes: { terminals: ['term-1', 'term-2'] } }] });
    await harness.settle();
    const links = harness.page.locator('[data-item-id="t3"] .tool-terminal-link');
    assert.deepEqual((await links.allInnerTexts()).map((t) => t.trim()), ['Show terminal 1', 'Show terminal 2']);
    await harness.clearPosted();
    await links.nth(1).click();
    const posted = await harness.waitForPost((m) => m.type === 'revealTerminal');
    assert.deepEqual(posted, { type: 'revealTerminal', runKey: RUN_KEY, terminalId: 'term-2' });
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.locator('[data-item-id="t1"]').screenshot({ path: join(dir, 'webview-tool-terminal-link.png') });
  });
});

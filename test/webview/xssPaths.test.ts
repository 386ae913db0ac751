/**
 * Hostile daemon data through the real host-side paths into the webview: hive inbox rows (`inboxRowEvent`) and loose
 * ends (`parseLooseEnd` → `looseEndsPanel`), SCV events (`mapScvEvent`: approval summaries, tool output, turn
 * failures, background job replies), and a change set whose file names and diff lines are hostile (`parseGitPatch`
 * → `changeSetMessage`) — folded by the RunStore and posted as the host posts them. Nothing may execute, trip the
 * CSP, or become markup; the hostile text must still be shown literally. (xss.test.ts feeds items directly.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseGitPatch } from '../../extension/changeSets/patchParser';
import { inboxRowEvent } from '../../extension/drivers/hive/hiveMapping';
import { looseEndsPanel } from '../../extension/drivers/hive/hivePanels';
import { mapScvEvent } from '../../extension/drivers/scv/scvEventMapping';
import { runKeyOf } from '../../extension/model/modelTypes';
import { RunStore } from '../../extension/model/runStore';
import { runSummaryOf } from '../../extension/ui/runSummary';
import { parseLooseEnd } from '../../extension/protocol/hive';
import { parseScvServerEvent } from '../../extension/protocol/scv';
import { changeSetMessage } from '../../extension/ui/changeSets/changeSetWebview';
import { openHarness } from './harness';
import type { Harness } from './harness';

const X = {
  img: '<img src=x onerror="window.__pwned=\'img\'">',
  script: '<script>window.__pwned="script"</script>',
  svg: '<svg onload="window.__pwned=\'svg\'"></svg>',
  link: '[run](command:workbench.action.terminal.new) <a href="javascript:window.__pwned=1">a</a>',
};
const HOSTILE = Object.values(X).join(' ');
const CONNECTION = 'scv:xss';

function hostileStore(): { store: RunStore; key: string } {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: X.img, protocol: 'scv' } });
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId: 's1', fields: { title: X.script, state: 'running', model: X.svg } });
  const key = runKeyOf(CONNECTION, 's1');
  const turn = { request_id: 'r1', session_id: 's1', turn_id: 't1' };
  const wire = [
    { type: 'turn.started', ...turn, seq: 1 },
    { type: 'assistant.delta', ...turn, seq: 2, content: HOSTILE },
    { type: 'tool.proposed', ...turn, seq: 3, call_id: 'c1', name: X.img, arguments: { path: X.svg, command: X.script } },
    { type: 'approval.requested', ...turn, seq: 4, approval_id: 'a1', call_id: 'c1', name: X.img, risk: X.svg, cwd: X.script, summary: HOSTILE },
    { type: 'tool.completed', ...turn, seq: 5, call_id: 'c1', name: X.img, success: false, output: HOSTILE, truncated: true, error: X.svg, jobs: [{ job: X.img, tool: 'agent', agent: X.script, status: 'running', task: HOSTILE }] },
    { type: 'background.reported', session_id: 's1', seq: 6, code: X.img, message: HOSTILE, attempts: 1, reports: [{ job: X.img, agent: X.svg, status: 'completed', reply: HOSTILE }] },
    { type: 'turn.failed', ...turn, seq: 7, code: X.img, message: HOSTILE },
  ];
  const toolArguments = new Map<string, unknown>();
  for (const value of wire) {
    const parsed = parseScvServerEvent(value);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    if (parsed.event.type === 'tool.proposed') {
      toolArguments.set(parsed.event.call_id, parsed.event.arguments);
    }
    const mapped = mapScvEvent(parsed.event, { turnPrompt: () => ({ text: HOSTILE, note: X.img }), toolArguments: (id) => toolArguments.get(id) });
    for (const event of mapped.events) {
      store.dispatch({ type: 'runEvent', runKey: key, event });
    }
  }
  // hyperhive: inbox rows and loose ends, through the hive driver's own mapping.
  for (const row of [{ id: 1, from: X.img, body: HOSTILE, at: X.script }, { from: X.svg, body: `> ${HOSTILE}`, in_reply_to: 1 }]) {
    store.dispatch({ type: 'runEvent', runKey: key, event: inboxRowEvent({ ok: true, value: row }) });
  }
  store.dispatch({ type: 'runEvent', runKey: key, event: inboxRowEvent({ ok: false, raw: { html: HOSTILE }, error: X.img }) });
  const looseEnds = [
    { kind: 'question', id: 7, question: HOSTILE, asker: X.img, options: [X.script, X.svg] },
    { kind: 'todo', id: 8, summary: HOSTILE, subsystem: X.img, source: X.svg },
    { kind: 'approval', id: 9, description: HOSTILE, agent: X.img, commit_ref: X.script },
    { kind: 'reminder', id: 10, message: HOSTILE },
    { kind: X.img, id: 11, note: HOSTILE },
  ].map(parseLooseEnd);
  store.dispatch({ type: 'runPanels', runKey: key, panels: [looseEndsPanel(X.img, true, { ok: true, value: looseEnds }, Date.now())] });
  return { store, key };
}

const HOSTILE_PATCH = [
  `diff --git "a/${'\\303\\251'}<img src=x onerror=window.__pwned=1>.ts" "b/${'\\303\\251'}<img src=x onerror=window.__pwned=1>.ts"`,
  'index 1111111..2222222 100644',
  `--- "a/${'\\303\\251'}<img src=x onerror=window.__pwned=1>.ts"`,
  `+++ "b/${'\\303\\251'}<img src=x onerror=window.__pwned=1>.ts"`,
  '@@ -1,2 +1,2 @@ <script>window.__pwned="hunk"</script>',
  ` ${X.svg}`,
  `-${X.script}`,
  `+${X.img}`,
  'diff --git a/<svg onload=window.__pwned=2>.md b/<b onmouseover=window.__pwned=3>.md',
  'similarity index 90%',
  'rename from <svg onload=window.__pwned=2>.md',
  'rename to <b onmouseover=window.__pwned=3>.md',
  '',
].join('\n');

let harness: Harness;
let dialogs = 0;
before(async () => {
  harness = await openHarness({ height: 6_000 });
  harness.page.on('dialog', (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
});
after(async () => {
  await harness?.close();
});

async function assertInert(): Promise<void> {
  await harness.page.$$eval('details', (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  await harness.settle();
  await harness.page.waitForTimeout(200); // a (wrongly) injected onerror/onload would have fired by now
  assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
  assert.equal(dialogs, 0);
  assert.deepEqual(await harness.cspViolations(), []);
  assert.deepEqual(harness.errors, []);
  const report = await harness.page.evaluate(() => {
    const all = [...document.querySelectorAll('body *')];
    return {
      scripts: document.querySelectorAll('script').length,
      foreign: all.filter((el) => ['IMG', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'MATH', 'FORM', 'BASE', 'META', 'STYLE', 'B'].includes(el.tagName.toUpperCase())).map((el) => el.outerHTML.slice(0, 80)),
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
      badLinks: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '').filter((h) => !/^(https?:\/\/|mailto:)/i.test(h)),
    };
  });
  assert.equal(report.scripts, 1);
  assert.deepEqual(report.foreign, []);
  assert.deepEqual(report.handlers, []);
  assert.deepEqual(report.badLinks, []);
}

describe('hostile daemon data through the host mappings', () => {
  test('SCV and hive transcripts and side panels', async () => {
    const { store, key } = hostileStore();
    const items = store.transcript(key)!.snapshot();
    assert.ok(items.some((i) => i.kind === 'message'), 'hive messages and background replies are message items');
    assert.ok(items.some((i) => i.kind === 'approval' && i.summary === HOSTILE), 'the SCV summary reached the card');
    const run = runSummaryOf(store.state, key);
    assert.ok(run?.panels?.length === 1);
    await harness.deliver({ type: 'snapshot', run, items, seq: store.transcript(key)!.seq });
    await assertInert();
    const body = await harness.page.locator('#app').innerText();
    assert.ok(body.includes(X.img), 'hostile text is shown literally');
    assert.ok(body.includes('command:workbench.action.terminal.new'), 'a command link is shown as text');
  });

  test('a change set with hostile file names, hunk headers and lines', async () => {
    const { store, key } = hostileStore();
    const files = parseGitPatch(HOSTILE_PATCH).files;
    assert.ok(files[0]!.newPath.startsWith('é<img'), 'the C-quoted name was decoded');
    const message = changeSetMessage({ key, title: X.script }, { source: 'daemon' }, files);
    await harness.deliver({ type: 'snapshot', run: runSummaryOf(store.state, key), items: [], seq: 0 });
    await harness.deliver(message);
    await assertInert();
    const body = await harness.page.locator('#app').innerText();
    assert.ok(body.includes('<img src=x onerror=window.__pwned=1>.ts'), 'the file name is shown literally');
    assert.ok(body.includes(X.script), 'the removed line is shown literally');
  });
});

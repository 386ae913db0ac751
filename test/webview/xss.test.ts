/**
 * Agent output is hostile until proven otherwise. An XSS corpus goes through every text field the webview shows;
 * nothing may execute (canary `window.__pwned` stays unset, no dialogs), nothing may even be attempted against the
 * CSP (zero `securitypolicyviolation` events: a blocked attempt still means we built markup from agent text), and
 * the DOM must contain no foreign elements, no `on*` attributes and no links other than http(s)/mailto.
 * Finally, the CSP of the served page is shown to be in force (so "zero violations" above means something).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const PAYLOADS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><circle r=1 /></svg>',
  '<iframe src="javascript:window.parent.__pwned = \'iframe\'"></iframe>',
  '<a href="command:workbench.action.terminal.new">terminal</a>',
  '<a href="javascript:window.__pwned=\'a\'">click</a>',
  '<details open ontoggle="window.__pwned = \'details\'">x</details>',
  '<style>body { display: none }</style>',
  '<body onload="window.__pwned = \'body\'">',
  '<math><mi xlink:href="javascript:window.__pwned=1">m</mi></math>',
  '"><img src=x onerror=window.__pwned=\'attr\'>',
  "'; window.__pwned = 'quote'; '",
  '&lt;script&gt;window.__pwned = "entity"&lt;/script&gt;',
];

const MARKDOWN_TRICKS = [
  '[x](javascript:window.__pwned=1)',
  '[x](JaVaScRiPt:window.__pwned=1)',
  '[x](java\tscript:window.__pwned=1)',
  '[x](  javascript:window.__pwned=1)',
  '[x](javascript&#58;window.__pwned=1)',
  '[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)',
  '[settings](command:workbench.action.openSettings)',
  '[ext](vscode:extension/evil.publisher)',
  '[file](file:///etc/passwd)',
  '[vb](vbscript:msgbox(1))',
  '<javascript:window.__pwned=1>',
  '<command:workbench.action.terminal.new>',
  '![img](javascript:window.__pwned=1)',
  '![img](https://evil.example/x.png "x\\" onerror=\\"window.__pwned=1")',
  '[ok](https://ok.example/ "t\\" onmouseover=\\"window.__pwned=1")',
  '[ref][1]\n\n[1]: javascript:window.__pwned=1',
  '```<img src=x onerror=window.__pwned=1>\ncode <script>window.__pwned=1</script>\n```',
  '`<img src=x onerror=window.__pwned=1>`',
  '| a | <img src=x onerror=window.__pwned=1> |\n|---|---|\n| <script>window.__pwned=1</script> | b |',
  '> <svg onload=window.__pwned=1>',
  // A look-alike host (Cyrillic а): the link goes to its punycode name (webview/punycodeShim.ts).
  '[bank](https://b\u0430nk.example/login)',
];

const HOSTILE = PAYLOADS.join('\n');
const HOSTILE_MARKDOWN = [...PAYLOADS, ...MARKDOWN_TRICKS].join('\n\n');

function hostileItems(): TranscriptItem[] {
  return [
    { id: 'u"><img src=x onerror=window.__pwned=1>', kind: 'user', text: HOSTILE, note: PAYLOADS[1] },
    { id: 'text', kind: 'text', text: HOSTILE_MARKDOWN, streaming: false },
    { id: 'reasoning', kind: 'reasoning', text: HOSTILE_MARKDOWN, streaming: false },
    {
      id: 'tool',
      kind: 'tool',
      callId: PAYLOADS[0] ?? null,
      name: '<img src=x onerror="window.__pwned=\'toolname\'">',
      input: { path: '<svg onload=window.__pwned=1>.ts', command: PAYLOADS[0], nested: { html: HOSTILE } },
      status: 'failed',
      output: HOSTILE,
      truncated: true,
      errorKind: '<b onmouseover="window.__pwned=1">kind</b>',
      progress: PAYLOADS[2],
    },
    {
      id: 'approval',
      kind: 'approval',
      approvalId: '"><script>window.__pwned=1</script>',
      title: PAYLOADS[1] ?? '',
      summary: HOSTILE,
      risk: '<img src=x onerror=window.__pwned=1>',
      detail: { file: '<svg onload=window.__pwned=1>', diff: HOSTILE },
      options: ['allow_once', 'deny'],
      status: 'pending',
      hasDiff: true,
    },
    { id: 'usage', kind: 'usage', data: { html: HOSTILE }, summary: PAYLOADS[1] ?? '' },
    { id: 'error', kind: 'error', message: HOSTILE, code: PAYLOADS[0] },
    { id: 'notice', kind: 'notice', text: HOSTILE, level: 'warning' },
    { id: 'gap', kind: 'gap', from: 1, to: 2, reason: PAYLOADS[2] ?? '' },
    { id: 'turn', kind: 'turn', turnId: 't', phase: 'failed', message: PAYLOADS[1], code: PAYLOADS[0], summary: PAYLOADS[3] },
    { id: 'orig', kind: 'message', from: 'a', body: 'original', messageId: '<x>' },
    {
      id: 'message',
      kind: 'message',
      from: '<script>window.__pwned="from"</script>',
      body: HOSTILE_MARKDOWN,
      at: '"><img src=x onerror=window.__pwned=1>',
      messageId: PAYLOADS[0],
      inReplyTo: '<x>',
    },
    { id: 'message2', kind: 'message', from: 'b', body: 'x', inReplyTo: PAYLOADS[1] },
    { id: 'raw', kind: 'raw', label: PAYLOADS[1] ?? '', data: { html: HOSTILE, [PAYLOADS[0] ?? 'k']: PAYLOADS[2] } },
  ];
}

let harness: Harness;
before(async () => {
  // Tall enough that every item is mounted at once.
  harness = await openHarness({ height: 20_000 });
});
after(async () => {
  await harness?.close();
});

describe('XSS corpus', () => {
  let dialogs = 0;
  before(async () => {
    harness.page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const run = sampleRun({
      title: PAYLOADS[1] ?? '',
      provider: PAYLOADS[0],
      model: PAYLOADS[2],
      connectionName: '<a href="command:x">conn</a>',
      stateDetail: HOSTILE,
      actions: { send: true, queues: true, stop: true, end: false, changeSet: true },
      queue: [{ queueId: '"><img src=x onerror=window.__pwned=1>', revision: 1, prompt: HOSTILE, submitter: PAYLOADS[0] }],
    });
    await harness.deliver(snapshot(hostileItems(), run));
    // Streamed chunks that only form a tag when joined.
    await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: 1, patches: [{ op: 'add', item: { id: 's', kind: 'text', text: '', streaming: true } }] });
    const pieces = ['<scr', 'ipt>window.__pwned="stream"</scr', 'ipt><img src=x on', 'error=window.__pwned=1>', '[x](javas', 'cript:window.__pwned=1)'];
    let seq = 2;
    for (const chunk of pieces) {
      await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: seq++, patches: [{ op: 'append', id: 's', field: 'text', chunk }] });
    }
    await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: seq++, patches: [{ op: 'update', id: 's', changes: { streaming: false } }] });
    await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: seq, patches: [{ op: 'update', id: 'tool', changes: { name: PAYLOADS[2], output: HOSTILE } }] });
    await harness.deliver({ type: 'toast', level: 'error', text: HOSTILE });
    // Open every <details> and expand folded output so collapsed content is rendered too.
    await harness.page.$$eval('details', (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await harness.settle();
    await harness.page.waitForTimeout(300); // give any (wrongly) injected onerror/onload a chance to fire
  });
  test('every item rendered', async () => {
    assert.equal(await harness.page.locator('[data-item-id]').count(), hostileItems().length + 1);
  });

  test('all patches applied (no resync)', async () => {
    assert.deepEqual((await harness.posted()).filter((m) => m.type === 'resync'), []);
    assert.equal(await harness.page.locator('[data-item-id="tool"] .tool-name').innerText(), PAYLOADS[2]);
  });

  test('hostile text is shown literally', async () => {
    const user = await harness.page.locator('[data-kind="user"] .user-text').innerText();
    assert.equal(user, HOSTILE);
    assert.match(await harness.page.locator('#run-title').innerText(), /<img src=x onerror=/);
    const streamed = await harness.page.locator('[data-item-id="s"]').innerText();
    assert.match(streamed, /<script>window.__pwned="stream"<\/script>/);
    assert.match(streamed, /\[x\]\(javascript:window.__pwned=1\)/);
    const text = await harness.page.locator('[data-item-id="text"]').innerText();
    assert.match(text, /\[x\]\(javascript:window.__pwned=1\)/);
    assert.match(text, /\[settings\]\(command:workbench.action.openSettings\)/);
  });

  test('nothing executed and nothing tripped the CSP', async () => {
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.equal(dialogs, 0);
    assert.deepEqual(await harness.cspViolations(), []);
    assert.deepEqual(harness.errors, []);
  });

  test('no foreign elements, no on* attributes, only our script', async () => {
    const report = await harness.page.evaluate(() => {
      const all = [...document.querySelectorAll('*')];
      return {
        scripts: document.querySelectorAll('script').length,
        foreign: all.filter((el) => ['IMG', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'MATH', 'FORM', 'BASE', 'META'].includes(el.tagName.toUpperCase()) && !el.closest('head')).map((el) => el.outerHTML.slice(0, 80)),
        styleElements: document.querySelectorAll('style').length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
      };
    });
    assert.equal(report.scripts, 1);
    assert.deepEqual(report.foreign, []);
    assert.equal(report.styleElements, 0);
    assert.deepEqual(report.handlers, []);
  });

  test('only http(s)/mailto links exist, and clicking them only posts openLink', async () => {
    const hrefs = await harness.page.$$eval('a', (links) => links.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      assert.match(href, /^(https?:\/\/|mailto:)/i, href);
    }
    assert.ok(hrefs.includes('https://ok.example/'), `expected the one legitimate link, got ${hrefs.join(', ')}`);
    assert.ok(hrefs.includes('https://xn--bnk-6cd.example/login'), `a look-alike host goes to its punycode name: ${hrefs.join(', ')}`);
    await harness.clearPosted();
    const url = harness.page.url();
    for (const link of await harness.page.locator('a').all()) {
      await link.click();
    }
    const posted = await harness.posted();
    assert.ok(posted.length > 0);
    for (const message of posted) {
      assert.equal(message.type, 'openLink');
      if (message.type === 'openLink') {
        assert.match(message.href, /^(https?:\/\/|mailto:)/i);
      }
    }
    assert.equal(harness.page.url(), url);
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
  });

  test('hovering and clicking hostile text triggers nothing', async () => {
    assert.match(await harness.page.locator('.toast-error').innerText(), /<script>window.__pwned = "script"<\/script>/);
    await harness.page.locator('.toast-close').click(); // the toast covers the header
    for (const selector of ['.tool-error-kind', '.approval-title', '.message-from', '#run-title', '.queue-prompt']) {
      const target = harness.page.locator(selector).first();
      await target.hover();
      await target.click();
    }
    await harness.page.waitForTimeout(100);
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(await harness.cspViolations(), []);
  });
});

describe('the CSP is in force in the test page', () => {
  before(async () => {
    await harness.reload(); // a clean page: the corpus above must not count here
  });

  test('the webview itself causes no violations', async () => {
    await harness.deliver(snapshot(hostileItems()));
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('inline script, eval and inline styles are blocked and reported', async () => {
    // Run the probes in a page task of their own: code evaluated over CDP is exempt from the eval check.
    const result = await harness.page.evaluate(
      () =>
        new Promise<{ evalBlocked: boolean; color: string }>((resolve) =>
          setTimeout(() => {
            const script = document.createElement('script');
            script.textContent = 'window.__pwned = "inline"';
            document.body.appendChild(script);
            let evalBlocked = false;
            try {
              (0, eval)('window.__pwned = "eval"');
            } catch {
              evalBlocked = true;
            }
            const probe = document.createElement('div');
            probe.setAttribute('style', 'color: rgb(1, 2, 3)');
            document.body.appendChild(probe);
            resolve({ evalBlocked, color: getComputedStyle(probe).color });
          }, 0),
        ),
    );
    await harness.page.waitForTimeout(50);
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.equal(result.evalBlocked, true);
    assert.notEqual(result.color, 'rgb(1, 2, 3)');
    const directives = (await harness.cspViolations()).map((v) => v.directive).sort();
    assert.ok(directives.includes('script-src-elem') || directives.includes('script-src'), directives.join(','));
    assert.ok(directives.some((d) => d.startsWith('style-src')), directives.join(','));
  });
});

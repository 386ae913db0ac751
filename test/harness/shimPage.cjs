// What the code-server shim (codeShim.cjs) does in one browser page of the workbench: the page's hooks for the
// extension host's test run (`codeAutomationLog` carries its output, screenshot and UI-action requests;
// `codeAutomationExit` its exit code), the UI actions a test asks for, and waiting for webviews before a screenshot.
// The shim opens one such page per window of a launch (two for the two-window suites).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');

/** Webviews are an iframe.webview (class "ready") with the extension's document in an inner frame. */
async function waitForWebviews(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let pending = 0;
    for (const el of await page.$$('iframe.webview')) {
      if (!(await el.isVisible())) continue;
      const ready = await el.evaluate((n) => n.classList.contains('ready'));
      const outer = await el.contentFrame();
      const inner = outer && outer.childFrames()[0];
      const ok =
        ready &&
        inner &&
        (await inner
          .evaluate(() => document.readyState === 'complete' && !!document.body && document.body.innerHTML.trim().length > 0)
          .catch(() => false));
      if (!ok) pending++;
    }
    if (!pending) return;
    if (Date.now() > deadline) {
      console.error(`${t()} waitForWebviews: ${pending} not ready`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * In the page: the values under `key` in the workbench's state databases (IndexedDB, per origin), i.e. what a later
 * launch on the same browser profile and port restores. The workbench writes them when idle and on unload.
 */
async function readStoredState(key) {
  const request = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
  const values = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name || !name.startsWith('vscode-web-state-db-')) continue;
    const db = await request(indexedDB.open(name));
    try {
      if (!db.objectStoreNames.contains('ItemTable')) continue;
      const value = await request(db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get(key));
      if (typeof value === 'string') values.push(value);
    } finally {
      db.close();
    }
  }
  return values;
}

/**
 * UI actions a test asks for by logging `SHIM_ACTION /abs/result.json {json}`: the shim performs them in the real
 * workbench (or, with "webview": true, inside the visible extension webview) and writes {ok, value|error}.
 *   {"action":"click"|"count"|"text"|"textContent"|"style"|"attribute"|"fill"|"press"|"waitFor", "selector": css,
 *    "hasText"?: string, "webview"?: bool, "value"?: string (fill / press key / attribute name),
 *    "properties"?: string[] (style: CSS properties to read), "timeout"?: ms,
 *    "frame"?: css | {"part": css, "nth"?: n} (which webview iframe when several are visible, e.g. an editor tab
 *    beside the sidebar view; see webviewFrame)}
 *   "value": the current value of an input or textarea.
 *   "storedState" (no selector): the workbench's stored values of the key `value` (see readStoredState).
 */
async function performAction(page, a) {
  if (a.action === 'storedState') return page.evaluate(readStoredState, a.value);
  // SWITCHBOARD_TIME_SCALE: a loaded machine lengthens the wait (test/integration/support.ts TIME_SCALE).
  const timeout = (a.timeout || 15000) * Math.max(1, Number(process.env.SWITCHBOARD_TIME_SCALE) || 1);
  const scope = a.webview ? page.frameLocator(await webviewFrame(page, a, timeout)).frameLocator('#active-frame') : page;
  let locator = scope.locator(a.selector);
  if (a.hasText) locator = locator.filter({ hasText: a.hasText });
  switch (a.action) {
    case 'click':
      await locator.first().click({ timeout });
      return true;
    case 'fill':
      await locator.first().fill(a.value || '', { timeout });
      return true;
    case 'press':
      await locator.first().press(a.value, { timeout });
      return true;
    case 'waitFor':
      await locator.first().waitFor({ timeout });
      return true;
    case 'hover':
      await locator.first().hover({ timeout });
      return true;
    case 'count':
      return locator.count();
    case 'value':
      return locator.first().inputValue({ timeout });
    case 'text':
      return locator.allInnerTexts();
    case 'textContent':
      // Unlike innerText this includes hidden elements, so a test can tell "rendered but hidden" from "absent".
      return locator.evaluateAll((els) => els.map((e) => e.textContent || ''));
    case 'style': {
      // Computed CSS of the first match, e.g. a webview body's background under the current colour theme.
      const props = a.properties || [];
      return locator.first().evaluate((el, ps) => {
        const s = getComputedStyle(el);
        return Object.fromEntries(ps.map((p) => [p, s.getPropertyValue(p)]));
      }, props, { timeout });
    }
    case 'attribute':
      return locator.evaluateAll((els, name) => els.map((e) => e.getAttribute(name)), a.value || 'class');
    default:
      throw new Error(`unknown action ${a.action}`);
  }
}

/** The actions that wait for their element; the others read what is there now. */
const WAITING_ACTIONS = new Set(['click', 'fill', 'press', 'waitFor', 'hover', 'value', 'style']);

/**
 * The selector of the webview iframe an action means. "frame" is a selector, or {"part": css, "nth"?: n}: the nth
 * webview (in document order) drawn over that workbench part, e.g. ".part.sidebar" or ".part.editor". VS Code draws
 * every webview in an overlay outside the part it belongs to, and nothing on the iframe says which part that is
 * (its src has purpose=webviewView only until the view is first hidden and shown again), so the shim looks at where
 * it is on screen and marks the one it found. Waiting actions wait for it to appear; the others fail at once.
 */
async function webviewFrame(page, a, timeout) {
  if (!a.frame || typeof a.frame === 'string') return a.frame || 'iframe.webview.ready';
  const { part, nth = 0 } = a.frame;
  const deadline = Date.now() + (WAITING_ACTIONS.has(a.action) ? timeout : 0);
  for (;;) {
    const mark = await page.evaluate(
      ({ part, nth }) => {
        const area = document.querySelector(part);
        if (!area || area.getClientRects().length === 0) return null;
        const box = area.getBoundingClientRect();
        const over = [...document.querySelectorAll('iframe.webview.ready')].filter((f) => {
          const r = f.getBoundingClientRect();
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          return r.width > 0 && r.height > 0 && getComputedStyle(f).visibility !== 'hidden' && x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
        });
        const frame = over[nth];
        if (!frame) return null;
        window.__shimFrameMark = (window.__shimFrameMark || 0) + 1;
        frame.setAttribute('data-shim-frame', String(window.__shimFrameMark));
        return String(window.__shimFrameMark);
      },
      { part, nth },
    );
    if (mark) return `iframe.webview.ready[data-shim-frame="${mark}"]`;
    if (Date.now() >= deadline) throw new Error(`no webview number ${nth} over ${part}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const NOISE = /AgentHost|ChatModelSelection|AccountPolicyGate|Creating a socket|connection token|grace time|Service Worker|builtin extensions cache|open-vsx|ENOTFOUND|authentication provider/;

/**
 * Wires a workbench page to the test run of its extension host: its output goes to the shim's stdout (each line
 * prefixed with `label` when the launch has several windows, e.g. "[window B]"), its screenshot and UI-action
 * requests act on this page, and `onExit(code)` is called when its test run ends. A window reload keeps the page,
 * and so these hooks, for the reloaded workbench. `t` gives the shim's time stamp for its own lines.
 */
async function wirePage(page, { label, t, onExit }) {
  const prefix = label ? `${label} ` : '';
  await page.exposeFunction('codeAutomationLog', async (type, args) => {
    const msg = util.format(...(args || [])).replace(/%c\s*|color: #[0-9a-f]{3,6}\s*/g, '');
    const shot = /SHIM_SCREENSHOT (\S+\.png)/.exec(msg);
    if (shot) {
      await waitForWebviews(page, 20000);
      await new Promise((r) => setTimeout(r, 300)); // let the last animation frame paint
      const tf = `${shot[1]}.tmp.png`;
      fs.mkdirSync(path.dirname(shot[1]), { recursive: true });
      await page.screenshot({ path: tf }).then(() => fs.renameSync(tf, shot[1]), (e) => console.error('screenshot failed', e));
      if (process.env.SHIM_VERBOSE) console.log(`${t()} ${prefix}screenshot ${shot[1]}`);
      return;
    }
    const action = /SHIM_ACTION (\S+\.json) (\{.*\})\s*$/.exec(msg);
    if (action) {
      const result = await performAction(page, JSON.parse(action[2])).then(
        (value) => ({ ok: true, value }),
        (e) => ({ ok: false, error: String((e && e.message) || e) }),
      );
      fs.writeFileSync(`${action[1]}.tmp`, JSON.stringify(result));
      fs.renameSync(`${action[1]}.tmp`, action[1]);
      return;
    }
    if (process.env.SHIM_VERBOSE || !NOISE.test(msg)) {
      const text = prefix ? msg.split('\n').map((line) => `${prefix}${line}`).join('\n') : msg;
      (type === 'error' ? console.error : console.log)(text);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
  if (process.env.SHIM_VERBOSE) page.on('console', (m) => console.log(`${prefix}[browser]`, m.text()));
}

module.exports = { wirePage };

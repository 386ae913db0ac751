// Renders the Marketplace icon (media/icon.png, 256×256) from the activity-bar glyph media/switchboard.svg: the same
// drawing, light strokes on a dark rounded square. Run by hand when the glyph changes (`npm run icon`) and commit the
// PNG: packaging must not need a browser or the network. Uses the headless Debian chromium the webview tier uses.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIZE = 256;
const glyph = readFileSync(`${root}media/switchboard.svg`, 'utf8')
  .replace(/<!--[\s\S]*?-->/g, '')
  // The glyph draws in currentColor at 24×24; here it fills most of the tile.
  .replace(/width="24" height="24"/, `width="${SIZE * 0.8}" height="${SIZE * 0.8}"`)
  .replace(/stroke-width="1.5"/, 'stroke-width="1.4"');
const page = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:${SIZE}px;height:${SIZE}px;border-radius:${SIZE * 0.18}px;background:linear-gradient(160deg,#2b4f7e,#16263d);
display:flex;align-items:center;justify-content:center;color:#f3f6fa">${glyph}</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const tab = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await tab.setContent(page);
  await tab.screenshot({ path: `${root}media/icon.png`, omitBackground: true });
} finally {
  await browser.close();
}
console.log(`media/icon.png ${SIZE}×${SIZE}`);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildContentSecurityPolicy, createNonce, renderWebviewHtml } from '../../../extension/ui/webviewHtml';

function parseCsp(html: string): Map<string, string[]> {
  const m = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  assert.ok(m, 'the document has a CSP meta tag');
  const directives = new Map<string, string[]>();
  for (const part of m[1]!.replace(/&#39;|&apos;/g, "'").split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) {
      directives.set(name, values);
    }
  }
  return directives;
}

test('the CSP is strict: default none, nonce scripts, no unsafe-*', () => {
  const html = renderWebviewHtml({ cspSource: 'https://webview.test', scriptUri: 'https://webview.test/w.js', styleUris: ['https://webview.test/a.css'], title: 'T', nonce: 'abc123' });
  const csp = parseCsp(html);
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  assert.deepEqual(csp.get('script-src'), ["'nonce-abc123'"]);
  assert.deepEqual(csp.get('style-src'), ['https://webview.test']);
  for (const values of csp.values()) {
    for (const v of values) {
      assert.doesNotMatch(v, /unsafe-(inline|eval)|\*|http:/);
    }
  }
  assert.match(html, /<script nonce="abc123" src="https:\/\/webview.test\/w.js"><\/script>/);
  assert.doesNotMatch(html, /<script(?![^>]*nonce="abc123")/, 'every script carries the nonce');
  assert.doesNotMatch(html, /style="/, 'no inline style attributes');
});

test('nonces are random and long enough', () => {
  const a = createNonce();
  const b = createNonce();
  assert.notEqual(a, b);
  assert.ok(a.length >= 20);
  assert.match(a, /^[A-Za-z0-9_-]+$/);
});

test('attributes are escaped', () => {
  const html = renderWebviewHtml({ cspSource: 'x', scriptUri: 'a"><script>alert(1)</script>', styleUris: [], title: '<b>', nonce: 'n' });
  assert.doesNotMatch(html, /<script>alert/);
  assert.match(buildContentSecurityPolicy('src', 'n'), /^default-src 'none'/);
});

test('security: with VS Code\'s own cspSource there is no unsafe-inline / unsafe-eval, and everything else falls back to none', () => {
  const nonce = createNonce();
  const html = renderWebviewHtml({ cspSource: 'https://*.vscode-cdn.net', scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/dist/webview.js', styleUris: [], title: 'T', nonce });
  const csp = parseCsp(html);
  const sources = [...csp.values()].flat();
  for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", "'strict-dynamic'"]) {
    assert.equal(sources.includes(unsafe), false, `${unsafe} in ${JSON.stringify([...csp])}`);
  }
  assert.deepEqual(csp.get('script-src'), [`'nonce-${nonce}'`], 'scripts only by this render\'s nonce');
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  for (const fallsBack of ['connect-src', 'frame-src', 'child-src', 'worker-src', 'object-src', 'media-src', 'manifest-src']) {
    assert.equal(csp.get(fallsBack), undefined, `${fallsBack} is not widened (it falls back to default-src 'none')`);
  }
  assert.ok(!sources.some((s) => s === '*' || s === 'http:' || s === 'https:'), 'no wildcard or bare-scheme source');
  assert.deepEqual([...csp].filter(([, values]) => values.includes('data:')).map(([name]) => name), ['img-src'], 'data: only for images');
});

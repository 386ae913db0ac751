/**
 * The one place webview HTML is built. Strict CSP: nothing loads unless listed; scripts only with this render's
 * nonce; styles and fonts only from the extension's own resources (no inline styles, no `unsafe-*`).
 * Pure (no `vscode` value import) so the webview test tier builds exactly the same document.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlOptions {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** URI of dist/webview.js as the webview sees it. */
  readonly scriptUri: string;
  /** URIs of stylesheets (codicons, transcript.css). */
  readonly styleUris: readonly string[];
  /** Page title for screen readers. */
  readonly title: string;
  /** Defaults to a fresh random nonce; tests may pass one. */
  readonly nonce?: string;
}

export function createNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function buildContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    // Not covered by default-src: a webview never needs a <base> or a form target.
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderWebviewHtml(options: WebviewHtmlOptions): string {
  const nonce = options.nonce ?? createNonce();
  const csp = buildContentSecurityPolicy(options.cspSource, nonce);
  const styles = options.styleUris
    .map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri)}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttribute(options.title)}</title>
  </head>
  <body>
    <div id="app" role="main" aria-label="${escapeAttribute(options.title)}"></div>
    <script nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>
  </body>
</html>`;
}

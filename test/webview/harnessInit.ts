/** What runs in the harness page before the webview's script (see harness.ts). */

/**
 * Runs before the webview's script: the stub VS Code API (acquirable once, like the real one), the CSP violation
 * recorder, and the theme class on <body>. A string, not a function: tsx compiles test functions with esbuild's
 * keepNames, whose `__name` helper does not exist in the page (it is also stubbed here for `page.evaluate`).
 */
export function initScript(state: unknown): string {
  return `(() => {
    globalThis.__name = (target) => target;
    window.__posted = [];
    window.__state = ${JSON.stringify(state ?? null)};
    window.__cspViolations = [];
    let acquired = false;
    const api = Object.freeze({
      postMessage: (message) => {
        const copy = JSON.parse(JSON.stringify(message));
        window.__posted.push(copy);
        window.__toHost?.(copy);
      },
      getState: () => window.__state,
      setState: (next) => { window.__state = next; return next; },
    });
    window.acquireVsCodeApi = () => {
      if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
      acquired = true;
      return api;
    };
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
    });
    document.addEventListener('DOMContentLoaded', () => document.body.classList.add('vscode-dark'));
  })();`;
}


/**
 * The link allowlist for agent-produced text. Only absolute http(s) and mailto URLs become links; everything else
 * (`javascript:`, `data:`, `vbscript:`, `command:`, `vscode:`, `file:`, relative paths, …) stays plain text.
 * Even an allowed link never navigates by itself: clicks are intercepted and sent to the host, which asks first.
 */
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function isSafeHref(href: string): boolean {
  // The raw text must itself start with an allowed scheme: the URL parser drops tabs/newlines and leading
  // control characters, which is how `java\tscript:` tricks slip past naive checks.
  if (!/^(?:https?:\/\/|mailto:)/i.test(href)) {
    return false;
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol);
}

/**
 * What markdown-it needs of `punycode.js` (bundled in its place, esbuild.mjs `alias`), from the browser's own URL
 * parser: a link's host name to its ASCII form for the href. Link *text* keeps a host name as the agent wrote it
 * (no xn-- → Unicode decoding): agent text is untrusted, and a look-alike Unicode host hidden behind punycode is
 * exactly what a reader should see as punycode. Saves the 2.4 KB library in a bundle with a budget.
 */

/** `bücher.example` → `xn--bcher-kva.example` (throws on a host the URL parser refuses; markdown-it catches it). */
export function toASCII(domain: string): string {
  return new URL(`http://${domain}`).hostname;
}

/** Left as written (see the module comment). */
export function toUnicode(domain: string): string {
  return domain;
}

// markdown-it imports the library's default export.
// eslint-disable-next-line no-restricted-syntax -- stands in for a module whose default export is what is imported
export default { toASCII, toUnicode };

/**
 * Text from an agent or a socket shown in a notification must not become a link or a command: VS Code renders
 * markdown-style links `[x](y)` in notification messages, including `command:` URIs. We strip link syntax and
 * URIs with a scheme VS Code would act on, show hidden characters (bidi controls, zero-width, controls) as visible
 * escapes (protocol/visibleText.ts), collapse spaces and bound the length. Pure (testable without VS Code).
 */
import { visibleExcerpt, visibleText } from '../protocol/visibleText';

const LINK = /\[([^\]]*)\]\(([^)]*)\)/g;
const SCHEME_URI = /\b(command|vscode|vscode-insiders|file|javascript|data):\S+/gi;

/** Links and acting URIs out; brackets that could still pair up (across a cut, say) neutralised. */
function withoutLinks(text: string): string {
  return text
    .replace(LINK, (_m, label: string) => label)
    .replace(SCHEME_URI, '[link removed]')
    .replace(/[[\]]/g, (c) => (c === '[' ? '(' : ')'));
}

/** One line of text: line breaks folded into spaces, cut at its end when longer than `max`. */
export function sanitizeNotificationText(text: string, max = 200): string {
  let out = withoutLinks(visibleText(text, 'space')).replace(/ {2,}/g, ' ').trim();
  if (out.length > max) {
    out = `${out.slice(0, max - 1)}…`;
  }
  return out || 'an action';
}

/**
 * What a request would run or change, in one line: line breaks shown as `⏎`, and when longer than `max`, its head
 * and its tail with the count of what is hidden between them, so a shortened command never hides what it ends with.
 */
export function sanitizeCommandText(text: string, max = 200): string {
  const out = withoutLinks(visibleExcerpt(text.trim().replace(/ {2,}/g, ' '), max, 'mark'));
  return out || 'an action';
}

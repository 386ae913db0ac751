/**
 * Text from an agent or a socket shown in a notification must not become a link or a command: VS Code renders
 * markdown-style links `[x](y)` in notification messages, including `command:` URIs. We strip link syntax and
 * URIs with a scheme VS Code would act on, collapse whitespace and bound the length. Pure (testable without VS Code).
 */
const LINK = /\[([^\]]*)\]\(([^)]*)\)/g;
const SCHEME_URI = /\b(command|vscode|vscode-insiders|file|javascript|data):\S+/gi;

export function sanitizeNotificationText(text: string, max = 200): string {
  let out = text.replace(LINK, (_m, label: string) => label).replace(SCHEME_URI, '[link removed]');
  // Brackets that could still pair up across the cut are neutralised.
  out = out.replace(/[[\]]/g, (c) => (c === '[' ? '(' : ')'));
  out = out.replace(/\s+/g, ' ').trim();
  if (out.length > max) {
    out = `${out.slice(0, max - 1)}…`;
  }
  return out || 'an action';
}

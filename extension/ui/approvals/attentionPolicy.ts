/**
 * What an approval that arrives does to get attention, and the OS notification command. Pure (no `vscode`), so the
 * decisions are unit-tested; approvalAttention.ts carries them out.
 */

export interface Attention {
  /** The request arrived while the window was not focused: the status bar item turns to the warning background. */
  readonly markAway: boolean;
  /** Also raise an OS notification (opted in, the extension runs on this machine, and the window is not focused). */
  readonly osNotification: boolean;
}

export function attentionFor(focused: boolean, osNotificationSetting: boolean, remoteName: string | undefined): Attention {
  return { markAway: !focused, osNotification: !focused && osNotificationSetting && remoteName === undefined };
}

/** An OS notification as a program and fixed arguments (run without a shell), or undefined where none is known. */
export interface OsNotificationCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/** Control characters and markup out, bounded: notify-send servers may render a subset of HTML. */
function plain(text: string, max: number): string {
  const out = [...text]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/[<>&]/g, (c) => (c === '<' ? '‹' : c === '>' ? '›' : '+'))
    .trim();
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/** Quotes a string for an AppleScript string literal. */
function appleScriptString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function osNotificationCommand(platform: string, title: string, body: string): OsNotificationCommand | undefined {
  const t = plain(title, 80);
  const b = plain(body, 300);
  switch (platform) {
    case 'linux':
      // `--` ends the options: a body starting with "-" is text, not a flag.
      return { file: 'notify-send', args: ['--app-name=Agent Switchboard', '--', t, b] };
    case 'darwin':
      return { file: 'osascript', args: ['-e', `display notification ${appleScriptString(b)} with title ${appleScriptString(t)}`] };
    default:
      return undefined;
  }
}

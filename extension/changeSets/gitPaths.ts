/**
 * Path tokens of git patch headers: C-quoted names (`"a/\303\251t\303\251.txt"`), the two paths of a
 * `diff --git` line (unquoted names may contain spaces) and the `---`/`+++` markers. Daemon-independent: this is
 * git's own output format, whoever ran `git diff`.
 */
import { PatchParseError } from './patchTypes';

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Decodes one git C-quoted token starting at `start` (which must be `"`). Returns the value (escaped bytes decoded
 * as UTF-8) and the index after the closing quote, or undefined when malformed.
 */
function readQuoted(s: string, start: number): { value: string; end: number } | undefined {
  const bytes: number[] = [];
  for (let i = start + 1; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '"') {
      return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    }
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = s[i + 1] ?? '';
    if (/^[0-7]{3}$/.test(s.slice(i + 1, i + 4))) {
      bytes.push(parseInt(s.slice(i + 1, i + 4), 8));
      i += 3;
    } else if (next in C_ESCAPES) {
      bytes.push(C_ESCAPES[next] as number);
      i += 1;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** Unquotes a git path token: `"a/\303\251.txt"` → `a/é.txt`; unquoted tokens are returned as they are. */
export function unquoteGitPath(token: string): string {
  if (!token.startsWith('"')) {
    return token;
  }
  const q = readQuoted(token, 0);
  if (q === undefined || q.end !== token.length) {
    throw new PatchParseError(`malformed quoted path ${token}`);
  }
  return q.value;
}

export function stripPrefix(path: string, prefix: 'a/' | 'b/'): string {
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** `diff --git <a> <b>`: both tokens may be quoted; unquoted names may contain spaces (then a == b by construction). */
export function parseDiffGitPaths(rest: string): { a: string; b: string } | undefined {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0);
    if (first === undefined || rest[first.end] !== ' ') {
      return undefined;
    }
    return { a: first.value, b: unquoteGitPath(rest.slice(first.end + 1)) };
  }
  if (rest.endsWith('"')) {
    for (let i = rest.indexOf(' "'); i >= 0; i = rest.indexOf(' "', i + 1)) {
      const second = readQuoted(rest, i + 1);
      if (second !== undefined && second.end === rest.length) {
        return { a: rest.slice(0, i), b: second.value };
      }
    }
    return undefined;
  }
  const n = (rest.length - 5) / 2;
  if (Number.isInteger(n) && n > 0 && rest.startsWith('a/') && rest.slice(2 + n, 5 + n) === ' b/' && rest.slice(2, 2 + n) === rest.slice(5 + n)) {
    return { a: rest.slice(0, 2 + n), b: rest.slice(3 + n) };
  }
  const split = rest.indexOf(' b/');
  return split < 0 ? undefined : { a: rest.slice(0, split), b: rest.slice(split + 1) };
}

/** `--- a/x` / `+++ b/x`: one token, maybe quoted; git appends a TAB when the name contains a space. */
export function parseMarkerPath(value: string): string | undefined {
  const v = value.endsWith('\t') ? value.slice(0, -1) : value;
  return v === '/dev/null' ? undefined : unquoteGitPath(v);
}

/**
 * Agent text shown where a person decides (approval cards, notifications, the diff editor's title, the run board):
 * what the text holds must be what the person sees. Characters that are invisible or change how the rest is shown
 * — bidi overrides and isolates, zero-width and other format characters, C0/C1 controls, unusual spaces, variation
 * selectors, tag characters, Hangul fillers — are replaced by a visible escape (`\u202e`), and a text shortened to
 * fit keeps its head and its tail and says how much is hidden between them. Pure (no DOM, no Node): the host and
 * the webview both use it.
 */

/** How line breaks are shown: kept (a multi-line view), marked `⏎` (one line), or folded into spaces. */
export type LineBreaks = 'keep' | 'mark' | 'space';

/**
 * Controls, format characters (bidi, zero-width, tags), line/paragraph separators, default-ignorable characters
 * (variation selectors, Hangul fillers, the combining grapheme joiner), spaces other than U+0020, the braille blank.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u2800]/gu;
const LINE_BREAK = /\r?\n/g;

function escapeOf(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).padStart(4, '0');
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex}`;
}

/** `text` with every hidden character shown as an escape; line breaks as `lineBreaks` says (tabs with them). */
export function visibleText(text: string, lineBreaks: LineBreaks = 'mark'): string {
  let out = text;
  if (lineBreaks === 'space') {
    out = out.replace(/[\t\n\r]+/g, ' ');
  } else if (lineBreaks === 'mark') {
    out = out.replace(LINE_BREAK, '⏎').replace(/\t/g, '\\t');
  } else {
    out = out.replace(/\r\n/g, '\n');
  }
  return out.replace(HIDDEN, (char) => {
    if (lineBreaks === 'keep' && (char === '\n' || char === '\t')) {
      return char;
    }
    return char === '\r' ? '\\r' : escapeOf(char);
  });
}

/** An index that does not split a surrogate pair. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

/**
 * `text` made visible and, when longer than `max` characters, shortened to its head and its tail with the count of
 * what is hidden between them: a shortened command still shows what it ends with (`… ; curl x | sh`). The count is
 * of the original characters; escapes can make the result longer than `max`.
 */
export function visibleExcerpt(text: string, max: number, lineBreaks: LineBreaks = 'mark'): string {
  if (text.length <= max) {
    return visibleText(text, lineBreaks);
  }
  const budget = Math.max(2, max - 32);
  const headEnd = safeCut(text, Math.ceil(budget * 0.6));
  const tailStart = text.length - (budget - headEnd);
  const tailFrom = safeCut(text, tailStart) === tailStart ? tailStart : tailStart + 1;
  const hidden = tailFrom - headEnd;
  return `${visibleText(text.slice(0, headEnd), lineBreaks)} … (${hidden.toLocaleString('en-US')} characters hidden) … ${visibleText(text.slice(tailFrom), lineBreaks)}`;
}

/**
 * Titles of ACP runs. Until the agent names a session (`session_info_update`, `session/list`), a run is called after
 * its first prompt — as a person would read it in a list: one line, without markdown or code, cut at a word. A title
 * from the agent is untrusted text shown in trees, quick picks and headers: one line, no control characters, no
 * codicon syntax, bounded.
 */

const MAX_TITLE = 80;
const UNTITLED = 'New session';

/** The run's title from its first prompt: whitespace collapsed, markdown and code fences stripped, cut at a word. */
export function defaultRunTitle(prompt: string): string {
  const prose = prompt
    // A fenced block is code, not what the prompt is about: it stands as "…" between the words around it.
    .replace(/```[\s\S]*?(```|$)/g, ' … ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, '$1$2');
  const line = oneLine(prose).replace(/^(… ?)+|( ?…)+$/g, '').trim();
  return cutAtWord(line, MAX_TITLE) || UNTITLED;
}

/** A title the agent sent, fit to show: one line, at most 80 characters; undefined when nothing is left of it. */
export function shownAgentTitle(title: string | null | undefined): string | undefined {
  if (typeof title !== 'string') {
    return undefined;
  }
  return cutAtWord(oneLine(title), MAX_TITLE) || undefined;
}

/** Agent text for one line of a list: as `oneLine`, at most `max` characters. */
export function shownAgentText(text: string, max: number): string {
  return cutAtWord(oneLine(text), max);
}

/** Collapsed whitespace, control characters dropped, and `$(` broken so a quick pick shows no codicon from it. */
function oneLine(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\$\(/g, '$ (')
    .trim();
}

/** `text` within `max` characters: cut at the last word boundary that fits, with an ellipsis. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  // A single long word (a path, a URL) is cut where it must be rather than lost.
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,.;:!?-]+$/, '')}…`;
}

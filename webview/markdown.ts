/**
 * Markdown for agent text, rendered to DOM nodes without ever parsing HTML.
 *
 * Why this is safe: markdown-it runs with `html: false`, so raw HTML in the source is never recognised as HTML (it
 * stays literal text), and `validateLink` is our http(s)/mailto allowlist, so markdown-it does not even produce
 * link tokens for other schemes (`[x](javascript:…)` stays text). On top of that we do not use `md.render()`'s HTML
 * string at all: we walk the token stream and build elements from a fixed tag allowlist, putting every piece of
 * source text into Text nodes and re-checking each href. No `innerHTML`, no attribute taken from the source except a
 * re-validated href/title and a numeric list start.
 */
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { button, codicon, h } from './dom';
import { isSafeHref } from './safeLink';

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false, breaks: false });
md.validateLink = isSafeHref;

/** Tags markdown-it may open; anything else (never expected) falls back to a neutral container. */
const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
const INLINE_TAGS = new Set(['em', 'strong', 's']);

export interface MarkdownHooks {
  /** The Copy button of a code block was pressed. */
  readonly onCopy: (text: string) => void;
}

/** Renders `source` into a fragment of elements with class-based styling only. */
export function renderMarkdown(source: string, hooks: MarkdownHooks): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const tokens = md.parse(source, {});
  const stack: Node[] = [fragment];
  for (const token of tokens) {
    const parent = stack[stack.length - 1] ?? fragment;
    if (token.type === 'inline') {
      renderInline(token.children ?? [], parent);
      continue;
    }
    if (token.nesting === 1) {
      // Tight lists hide their paragraphs: keep the stack balanced without creating an element.
      const el = token.hidden ? parent : parent.appendChild(openBlock(token));
      stack.push(el);
    } else if (token.nesting === -1) {
      if (stack.length > 1) {
        stack.pop();
      }
    } else {
      renderBlockLeaf(token, parent, hooks);
    }
  }
  return fragment;
}

function openBlock(token: Token): HTMLElement {
  const tag = BLOCK_TAGS.has(token.tag) ? token.tag : 'div';
  const el = document.createElement(tag);
  el.className = `md-${tag}`;
  if (tag === 'ol') {
    const start = Number.parseInt(attr(token, 'start'), 10);
    if (Number.isFinite(start) && start !== 1) {
      el.setAttribute('start', String(start));
    }
  }
  if (tag === 'th' || tag === 'td') {
    // markdown-it expresses alignment as an inline style, which our CSP forbids: map it to a class.
    const align = /text-align:(left|right|center)/.exec(attr(token, 'style'))?.[1];
    if (align) {
      el.classList.add(`align-${align}`);
    }
  }
  return el;
}

function renderBlockLeaf(token: Token, parent: Node, hooks: MarkdownHooks): void {
  switch (token.type) {
    case 'fence':
    case 'code_block':
      parent.appendChild(codeBlock(token.content, token.type === 'fence' ? token.info : '', hooks));
      return;
    case 'hr':
      parent.appendChild(h('hr', { class: 'md-hr' }));
      return;
    default:
      // html_block cannot occur with html:false; anything unexpected is shown as its literal text.
      if (token.content) {
        parent.appendChild(h('p', { class: 'md-p' }, token.content));
      }
  }
}

function renderInline(tokens: readonly Token[], root: Node): void {
  const stack: Node[] = [root];
  for (const token of tokens) {
    const parent = stack[stack.length - 1] ?? root;
    switch (token.type) {
      case 'text':
        parent.appendChild(document.createTextNode(token.content));
        break;
      case 'softbreak':
        parent.appendChild(document.createTextNode('\n'));
        break;
      case 'hardbreak':
        parent.appendChild(document.createElement('br'));
        break;
      case 'code_inline':
        parent.appendChild(h('code', { class: 'md-code' }, token.content));
        break;
      case 'link_open': {
        stack.push(parent.appendChild(linkElement(attr(token, 'href'), attr(token, 'title'))));
        break;
      }
      case 'image':
        parent.appendChild(imageStandIn(token));
        break;
      default:
        if (token.nesting === 1) {
          const tag = INLINE_TAGS.has(token.tag) ? token.tag : 'span';
          stack.push(parent.appendChild(h(tag as 'em', { class: `md-${tag}` })));
        } else if (token.nesting === -1) {
          if (stack.length > 1) {
            stack.pop();
          }
        } else if (token.content) {
          // html_inline / unknown leaf: literal text, never markup.
          parent.appendChild(document.createTextNode(token.content));
        }
    }
  }
}

/** An `<a>` for an allowed href, otherwise a plain span (defence in depth: validateLink already filtered). */
function linkElement(href: string, title: string): HTMLElement {
  if (!isSafeHref(href)) {
    return h('span', { class: 'md-link-text' });
  }
  return h('a', { class: 'md-link', href, title: title || href, rel: 'noopener noreferrer' });
}

/**
 * Images are not loaded (the CSP allows only our own resources, and remote images would leak that the
 * transcript was viewed): show the alt text, linked to the source when it is an allowed URL.
 */
function imageStandIn(token: Token): HTMLElement {
  const alt = token.content || token.children?.map((child) => child.content).join('') || 'image';
  const src = attr(token, 'src');
  const label = h('span', { class: 'md-image' }, codicon('file-media'), ` ${alt}`);
  if (!isSafeHref(src)) {
    return label;
  }
  const link = linkElement(src, src);
  link.appendChild(label);
  return link;
}

/** A token attribute as a string ('' when absent). */
function attr(token: Token, name: string): string {
  const value: unknown = token.attrGet(name);
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Lines of a code block per chunk. Each chunk is a block of its own, so a code block that grows while it streams is
 * laid out again only in its last chunk (one `<pre>` of 5,000 lines costs ~30 ms of layout per appended line).
 */
export const CODE_CHUNK_LINES = 50;

function codeBlock(content: string, info: string, hooks: MarkdownHooks): HTMLElement {
  const language = info.trim().split(/\s+/)[0] ?? '';
  const code = h('code', null, ...codeChunks(content.endsWith('\n') ? content.slice(0, -1) : content).map((text) => h('span', { class: 'code-chunk' }, text)));
  return h(
    'div',
    { class: 'code-block' },
    h(
      'div',
      { class: 'code-toolbar' },
      h('span', { class: 'code-lang' }, language),
      // Read when clicked: a streaming block's element stays while its code grows (webview/domReconcile.ts).
      button({ label: 'Copy code', icon: 'copy', className: 'code-copy', onClick: () => hooks.onCopy(codeOf(code)) }),
    ),
    h('pre', { class: 'code-pre' }, code),
  );
}

/** The code a code block shows: its chunks, each a block, joined by the line breaks between them. */
function codeOf(code: HTMLElement): string {
  return Array.from(code.children, (chunk) => chunk.textContent ?? '').join('\n');
}

/**
 * `code` cut into runs of CODE_CHUNK_LINES lines; the line break between two runs is dropped (the runs are blocks:
 * the browser breaks the line, and selecting across them copies one line break, not two). A run only ends after a
 * line that is not empty and before one that is not empty somewhere after it: a block's last line break and an
 * empty last line show as nothing, so an empty line there would vanish. Cutting is deterministic from the start, so
 * a growing block's earlier runs never change.
 */
export function codeChunks(code: string, lines = CODE_CHUNK_LINES): string[] {
  let end = code.length;
  while (end > 0 && code[end - 1] === '\n') {
    end--;
  }
  const chunks: string[] = [];
  let start = 0;
  let count = 0;
  for (let nl = code.indexOf('\n'); nl !== -1 && nl < end; nl = code.indexOf('\n', nl + 1)) {
    count++;
    if (count >= lines && nl > start && code[nl - 1] !== '\n') {
      chunks.push(code.slice(start, nl));
      start = nl + 1;
      count = 0;
    }
  }
  chunks.push(code.slice(start));
  return chunks;
}

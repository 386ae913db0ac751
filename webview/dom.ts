/**
 * Tiny DOM builders. Every string that reaches the DOM through here becomes a Text node or an attribute value set
 * with `setAttribute` (never parsed as HTML), so agent output cannot inject markup or handlers. Attribute *names*
 * always come from our own code; `on*` names are refused as a second line of defence.
 */

export type Child = Node | string | null | undefined | false;
export type Props = Record<string, string | number | boolean | null | undefined>;

/** Creates `<tag>` with attributes (`class` included; `true` = empty attribute, `false`/null = absent) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    setProps(el, props);
  }
  appendChildren(el, children);
  return el;
}

export function setProps(el: Element, props: Props): void {
  for (const [name, value] of Object.entries(props)) {
    if (/^on/i.test(name) || name.toLowerCase() === 'style') {
      throw new Error(`refusing to set attribute ${name}`);
    }
    if (value === null || value === undefined || value === false) {
      el.removeAttribute(name);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

export function appendChildren(el: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  appendChildren(el, children);
}

/** A decorative codicon (`codicon-<name>`); extra classes e.g. `codicon-modifier-spin`. */
export function codicon(name: string, ...extra: string[]): HTMLSpanElement {
  return h('span', { class: ['codicon', `codicon-${name}`, ...extra].join(' '), 'aria-hidden': 'true' });
}

export interface ButtonOptions {
  /** Accessible name (also the tooltip). */
  readonly label: string;
  /** Visible text; omit for an icon-only button. */
  readonly text?: string;
  readonly icon?: string;
  /** Extra classes, e.g. `primary`, `secondary`, `icon-only`. */
  readonly className?: string;
  readonly onClick: (event: MouseEvent) => void;
}

/**
 * A native `<button type="button">`: keyboard activation (Enter/Space), focus and tab order come for free.
 */
export function button(options: ButtonOptions): HTMLButtonElement {
  const classes = ['btn'];
  if (!options.text) {
    classes.push('icon-only');
  }
  if (options.className) {
    classes.push(options.className);
  }
  const el = h(
    'button',
    { type: 'button', class: classes.join(' '), 'aria-label': options.label, title: options.label },
    options.icon ? codicon(options.icon) : null,
    options.text ? h('span', { class: 'btn-text' }, options.text) : null,
  );
  el.addEventListener('click', (event) => {
    event.stopPropagation();
    options.onClick(event);
  });
  return el;
}

/** Sets a button's visible text (keeps its icon) and accessible name. */
export function setButtonText(el: HTMLButtonElement, text: string, label = text): void {
  const span = el.querySelector('.btn-text');
  if (span) {
    span.textContent = text;
  }
  el.setAttribute('aria-label', label);
  el.setAttribute('title', label);
}

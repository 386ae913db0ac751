/**
 * Brings a rendered subtree up to date with a fresh render of it, keeping every node that did not change.
 *
 * Why: the browser lays out again only what changed. A streaming answer's open block is rendered afresh on every
 * pass (it must be: markdown is re-parsed), but if those fresh nodes replaced the old ones, the whole block would be
 * laid out and painted from scratch each time — for a 5,000-line code block, ~190 ms of layout per pass. Reconciled,
 * only the changed tail of the block is touched (its last code chunk, its last paragraph), and layout stays
 * proportional to what changed.
 *
 * Safety: the result is, node for node, the fresh render (`isEqualNode`): a kept element has exactly the fresh
 * element's tag and attributes, a kept text node gets the fresh text, and everything else is the fresh node itself,
 * moved over. So nothing can survive that the renderer would not produce from the current text. What a kept element
 * does keep is its identity and its event listeners: a listener must therefore not hold content that can change
 * (the code block's Copy reads its code from the DOM when clicked).
 */

/** Makes `target`'s children equal to `source`'s, moving source's nodes over where no old node can be kept. */
export function reconcileChildren(target: Node, source: Node): void {
  let old = target.firstChild;
  for (let fresh = source.firstChild; fresh; fresh = source.firstChild) {
    if (old && sameShell(old, fresh)) {
      if (old.nodeType === Node.TEXT_NODE) {
        updateText(old as Text, (fresh as Text).data);
      } else {
        reconcileChildren(old, fresh);
      }
      source.removeChild(fresh);
      old = old.nextSibling;
    } else if (old) {
      target.replaceChild(fresh, old);
      old = fresh.nextSibling;
    } else {
      target.appendChild(fresh);
    }
  }
  while (old) {
    const next = old.nextSibling;
    target.removeChild(old);
    old = next;
  }
}

/**
 * Whether `old` can stay in place of `fresh` with only its contents brought up to date: both text, or both the same
 * element with the same attributes (anything else — comments, other kinds — is replaced).
 */
function sameShell(old: Node, fresh: Node): boolean {
  if (old.nodeType !== fresh.nodeType) {
    return false;
  }
  if (old.nodeType === Node.TEXT_NODE) {
    return true;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    return false;
  }
  const a = old as Element;
  const b = fresh as Element;
  if (a.namespaceURI !== b.namespaceURI || a.localName !== b.localName || a.attributes.length !== b.attributes.length) {
    return false;
  }
  for (const attribute of b.attributes) {
    if (a.getAttributeNS(attribute.namespaceURI, attribute.localName) !== attribute.value) {
      return false;
    }
  }
  return true;
}

/** A grown text only has its new end appended (no new string of the whole for the browser to re-check). */
function updateText(node: Text, data: string): void {
  const current = node.data;
  if (current === data) {
    return;
  }
  if (data.length > current.length && data.startsWith(current)) {
    node.appendData(data.slice(current.length));
  } else {
    node.data = data;
  }
}

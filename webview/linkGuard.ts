/**
 * No link in the webview navigates by itself. Every click (and middle click) on an `<a>` is cancelled; allowed
 * http(s)/mailto hrefs are sent to the host, which asks the user before opening them.
 */
import { isSafeHref } from './safeLink';

export function installLinkGuard(root: Document, openLink: (href: string) => void): void {
  const handler = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target.closest('a') : null;
    if (!target) {
      return;
    }
    event.preventDefault();
    if (event.type === 'auxclick' && event.button !== 1) {
      return;
    }
    const href = target.getAttribute('href');
    if (href && isSafeHref(href)) {
      openLink(href);
    }
  };
  root.addEventListener('click', handler, true);
  root.addEventListener('auxclick', handler, true);
  // Dragging a link out of the webview would hand the URL to whatever it is dropped on.
  root.addEventListener('dragstart', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) {
      event.preventDefault();
    }
  }, true);
}

/** Follows the mouse until its button is released: `over` gets the element under it at each move. */
export function followDrag(over: (element: Element | null) => void, done: () => void): void {
  const move = (event: MouseEvent): void => over(document.elementFromPoint(event.clientX, event.clientY));
  const up = (): void => {
    window.removeEventListener('mousemove', move);
    window.removeEventListener('mouseup', up);
    done();
  };
  window.addEventListener('mousemove', move);
  window.addEventListener('mouseup', up);
}

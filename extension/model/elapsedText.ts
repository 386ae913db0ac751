/** How long a run has been going (or since it started), as the board writes it, and when that text changes next. */

/** How long ago `since` was, compactly: `42s`, `3m`, `1h 5m`, `2d 4h`. */
export function elapsedText(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) {
    return `${seconds}s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes}m`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
  }
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d ${hours % 24}h`;
}

/** Milliseconds until `elapsedText` of a run this old shows something else (seconds, then minutes). */
export function untilNextChange(ageMs: number): number {
  const age = Math.max(0, ageMs);
  const step = age < 60_000 ? 1000 : 60_000;
  return step - (age % step) + 20;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The local time of `at`: `09:48` on the day of `now`, `2 Dec 09:48` on another (a text that never goes stale). */
export function clockText(at: number, now: number): string {
  const when = new Date(at);
  const time = `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
  return when.toDateString() === new Date(now).toDateString() ? time : `${when.getDate()} ${MONTHS[when.getMonth()]} ${time}`;
}

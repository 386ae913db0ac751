/**
 * A count as en-US writes it ("12,345"), for the usage summaries of streamed runs: exactly what
 * `toLocaleString('en-US')` gives for a safe integer, without going through ICU for each usage event (a busy stream
 * reports usage with every answer, and the locale formatter costs more than the rest of the event).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) {
    return n.toLocaleString('en-US');
  }
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) {
    out += `,${digits.slice(i, i + 3)}`;
  }
  return n < 0 ? `-${out}` : out;
}

/**
 * The secret values this extension host knows — every value read from or stored into the secret store (an agent's
 * API key), and secret-looking environment variables an agent is given — so the protocol trace and the log can
 * redact them wherever they appear: in a file an agent read, in its stderr, in an error message. Redaction by key
 * (traceRedaction.ts) only sees fields named like secrets; this sees the value itself.
 *
 * One registry per process (`processSecretValues`): what is secret is a fact about the host, and every writer of
 * text that leaves it (trace, log) must see the same set. Values are never removed: a key deleted from the store is
 * no less secret in a buffer that still holds it.
 */
export const REDACTED = '<redacted>';

/**
 * Values shorter than this are not redacted by value: a short value ("1", "yes", a 4-digit code) would turn every
 * occurrence of that common text in the trace and log into `<redacted>` — ruining them and, by where it appears,
 * pointing at the value itself. Real API keys and tokens are far longer; short secrets still go by key.
 */
export const MIN_SECRET_LENGTH = 6;

export class SecretValues {
  /** Longest first: a secret that contains another is replaced whole, not in pieces. */
  private values: string[] = [];

  /** Remembers `value` (trimmed, as it would be pasted) if it is long enough to be redacted by value. */
  add(value: string | undefined): void {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < MIN_SECRET_LENGTH || this.values.includes(trimmed)) {
      return;
    }
    this.values = [...this.values, trimmed].sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.values.length;
  }

  /**
   * The first `limit` characters of `text`, redacted: a secret that starts before the cut is replaced whole (the
   * text is redacted before it is cut), so no part of one is left at the end.
   */
  redactedPrefix(text: string, limit: number): string {
    const longest = this.values[0]?.length ?? 0;
    return this.redact(text.slice(0, limit + longest)).slice(0, limit);
  }

  /** `text` with every known secret value replaced by `<redacted>`. Linear in `text` per secret; no copy without one. */
  redact(text: string): string {
    let out = text;
    for (const value of this.values) {
      if (out.includes(value)) {
        out = out.split(value).join(REDACTED);
      }
    }
    return out;
  }
}

/** The host's registry (see the file comment); tests make their own. */
export const processSecretValues = new SecretValues();

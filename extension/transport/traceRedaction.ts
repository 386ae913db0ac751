/**
 * Secrets never reach the protocol trace or the log. Redaction is by key, recursively: values under secret-looking
 * keys become "<redacted>"; under `environment` (AgencyProxy RunRequest) every value is redacted but the variable
 * names are kept, so a trace still shows which variables were passed.
 */
export const REDACTED = '<redacted>';

// Singular `token` only: `input_tokens`/`output_tokens` are usage counts, not secrets.
const SECRET_KEY = /(^|_)(auth(entication)?_?key|authorization|api_?key|token|secret|password|passphrase|credentials?|cookie)$/i;
const ENVIRONMENT_KEY = /^(environment|env)$/i;

const SECRET_FLAG = /(key|token|secret|password|passphrase|credential|auth)/i;

/**
 * Command-line arguments (AgencyProxy `uncheckedArgs`) carry secrets by position: the value after `--api-key`, or
 * the part after `=` in `--token=…`.
 */
export function redactArgs(args: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  let redactNext = false;
  for (const arg of args) {
    if (typeof arg !== 'string') {
      out.push(arg);
      redactNext = false;
      continue;
    }
    if (redactNext && !arg.startsWith('-')) {
      out.push(REDACTED);
      redactNext = false;
      continue;
    }
    const eq = /^(--?[^=]+)=(.*)$/.exec(arg);
    if (eq && SECRET_FLAG.test(eq[1]!)) {
      out.push(`${eq[1]}=${REDACTED}`);
      redactNext = false;
      continue;
    }
    redactNext = arg.startsWith('-') && SECRET_FLAG.test(arg);
    out.push(arg);
  }
  return out;
}

export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => redactSecrets(v, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEY.test(key) || /authenticationKey|apiKey|accessToken|authToken/.test(key)) {
      out[key] = REDACTED;
    } else if (/^(uncheckedArgs|unchecked_args|args|argv)$/.test(key) && Array.isArray(v)) {
      out[key] = redactArgs(v);
    } else if (ENVIRONMENT_KEY.test(key) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.keys(v).map((k) => [k, REDACTED]));
    } else {
      out[key] = redactSecrets(v, depth + 1);
    }
  }
  return out;
}

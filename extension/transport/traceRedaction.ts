/**
 * Secrets never reach the protocol trace or the log. Redaction is by key, recursively: values under secret-looking
 * keys become "<redacted>"; under `environment` (AgencyProxy RunRequest) every value is redacted but the variable
 * names are kept, so a trace still shows which variables were passed. And by value, in the same walk: every string
 * has the host's known secret values (secretValues.ts) replaced, wherever they sit — a file an agent read, an error.
 */
import type { SecretValues } from './secretValues';
import { processSecretValues, REDACTED } from './secretValues';

export { REDACTED };

/**
 * A key names a secret when, split into words (`clientSecret`, `x-api-key`, `AWS_SECRET_ACCESS_KEY` alike), its last
 * word is one of these…
 */
const SECRET_WORD = /^(token|authkey|secret|secrets|password|passwd|passphrase|credential|credentials|cookie|authorization|bearer|apikey)$/;
/** …or its last two are one of these (`key` alone is too common: a config option's key, a map key). */
const SECRET_PAIR = /^(api|auth|authentication|private|secret|access|session|signing|encryption|client|master)_key$/;
const ENVIRONMENT_KEY = /^(environment|env)$/i;
/** ACP's MCP server `env` and `headers`: lists of `{name, value}` whose values are secrets (tokens), names kept. */
const NAME_VALUE_LIST_KEY = /^(env|headers)$/i;

function isNameValueList(v: unknown): v is readonly { readonly name: unknown; readonly value: unknown }[] {
  return Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && 'name' in e && 'value' in e);
}

/**
 * The words of a key, lower case, joined by `_`: `clientSecret` → `client_secret`, `X-Api-Key` → `x_api_key`. Only
 * the singular `token` is a secret word: `input_tokens`, `max_tokens`, `tokenCount` are usage counts.
 */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a field called `key` holds a secret. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1] ?? '';
  return SECRET_WORD.test(last) || SECRET_PAIR.test(words.slice(-2).join('_'));
}

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

/**
 * `value` with secrets redacted by key and, in every string, by value (`values`: the host's registry unless a test
 * gives its own). A number, boolean or null under a secret-looking key is kept: it is a flag or a count, not a key.
 */
export function redactSecrets(value: unknown, values: SecretValues = processSecretValues, depth = 0): unknown {
  if (typeof value === 'string') {
    return values.redact(value);
  }
  if (depth > 64 || value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => redactSecrets(v, values, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSecretKey(key) && (typeof v === 'string' || (v !== null && typeof v === 'object'))) {
      out[key] = REDACTED;
    } else if (/^(uncheckedArgs|unchecked_args|args|argv)$/.test(key) && Array.isArray(v)) {
      out[key] = redactArgs(v).map((a) => (typeof a === 'string' ? values.redact(a) : a));
    } else if (NAME_VALUE_LIST_KEY.test(key) && isNameValueList(v)) {
      out[key] = v.map((e) => ({ ...(redactSecrets(e, values, depth + 2) as object), value: REDACTED }));
    } else if (ENVIRONMENT_KEY.test(key) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.keys(v).map((k) => [k, REDACTED]));
    } else {
      out[key] = redactSecrets(v, values, depth + 1);
    }
  }
  return out;
}

/**
 * The values of `env` whose names look secret (`OPENAI_API_KEY`, `GITHUB_TOKEN`): an agent is given them, and may
 * print them back in an error.
 */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (value !== undefined && isSecretKey(name) ? [value] : []));
}

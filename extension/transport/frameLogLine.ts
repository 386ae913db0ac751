/**
 * One protocol frame as a line of the extension's log (at Trace level): secrets redacted like the trace file, and
 * long strings shortened so a base64 patch or a file's content does not bury the frames around it. The protocol
 * trace file (SWITCHBOARD_TRACE_FILE) keeps frames whole; this line is for reading.
 */
import type { FrameDirection, HttpTraceInfo } from './frameTap';
import type { SecretValues } from './secretValues';
import { processSecretValues } from './secretValues';
import { redactSecrets } from './traceRedaction';

/** Strings longer than this are cut, with how much was left out. */
export const LOG_STRING_LIMIT = 400;
/** No log line grows beyond this, whatever the frame's shape (thousands of short strings). */
export const LOG_LINE_LIMIT = 16_000;

function shorten(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length > LOG_STRING_LIMIT ? `${value.slice(0, LOG_STRING_LIMIT)}… (${value.length - LOG_STRING_LIMIT} more characters)` : value;
  }
  if (depth > 64 || value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => shorten(v, depth + 1));
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]));
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    return `<not JSON: ${error instanceof Error ? error.message : String(error)}>`;
  }
}

/** `name → {"type":"hello",…}`, `name ← POST /v1/runs 200 {…}`. */
export function frameLogLine(connection: string, dir: FrameDirection, frame: unknown, http?: HttpTraceInfo, secretValues: SecretValues = processSecretValues): string {
  const arrow = dir === 'out' ? '→' : '←';
  const request = http ? ` ${http.method} ${http.path}${http.status !== undefined ? ` ${http.status}` : ''}` : '';
  // Redacted before strings are shortened: a cut through a secret value would leave its start behind.
  const body = stringify(shorten(redactSecrets(frame, secretValues), 0));
  const line = `${connection} ${arrow}${request} ${body}`;
  return line.length > LOG_LINE_LIMIT ? `${line.slice(0, LOG_LINE_LIMIT)}… (${line.length - LOG_LINE_LIMIT} more characters)` : line;
}

/**
 * The A3S harness speaks plain HTTP with no authentication, so by default the client talks only to this machine:
 * 127.0.0.0/8, ::1 (and its IPv4-mapped loopback form) or `localhost`. Anything else needs an explicit opt-in.
 */
import { isIPv4 } from 'node:net';
import { A3sError } from './a3sErrors';

const MAPPED_LOOPBACK = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;

/** True for the loopback host names/addresses above. `hostname` as WHATWG URL normalises it. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') {
    return true;
  }
  if (isIPv4(host)) {
    return host.startsWith('127.');
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare === '::1' || MAPPED_LOOPBACK.test(bare);
}

/**
 * Parses the harness base URL and enforces the loopback rule. Throws an {@link A3sError} of kind `refused_url`
 * with a message that says how to opt in.
 */
export function parseA3sBaseUrl(baseUrl: string, allowNonLoopback = false): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new A3sError('refused_url', `A3S harness URL ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.protocol !== 'http:') {
    throw new A3sError('refused_url', `A3S harness URL must use http:, got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new A3sError('refused_url', 'A3S harness URL must not carry credentials');
  }
  if (!allowNonLoopback && !isLoopbackHost(url.hostname)) {
    throw new A3sError(
      'refused_url',
      `refusing A3S harness at ${url.host}: it is not a loopback address (127.0.0.0/8, ::1, localhost) and the ` +
        'protocol has no authentication; set allowNonLoopback to connect anyway',
    );
  }
  return url;
}

/**
 * The A3S harness speaks plain HTTP with no authentication, so by default the client talks only to this machine:
 * 127.0.0.0/8, ::1 (and its IPv4-mapped loopback form) or `localhost`. Anything else needs an explicit opt-in.
 */
import { isLoopbackHost } from '../../transport/loopback';
import { A3sError } from './a3sErrors';

export { isLoopbackHost };

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

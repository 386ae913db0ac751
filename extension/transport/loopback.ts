/**
 * Whether a host is this machine: 127.0.0.0/8, ::1 (and its IPv4-mapped loopback form) or `localhost`. Daemons
 * that speak plain HTTP without authentication (A3S) are only talked to on loopback unless the user opts in.
 */
import { isIPv4 } from 'node:net';

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

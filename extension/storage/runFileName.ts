/** How a run's (or a connection's) id becomes a file name in the extension's storage. */
import { createHash } from 'node:crypto';

/** A file name for any id: readable where it can be, unique by a hash of the whole id. */
export function safeFileName(name: string): string {
  const readable = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  return `${readable}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

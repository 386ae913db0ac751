/**
 * The A3S command digest (WIRE.md 3.4): `sha256:` + lowercase hex SHA-256 of the compact JSON of the command as
 * the harness re-serialises it — keys in declaration order, no whitespace, UTF-8. The harness ignores the key
 * order the client sent, so the client must recompute over the canonical rebuild, never over its request text.
 *
 * `JSON.stringify` escapes exactly what serde_json escapes (`"`, `\`, U+0000–U+001F with the short forms and
 * lowercase `\u00xx`), leaving `/`, U+007F, U+2028 and all non-ASCII raw — so stringifying the canonical rebuild
 * is byte-identical. (Lone surrogates differ, but validation refuses them before anything is sent.)
 */
import { createHash } from 'node:crypto';
import { canonicalA3sCommand } from '../../protocol/a3s';
import type { A3sCommand } from '../../protocol/a3s';

/** Canonical compact JSON of a command (declaration order). */
export function canonicalCommandJson(command: A3sCommand): string {
  return JSON.stringify(canonicalA3sCommand(command));
}

/** `sha256:<64 lowercase hex>` over the UTF-8 of {@link canonicalCommandJson}. */
export function a3sCommandDigest(command: A3sCommand): string {
  return `sha256:${createHash('sha256').update(canonicalCommandJson(command), 'utf8').digest('hex')}`;
}

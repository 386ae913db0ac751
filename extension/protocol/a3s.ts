/**
 * A3S Code harness wire protocol `a3s.code.agent.v1` (WIRE.md §3): HTTP/1.1 + JSON, stateless, polled.
 *
 * Reading is lenient (unknown keys ignored, unknown enum strings kept as plain strings). Writing is strict: the
 * harness rejects unknown keys at every level (400 invalid_json, never naming the field), so every document the
 * client sends is produced by a builder (`a3sBuilders.ts`) that constructs a fresh object in the exact declaration
 * order of WIRE.md 3.3/3.4 — which also makes `JSON.stringify` of it the canonical form the command digest is taken
 * over.
 *
 * The schemas live in one module per section of the wire; this module re-exports them so importers keep one path:
 * `a3sConstants.ts` (schema strings, error codes, limits, run states), `a3sDocuments.ts` (identity, commands,
 * receipt, event pages, change sets, errors, health), `a3sBuilders.ts` (strict writing), `a3sEventCatalogue.ts`
 * (event types and decoding).
 *
 * Pure: imports only `zod`.
 */
export * from './a3sConstants';
export * from './a3sDocuments';
export * from './a3sBuilders';
export * from './a3sEventCatalogue';

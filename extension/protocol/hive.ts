/**
 * hyperhive `hive-c0re` per-agent / manager `mcp.sock` wire (WIRE.md §4, `hive_mcp_sock.rs`).
 *
 * One NDJSON request (`cmd`-tagged, snake_case) and one NDJSON response (`kind`-tagged) per connection.
 * Request and response envelopes are exact; the companion payload types (`DeliveredMessage`, `InboxRow`,
 * `LooseEnd`, ...) are unverified (WIRE.md 4.5), so every element of a companion list parses to a `Lenient<T>`:
 * `{ok:true, value}` when it matches the best-known shape (unknown keys kept), `{ok:false, raw, error}` otherwise,
 * so the UI can show readable raw JSON instead of failing the whole response.
 *
 * The schemas live in one module per section of the wire; this module re-exports them so importers keep one path:
 * `hiveCompanionTypes.ts` (companion payload types and the `Lenient` helpers), `hiveRequests.ts` (requests),
 * `hiveResponses.ts` (responses and `parseHiveResponse`).
 */
export * from './hiveCompanionTypes';
export * from './hiveRequests';
export * from './hiveResponses';

/**
 * SCV protocol 3 — everything the server sends (`ServerEvent`, WIRE.md §2.5, `scv_server_events.rs`), read
 * leniently. `parseScvServerEvent` never throws: a `type` this client does not know becomes an `unknown` event
 * that keeps the raw JSON and its `seq` (so the gap rule can excuse it); a known `type` with a bad shape becomes a
 * `malformed` result carrying the raw value for display. Client messages: `scvClientMessages.ts`; nested types:
 * `scvTypes.ts`; management: `scvDaemonControl.ts`.
 *
 * The server side lives in one module per section; this module re-exports them so importers keep one path:
 * `scvLimits.ts` (version and limits), `scvServerEvents.ts` (the event schemas), `scvServerEventParser.ts`
 * (`parseScvServerEvent`).
 */
export * from './scvLimits';
export * from './scvServerEvents';
export * from './scvServerEventParser';

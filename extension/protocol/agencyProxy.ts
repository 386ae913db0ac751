/**
 * AgencyProxy protocol 0.3 (WIRE.md §1, `agency_proxy_protocol.rs`): zod schemas of every frame exactly as serde
 * writes it, plus builders for canonical client frames.
 *
 * Reading is lenient: unknown keys are ignored, unknown state/capability/error-code strings are kept, unknown event
 * and response types parse into an `unknown` shape that keeps the raw JSON. Writing is strict: the builders emit
 * every key in serde's order (RunRequest options as `null`), validate against the client schemas and refuse integers
 * that a JS number cannot carry exactly.
 *
 * Case trap (§1.14): client frames say `requestId` (camelCase envelope) with snake_case message fields; responses say
 * `request_id`; RunRequest / RunSnapshot / ProviderStatus / ProviderAccountUsage are camelCase; event payload objects
 * are snake_case.
 *
 * The schemas live in one module per section of the wire; this module re-exports them so importers keep one path:
 * `agencyProxyTypes.ts` (version, enums, shared data types), `agencyProxyClientFrames.ts` (client frames and their
 * builders), `agencyProxyRunEvents.ts` (run events), `agencyProxyServerFrames.ts` (responses, event frames and
 * `parseServerFrame`).
 */
export * from './agencyProxyTypes';
export * from './agencyProxyClientFrames';
export * from './agencyProxyRunEvents';
export * from './agencyProxyServerFrames';

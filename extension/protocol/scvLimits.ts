/** SCV protocol 3 — the protocol version and the size limits both sides enforce (WIRE.md §2.2, §2.4). */

/** The `protocol_version` of `initialize` (WIRE.md §2.3). */
export const SCV_PROTOCOL_VERSION = 3;
/** Longest client line (JSON bytes, terminator excluded). */
export const SCV_MAX_CLIENT_LINE_BYTES = 1_048_576;
/** Longest `turn.start` prompt in UTF-8 bytes. */
export const SCV_MAX_PROMPT_BYTES = 262_144;
/** Default `session.started.max_server_frame_bytes`. */
export const SCV_DEFAULT_MAX_SERVER_FRAME_BYTES = 8_388_608;
/** Reader size before `session.started` arrives: default frame + 2 (WIRE.md §2.2 advice). */
export const SCV_INITIAL_READER_BYTES = SCV_DEFAULT_MAX_SERVER_FRAME_BYTES + 2;
export const SCV_MAX_TURN_ATTACHMENTS = 16;
export const SCV_MAX_CHANNEL_NAME_BYTES = 32;

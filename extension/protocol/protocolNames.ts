/**
 * The daemon protocols, in the order the settings list them: the one list the connection-profile schema, the
 * webview contract, the model and the protocol trace derive from (package.json's enum is checked against it).
 * No imports: shared with the webview bundle.
 */
export const PROTOCOL_NAMES = ['agency-proxy', 'scv', 'a3s', 'hive', 'acp'] as const;
export type ProtocolName = (typeof PROTOCOL_NAMES)[number];

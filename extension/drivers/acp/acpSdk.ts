/**
 * The parts of `@agentclientprotocol/sdk` the ACP driver runs. The shipped extension builds this module as a bundle
 * of its own (`dist/acpSdk.js`, see esbuild.mjs) and acpConnection.ts loads it on first use, so the SDK — and the
 * parts of zod it brings — cost nothing to a window without an ACP agent. Types come from the SDK directly.
 */
export { client, methods, ndJsonStream, RequestError } from '@agentclientprotocol/sdk';

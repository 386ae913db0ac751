/**
 * The parts of `@agentclientprotocol/sdk` the ACP driver runs. The shipped extension builds this module as a bundle
 * of its own (`dist/acpSdk.js`, see esbuild.mjs) and acpConnection.ts loads it on first use, so the SDK — and the
 * parts of zod it brings — cost nothing to a window without an ACP agent. Types come from the SDK directly.
 * It is the unstable entrypoint (the full v1 surface): the stable one has no `session/fork` method and validates
 * with the stable schemas only. Which of it is used is decided by what the agent advertises.
 */
// The unstable entry: its schemas know the updates and requests the driver uses behind the agent's capabilities
// (subagent_update, elicitation/*); the stable entry's would drop them before the driver saw them.
export { client, methods, ndJsonStream, RequestError } from '@agentclientprotocol/sdk/unstable';
